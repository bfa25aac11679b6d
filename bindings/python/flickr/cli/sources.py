# SPDX-License-Identifier: MIT
"""Which files `flickr upload DIR` sends: the images in a directory, found by name or by content."""
from __future__ import annotations

import os

# Image types Flickr takes as photos (the sandbox recognises the same ones); videos are left to
# be named one by one, as a folder of photos often holds clips nobody meant to publish.
IMAGE_EXTENSIONS = frozenset({".jpg", ".jpeg", ".jpe", ".png", ".gif", ".tif", ".tiff", ".heic", ".heif"})
_HEIF_BRANDS = (b"heic", b"heix", b"heim", b"heis", b"mif1", b"msf1")


def sniff_image(head: bytes) -> bool:
    """True when `head`, a file's first 12 bytes or more, starts an image of one of those types."""
    return (head.startswith((b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"GIF87a", b"GIF89a", b"II*\x00", b"MM\x00*"))
            or (head[4:8] == b"ftyp" and head[8:12] in _HEIF_BRANDS))


def is_image(path: str) -> bool:
    """By the name's extension; a name without a known one (IMG_0001, x.jpg.download) by content.
    A file that cannot be read for sniffing is not counted: nobody asked for it by name."""
    if os.path.splitext(path)[1].lower() in IMAGE_EXTENSIONS:
        return True
    try:
        with open(path, "rb") as file:
            return sniff_image(file.read(16))
    except OSError:
        return False


def images_in(directory: str, recursive: bool = False) -> tuple[list[str], int]:
    """The image files of `directory` sorted by path (and of its subdirectories with `recursive`,
    not through links to directories), and how many other files were passed over. Hidden files
    and directories are left out: ._IMG_1.jpg is macOS metadata, not a photo. Raises OSError
    for a directory that cannot be listed."""
    def unreadable(error: OSError) -> None:  # os.walk would pass over it in silence
        raise error

    found, skipped = [], 0
    for root, dirs, files in os.walk(directory, onerror=unreadable):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if recursive else []
        for name in files:
            path = os.path.join(root, name)
            if name.startswith(".") or not os.path.isfile(path):
                continue
            if is_image(path):
                found.append(path)
            else:
                skipped += 1
    return sorted(found, key=lambda path: os.path.relpath(path, directory).split(os.sep)), skipped
