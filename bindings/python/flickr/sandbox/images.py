# SPDX-License-Identifier: MIT
"""Image sniffing, header-only dimension reading, and placeholder JPEGs.

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
    """(width, height) read from a JPEG, PNG or GIF header; None if unknown."""
    with open(path, "rb") as f:
        head = f.read(_JPEG_HEADER_LIMIT)
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


# Huffman tables of ITU T.81 Annex K (K.3 luminance DC, K.4 chrominance DC):
# code-length counts for lengths 1..16, then the symbols (DC categories 0..11).
_DC_TABLES = (
    (bytes([0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]), bytes(range(12))),
    (bytes([0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]), bytes(range(12))),
)
# Every block of a uniform image has all AC coefficients zero: the AC table
# needs only end-of-block (symbol 0), as the one code ``0``.
_AC_EOB_ONLY = (bytes([1] + [0] * 15), b"\x00")
_JFIF = b"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"


def _huffman_codes(counts: bytes, symbols: bytes) -> dict[int, str]:
    """Canonical Huffman codes (T.81 Annex C) as bit strings, by symbol."""
    codes, code, index = {}, 0, 0
    for length, count in enumerate(counts, 1):
        for _ in range(count):
            codes[symbols[index]] = format(code, f"0{length}b")
            code += 1
            index += 1
        code <<= 1
    return codes


def _dc_bits(table: int, value: int) -> str:
    """A DC difference: its category's code, then the value's extra bits (T.81 F.1.2.1)."""
    category = abs(value).bit_length()
    extra = value if value >= 0 else value + (1 << category) - 1
    return _huffman_codes(*_DC_TABLES[table])[category] + (format(extra, f"0{category}b") if category else "")


def _dht(table_class: int, table_id: int, counts: bytes, symbols: bytes) -> bytes:
    body = bytes([table_class << 4 | table_id]) + counts + symbols
    return b"\xff\xc4" + struct.pack(">H", 2 + len(body)) + body


def placeholder_jpeg(width: int, height: int, rgb: tuple[int, int, int] = (128, 128, 128)) -> bytes:
    """A valid baseline YCbCr JPEG of the given size, uniformly of colour ``rgb``.

    Seeded photos have no uploaded file; this stands in for each of their
    sizes.  Quantisation is 1 and every block holds only its DC coefficient
    (8 x the level-shifted sample), so the first MCU carries each component's
    DC value and every later MCU is three zero DC differences and three
    end-of-blocks: 9 zero bits, about width*height/57 bytes in all.
    """
    r, g, b = rgb
    samples = (0.299 * r + 0.587 * g + 0.114 * b,                # JFIF RGB -> YCbCr
               128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
               128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
    dcs = [max(-1024, min(1016, round(8 * (s - 128)))) for s in samples]
    eob = _huffman_codes(*_AC_EOB_ONLY)[0]
    first = "".join(_dc_bits(min(i, 1), dc) + eob for i, dc in enumerate(dcs))
    later = len(_dc_bits(0, 0) + eob) + 2 * len(_dc_bits(1, 0) + eob)
    mcus = ((width + 7) // 8) * ((height + 7) // 8)
    nbits = len(first) + (mcus - 1) * later
    pad = -nbits % 8  # the last byte is padded with 1-bits, as T.81 requires
    scan = ((int(first, 2) << (nbits - len(first) + pad)) | ((1 << pad) - 1)).to_bytes((nbits + pad) // 8, "big")
    scan = scan.replace(b"\xff", b"\xff\x00")  # byte stuffing
    dqt = b"\xff\xdb\x00\x43\x00" + b"\x01" * 64
    # Three components (Y, Cb, Cr), no subsampling, all on quantisation table 0.
    sof = b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", height, width) + \
        b"\x03\x01\x11\x00\x02\x11\x00\x03\x11\x00"
    dht = (_dht(0, 0, *_DC_TABLES[0]) + _dht(0, 1, *_DC_TABLES[1]) + _dht(1, 0, *_AC_EOB_ONLY))
    # Y uses DC table 0, Cb and Cr DC table 1; all use AC table 0.
    sos = b"\xff\xda\x00\x0c\x03\x01\x00\x02\x10\x03\x10\x00\x3f\x00"
    return b"\xff\xd8" + _JFIF + dqt + sof + dht + sos + scan + b"\xff\xd9"
