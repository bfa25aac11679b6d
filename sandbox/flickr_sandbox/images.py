# SPDX-License-Identifier: MIT
"""Image sniffing and header-only dimension reading.

Flickr decides the file type from the content, not the filename, so uploads
are sniffed by magic bytes.  Dimensions come from the file header only; the
sandbox never decodes pixels.
"""

from __future__ import annotations

import struct

# (originalformat, media) by magic bytes.
def sniff(head: bytes) -> tuple[str, str] | None:
    """Return (originalformat, media) for a recognised file start, else None."""
    if head.startswith(b"\xff\xd8\xff"):
        return "jpg", "photo"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png", "photo"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "gif", "photo"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff", "photo"
    if head[4:8] == b"ftyp":
        brand = head[8:12]
        if brand in (b"heic", b"heix", b"mif1", b"msf1", b"heim", b"heis"):
            return "heic", "photo"
        return "mp4", "video"
    return None


CONTENT_TYPES = {"jpg": "image/jpeg", "png": "image/png", "gif": "image/gif",
                 "tiff": "image/tiff", "heic": "image/heic", "mp4": "video/mp4"}


def dimensions(path: str) -> tuple[int, int] | None:
    """(width, height) read from a JPEG, PNG or GIF file's header; None if unknown."""
    with open(path, "rb") as f:
        return header_dimensions(f.read(_JPEG_HEADER_LIMIT))


def header_dimensions(head: bytes) -> tuple[int, int] | None:
    """(width, height) from the first bytes of a JPEG, PNG or GIF; None if unknown."""
    if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR":
        return struct.unpack(">II", head[16:24])
    if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
        return struct.unpack("<HH", head[6:10])
    if head.startswith(b"\xff\xd8"):
        return _jpeg_dimensions(head)
    return None


# The frame header comes before the image data, after at most a few metadata
# segments (EXIF, ICC profile...): only this much of a JPEG is examined.
_JPEG_HEADER_LIMIT = 1024 * 1024
# Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) are not SOFs.
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_dimensions(data: bytes) -> tuple[int, int] | None:
    """Walk the marker segments after SOI up to the first SOF (or give up)."""
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return None  # not a marker where one must be: corrupt or not a JPEG
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:
            pos += 2  # standalone markers
            continue
        if marker in (0xD9, 0xDA):
            return None  # end of image or scan data before any frame header
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        if marker in _SOF:
            if pos + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[pos + 5:pos + 9])
            return width, height
        pos += 2 + length
    return None
