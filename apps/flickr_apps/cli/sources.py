# SPDX-License-Identifier: MIT
"""Which files `flickr upload DIR` sends: the images in a directory, found by name or by content."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from flickr.files import open_regular

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
        with os.fdopen(open_regular(path, follow=True), "rb") as file:  # a FIFO is no image: never waited on
            return sniff_image(file.read(16))
    except OSError:
        return False


@dataclass
class Found:
    """What `images_in` found in a directory."""

    images: list[str] = field(default_factory=list)
    others: int = 0  # files that are no images
    links_out: list[str] = field(default_factory=list)  # links leading out of the directory, not followed
    repeats: int = 0  # images reached again through a link: each file is sent once


def images_in(directory: str, recursive: bool = False, follow_links: bool = False) -> Found:
    """The image files of `directory` sorted by path (and of its subdirectories with `recursive`),
    and what was passed over. Hidden files and directories are left out: ._IMG_1.jpg is macOS
    metadata, not a photo. A symbolic link is taken for what it points to only when that is inside
    `directory` (resolved): one leading anywhere else (to /etc/shadow, say: uploads are often
    public) is left out and listed, unless `follow_links`. Links to directories are walked only
    with `follow_links`, each directory once, so a link loop ends; and each file is listed once,
    by its first path, however many links lead to it. `directory` itself, named by the user, may
    be a link. Raises OSError for a directory that cannot be listed."""
    root = os.path.realpath(directory)
    found = Found()
    walked: set[tuple[int, int]] = set()  # _identity of each directory listed
    identities: dict[str, tuple[int, int]] = {}  # of each image found

    def leads_out(path: str) -> bool:
        resolved = os.path.realpath(path)
        return resolved != root and not resolved.startswith(os.path.join(root, ""))

    folders = [directory]  # a stack, not recursion: a tree may be deeper than Python's stack
    while folders:
        folder = folders.pop()
        identity = _identity(os.stat(folder))
        if identity in walked:
            continue
        walked.add(identity)
        with os.scandir(folder) as listing:
            entries = list(listing)
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_symlink():
                if not follow_links and leads_out(entry.path):
                    found.links_out.append(entry.path)
                    continue
                if entry.is_dir() and not follow_links:
                    continue  # inside the directory: its files are found where they are
            if entry.is_dir():
                if recursive:
                    folders.append(entry.path)
            elif not entry.is_file():
                continue  # a device, a pipe, a link to nothing
            elif is_image(entry.path):
                found.images.append(entry.path)
                identities[entry.path] = _identity(entry.stat())
            else:
                found.others += 1

    found.images.sort(key=lambda path: os.path.relpath(path, directory).split(os.sep))
    sent: set[tuple[int, int]] = set()
    for path in list(found.images):
        if identities[path] in sent:
            found.images.remove(path)
            found.repeats += 1
        sent.add(identities[path])
    found.links_out.sort()
    return found


def _identity(info: os.stat_result) -> tuple[int, int]:
    """Which file or directory this is, whatever path (or link) led to it."""
    return info.st_dev, info.st_ino
