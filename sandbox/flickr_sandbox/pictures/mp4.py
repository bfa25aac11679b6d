# SPDX-License-Identifier: MIT
"""A small valid MP4 (ISO/IEC 14496-12 and -14) whose video track is Motion JPEG.

The sandbox's videos need a file a player or a probe accepts, made with the standard library
in milliseconds: the frames are the sandbox's own JPEGs, carried in an ``mp4v`` sample entry
whose decoder configuration names JPEG (object type 0x6C, ISO/IEC 10918-1), as the MP4
registration authority lists it.  One track, no audio, every frame a sync sample, the
``moov`` before the ``mdat`` (a "fast start" file), fixed times (no creation date), so the
same video is the same bytes.
"""

from __future__ import annotations

import struct

TIMESCALE = 1000  # milliseconds
_MATRIX = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)  # identity


def _box(kind: bytes, *parts: bytes) -> bytes:
    body = b"".join(parts)
    return struct.pack(">I", 8 + len(body)) + kind + body


def _full(kind: bytes, version: int, flags: int, *parts: bytes) -> bytes:
    return _box(kind, struct.pack(">I", version << 24 | flags), *parts)


def _descriptor(tag: int, body: bytes) -> bytes:
    """An MPEG-4 descriptor (14496-1): tag, then its length in the four-byte expandable form."""
    n = len(body)
    size = bytes([0x80 | (n >> 21) & 0x7F, 0x80 | (n >> 14) & 0x7F, 0x80 | (n >> 7) & 0x7F, n & 0x7F])
    return bytes([tag]) + size + body


def _sample_entry(width: int, height: int, largest: int) -> bytes:
    decoder = _descriptor(0x04, bytes([0x6C, 0x04 << 2 | 1]) + largest.to_bytes(3, "big")
                          + struct.pack(">II", 0, 0))
    es = _descriptor(0x03, struct.pack(">HB", 1, 0) + decoder + _descriptor(0x06, b"\x02"))
    esds = _full(b"esds", 0, 0, es)
    return _box(b"mp4v", bytes(6), struct.pack(">H", 1), bytes(16), struct.pack(">HH", width, height),
                struct.pack(">II", 0x480000, 0x480000), bytes(4), struct.pack(">H", 1),
                bytes([11]) + b"Motion JPEG".ljust(31, b"\x00"), struct.pack(">Hh", 0x18, -1), esds)


def write(width: int, height: int, duration_ms: int, frames: list[bytes]) -> bytes:
    """The MP4 of ``frames`` (JPEGs of ``width`` x ``height``) shown evenly over ``duration_ms``."""
    if not frames or width <= 0 or height <= 0 or width > 0xFFFF or height > 0xFFFF:
        raise ValueError(f"an MP4 needs frames and a size that fits: {len(frames)} frames, {width}x{height}")
    count = len(frames)
    delta = max(1, duration_ms // count)
    duration = delta * count
    stbl = _box(b"stbl",
                _full(b"stsd", 0, 0, struct.pack(">I", 1), _sample_entry(width, height, max(map(len, frames)))),
                _full(b"stts", 0, 0, struct.pack(">III", 1, count, delta)),
                _full(b"stsc", 0, 0, struct.pack(">IIII", 1, 1, count, 1)),
                _full(b"stsz", 0, 0, struct.pack(">II", 0, count), b"".join(struct.pack(">I", len(f)) for f in frames)),
                _full(b"stco", 0, 0, struct.pack(">II", 1, 0)))  # the offset, patched below
    minf = _box(b"minf", _full(b"vmhd", 0, 1, bytes(8)),
                _box(b"dinf", _full(b"dref", 0, 0, struct.pack(">I", 1), _full(b"url ", 0, 1))), stbl)
    mdia = _box(b"mdia",
                _full(b"mdhd", 0, 0, struct.pack(">IIIIHH", 0, 0, TIMESCALE, duration, 0x55C4, 0)),  # language "und"
                _full(b"hdlr", 0, 0, bytes(4), b"vide", bytes(12), b"VideoHandler\x00"), minf)
    tkhd = _full(b"tkhd", 0, 3, struct.pack(">IIIII", 0, 0, 1, 0, duration), bytes(8),
                 struct.pack(">hhhH", 0, 0, 0, 0), _MATRIX, struct.pack(">II", width << 16, height << 16))
    mvhd = _full(b"mvhd", 0, 0, struct.pack(">IIII", 0, 0, TIMESCALE, duration), struct.pack(">IH", 0x10000, 0x100),
                 bytes(10), _MATRIX, bytes(24), struct.pack(">I", 2))
    moov = _box(b"moov", mvhd, _box(b"trak", tkhd, mdia))
    ftyp = _box(b"ftyp", b"isom", struct.pack(">I", 0x200), b"isomiso2mp41")
    offset = len(ftyp) + len(moov) + 8
    stco_at = moov.index(b"stco") + 12  # after the box's kind, version and flags, and the entry count
    moov = moov[:stco_at] + struct.pack(">I", offset) + moov[stco_at + 4:]
    return ftyp + moov + _box(b"mdat", *frames)
