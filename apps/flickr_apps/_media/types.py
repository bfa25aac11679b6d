# SPDX-License-Identifier: MIT
"""`MediaType`: what a fetched file is, read from its first bytes, and the extension it is saved under.

A media file's name ends in the extension of its media type, from the table below, and that type
is read from the file's own bytes (its signature): never from the URL it came from, which a
server chooses freely (an image URL ending in `.json` would name the file like its sidecar, one
ending in `.html` would make a page of it). The library's fetch already refuses an answer that
starts like no image; a file of a type not in the table (an ISO media file of a brand nobody
listed) is refused here too: the item fails and is fetched again by a later run, nothing saved.
"""
from __future__ import annotations

import os
from typing import NamedTuple, Optional

from flickr.files import open_regular


class MediaType(NamedTuple):
    mime: str
    extension: str
    video: bool


# Every media type a file is saved as; the extension is the one the type is known by.
TYPES = {mime: MediaType(mime, extension, mime.startswith("video/")) for mime, extension in (
    ("image/jpeg", "jpg"), ("image/png", "png"), ("image/gif", "gif"), ("image/webp", "webp"),
    ("image/tiff", "tif"), ("image/heic", "heic"), ("image/avif", "avif"), ("video/mp4", "mp4"),
    ("video/quicktime", "mov"), ("video/x-m4v", "m4v"), ("video/3gpp", "3gp"))}
BY_EXTENSION = {media.extension: media for media in TYPES.values()}
HEAD_BYTES = 64  # what `sniff` reads: the longest signature, an ISO file's brands
# ISO media brands (the ftyp box: the major brand, then the compatible ones), first match wins.
_BRANDS = (
    ("image/avif", {b"avif", b"avis"}),
    ("image/heic", {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx"}),
    ("video/quicktime", {b"qt  "}),
    ("video/x-m4v", {b"M4V ", b"M4VH", b"M4VP"}),
    ("video/3gpp", {b"3gp4", b"3gp5", b"3gp6", b"3gp7", b"3gg6", b"3g2a"}),
    ("video/mp4", {b"isom", b"iso2", b"iso3", b"iso4", b"iso5", b"iso6", b"mp41", b"mp42", b"avc1", b"dash",
                   b"mmp4", b"MSNV", b"XAVC", b"CAEP", b"f4v "}),
)


class UnknownMedia(ValueError):
    """The file is no image or video of `TYPES`."""


def sniff(head: bytes) -> Optional[MediaType]:
    """The media type of a file starting with `head` (its first HEAD_BYTES), or None."""
    if head.startswith(b"\xff\xd8\xff"):
        return TYPES["image/jpeg"]
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return TYPES["image/png"]
    if head.startswith((b"GIF87a", b"GIF89a")):
        return TYPES["image/gif"]
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return TYPES["image/webp"]
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return TYPES["image/tiff"]
    if head[4:8] == b"ftyp":
        end = min(int.from_bytes(head[:4], "big"), len(head))
        brands = [head[8:12]] + [head[at:at + 4] for at in range(16, end - 3, 4)]
        for mime, known in _BRANDS:
            if any(brand in known for brand in brands):
                return TYPES[mime]
    return None


def of_path(path: str) -> MediaType:
    """The media type of the regular file at `path`; UnknownMedia when none."""
    fd = open_regular(path)
    try:
        head = os.pread(fd, HEAD_BYTES, 0)
    finally:
        os.close(fd)
    found = sniff(head)
    if found is None:
        shown = "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in head[:24])
        raise UnknownMedia(f"the file served is no image or video of a known type (it starts with \"{shown}\");"
                           " not saved")
    return found
