# SPDX-License-Identifier: MIT
"""PNG in pure Python: writing RGB images, and reading the simple ones back as RGB.

Written PNGs are 8-bit RGB with filter 0 on every row.  Reading takes 8-bit,
non-interlaced greyscale, RGB, palette, grey+alpha and RGBA images (alpha is
dropped: composed on white); undoing a row filter costs a Python step per byte
for Sub, Average and Paeth (None and Up are whole-row operations), which is why
``read`` takes a pixel budget and declines images above it.
"""

from __future__ import annotations

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Colour type -> bytes per pixel at bit depth 8.
_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def write(width: int, height: int, pixels: bytes | bytearray, level: int = 6) -> bytes:
    """An 8-bit RGB PNG of ``pixels`` (3 bytes a pixel, rows top to bottom)."""
    line = width * 3
    raw = b"".join(b"\x00" + bytes(pixels[y * line:(y + 1) * line]) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, level)) + _chunk(b"IEND", b"")


def read(data: bytes, max_pixels: int) -> tuple[int, int, bytearray] | None:
    """(width, height, RGB pixels) of a PNG this module can read within ``max_pixels``; else None.

    None also for a damaged file: the caller then does without the picture.
    """
    try:
        return _read(data, max_pixels)
    except (ValueError, IndexError, KeyError, struct.error, zlib.error):
        return None


def _read(data: bytes, max_pixels: int) -> tuple[int, int, bytearray] | None:
    if not data.startswith(SIGNATURE):
        return None
    pos, header, palette, idat = 8, b"", b"", []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = body
        elif kind == b"PLTE":
            palette = body
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    if depth != 8 or interlace or colour_type not in _CHANNELS or not 0 < width * height <= max_pixels:
        return None
    bpp = _CHANNELS[colour_type]
    line = width * bpp
    raw = zlib.decompressobj().decompress(b"".join(idat), height * (line + 1))
    if len(raw) < height * (line + 1):
        return None
    previous = bytes(line)
    rows = []
    for y in range(height):
        start = y * (line + 1)
        row = _unfilter(raw[start], bytearray(raw[start + 1:start + 1 + line]), previous, bpp)
        rows.append(row)
        previous = row
    return width, height, _to_rgb(b"".join(rows), colour_type, palette)


def _unfilter(kind: int, row: bytearray, previous: bytes, bpp: int) -> bytes:
    if kind == 0:
        return bytes(row)
    if kind == 2:  # Up: one byte-wise addition of two rows
        n = len(row)
        x, y = int.from_bytes(row, "big"), int.from_bytes(previous, "big")
        low, high = int.from_bytes(b"\x7f" * n, "big"), int.from_bytes(b"\x80" * n, "big")
        # Seven low bits of each byte added without a carry out of the byte; the top bit by xor.
        return (((x & low) + (y & low)) ^ ((x ^ y) & high)).to_bytes(n, "big")
    for i in range(len(row)):
        left = row[i - bpp] if i >= bpp else 0
        if kind == 1:
            row[i] = (row[i] + left) & 255
        elif kind == 3:
            row[i] = (row[i] + ((left + previous[i]) >> 1)) & 255
        elif kind == 4:
            up, corner = previous[i], previous[i - bpp] if i >= bpp else 0
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            row[i] = (row[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        else:
            raise ValueError(f"PNG filter type {kind}")
    return bytes(row)


def _to_rgb(samples: bytes, colour_type: int, palette: bytes) -> bytearray:
    if colour_type == 2:
        return bytearray(samples)
    if colour_type == 3:
        lookups = [bytes(palette[i * 3 + c] if i * 3 + c < len(palette) else 0 for i in range(256))
                   for c in range(3)]
    else:
        lookups = [bytes(range(256))] * 3
    if colour_type in (4, 6):  # on white: v * a / 255 + 255 - a
        colours = 1 if colour_type == 4 else 3
        step = colours + 1
        alpha = samples[colours::step]
        out = bytearray(len(alpha) * 3)
        for c in range(3):
            values = samples[min(c, colours - 1)::step]
            out[c::3] = bytes((v * a + 255 * (255 - a)) // 255 for v, a in zip(values, alpha))
        return out
    out = bytearray(len(samples) * 3)
    for c in range(3):
        out[c::3] = samples.translate(lookups[c])
    return out
