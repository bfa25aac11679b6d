# SPDX-License-Identifier: MIT
"""Baseline JPEG writing in pure Python: uniform placeholders and encoded pictures.

``placeholder_jpeg`` writes a uniform image without encoding pixels (every block
is its DC coefficient alone).  ``encode`` is a real baseline encoder (ITU T.81:
YCbCr 4:4:4, the Annex K quantisation tables scaled by quality, Huffman tables
optimised for the image as Annex K.2 builds them) made fast for the sandbox's
drawn pictures: flat colours and gradients repeat the same 8x8 block many
times, so each distinct block is transformed once (``encode`` keeps them by
their bytes) and only the blocks on an edge cost a DCT.
"""

from __future__ import annotations

import heapq
import itertools
import operator
import struct
from collections import Counter
from typing import Iterable

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


def _extra_bits(value: int) -> str:
    """A coefficient's magnitude category's extra bits (T.81 F.1.2.1); "" for 0."""
    category = abs(value).bit_length()
    extra = value if value >= 0 else value + (1 << category) - 1
    return format(extra, f"0{category}b") if category else ""


def _dc_bits(codes: dict[int, str], value: int) -> str:
    """A DC difference: its category's code, then the value's extra bits."""
    return codes[abs(value).bit_length()] + _EXTRA[value]


def _dht(table_class: int, table_id: int, counts: bytes, symbols: bytes) -> bytes:
    body = bytes([table_class << 4 | table_id]) + counts + symbols
    return b"\xff\xc4" + struct.pack(">H", 2 + len(body)) + body


def _frame(width: int, height: int, chroma: int) -> bytes:
    """Baseline frame header and scan header: three components (Y, Cb, Cr), no subsampling.

    Y uses quantisation table 0 and Huffman tables 0 (DC and AC); Cb and Cr DC table 1, and
    quantisation and AC table ``chroma``.
    """
    sof = b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", height, width) + \
        bytes([3, 1, 0x11, 0, 2, 0x11, chroma, 3, 0x11, chroma])
    return sof + b"\xff\xda\x00\x0c\x03\x01\x00" + bytes([2, 0x10 | chroma, 3, 0x10 | chroma]) + b"\x00\x3f\x00"


def _scan_bytes(bits: str) -> bytes:
    """Entropy-coded data: padded with 1-bits to a whole byte (T.81 F.1.2.3), 0xFF stuffed."""
    bits += "1" * (-len(bits) % 8)
    return int(bits, 2).to_bytes(len(bits) // 8, "big").replace(b"\xff", b"\xff\x00") if bits else b""


def placeholder_jpeg(width: int, height: int, rgb: tuple[int, int, int] = (128, 128, 128)) -> bytes:
    """A valid baseline YCbCr JPEG of the given size, uniformly of colour ``rgb``.

    Tests make valid JPEGs of any size with it, at once.  Quantisation is 1 and
    every block holds only its DC coefficient (8 x the level-shifted sample), so
    the first MCU carries each component's DC value and every later MCU is three
    zero DC differences and three end-of-blocks: 9 zero bits, about
    width*height/57 bytes in all.
    """
    r, g, b = rgb
    samples = (0.299 * r + 0.587 * g + 0.114 * b,                # JFIF RGB -> YCbCr
               128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
               128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
    dcs = [max(-1024, min(1016, round(8 * (s - 128)))) for s in samples]
    dc_codes = [_huffman_codes(*table) for table in _DC_TABLES]
    eob = _huffman_codes(*_AC_EOB_ONLY)[0]
    first = "".join(_dc_bits(dc_codes[min(i, 1)], dc) + eob for i, dc in enumerate(dcs))
    later = len(_dc_bits(dc_codes[0], 0) + eob) + 2 * len(_dc_bits(dc_codes[1], 0) + eob)
    mcus = ((width + 7) // 8) * ((height + 7) // 8)
    nbits = len(first) + (mcus - 1) * later
    pad = -nbits % 8  # the last byte is padded with 1-bits, as T.81 requires
    scan = ((int(first, 2) << (nbits - len(first) + pad)) | ((1 << pad) - 1)).to_bytes((nbits + pad) // 8, "big")
    scan = scan.replace(b"\xff", b"\xff\x00")  # byte stuffing
    dqt = b"\xff\xdb\x00\x43\x00" + b"\x01" * 64
    dht = (_dht(0, 0, *_DC_TABLES[0]) + _dht(0, 1, *_DC_TABLES[1]) + _dht(1, 0, *_AC_EOB_ONLY))
    frame = _frame(width, height, 0)
    return b"\xff\xd8" + _JFIF + dqt + frame[:19] + dht + frame[19:] + scan + b"\xff\xd9"


# -- The encoder ------------------------------------------------------------------------------

# Annex K.1's tables (natural order), the base the quality scales.
_LUMINANCE = (16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
              14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
              18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
              49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99)
_CHROMINANCE = (17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
                24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99) + (99,) * 32
# Position k of the zig-zag sequence is natural index ZIGZAG[k] (row * 8 + column).
ZIGZAG = sorted(range(64), key=lambda i: (i // 8 + i % 8, i // 8 if (i // 8 + i % 8) % 2 else -(i // 8)))
# The AAN transform below leaves coefficient (u, v) multiplied by 8 * _AAN[u] * _AAN[v] (libjpeg's
# aanscalefactor, written out: no libm result in the bytes).
_AAN = (1.0, 1.387039845, 1.306562965, 1.175875602, 1.0, 0.785694958, 0.541196100, 0.275899379)  # cos(k pi/16) sqrt(2), k > 0
# RGB -> level-shifted YCbCr (JFIF), one table per product: three look-ups and two additions a sample.
_TO_Y = tuple(tuple(f * v for v in range(256)) for f in (0.299, 0.587, 0.114))
_TO_CB = tuple(tuple(f * v for v in range(256)) for f in (-0.168736, -0.331264, 0.5))
_TO_CR = tuple(tuple(f * v for v in range(256)) for f in (0.5, -0.418688, -0.081312))
_EOB, _ZRL = 0x00, 0xF0
_IN_ZIGZAG = operator.itemgetter(*ZIGZAG)
# The extra bits of every value a coefficient (-1023..1023) or a DC difference (-2047..2047) can take.
_EXTRA = {v: _extra_bits(v) for v in range(-2047, 2048)}

# One block's coding, independent of its place: (DC value, AC symbols, AC extra bits) per component.
_Coded = tuple[tuple[int, tuple[int, ...], tuple[str, ...]], ...]


def _quantisers(quality: int) -> tuple[tuple[bytes, bytes], tuple[list[float], list[float]]]:
    """The two tables in zig-zag order for DQT (libjpeg's quality scaling), and the
    multipliers that turn an AAN output (natural order) into a quantised coefficient."""
    scale = 5000 // quality if quality < 50 else 200 - 2 * quality
    tables = [[max(1, min(255, (q * scale + 50) // 100)) for q in base] for base in (_LUMINANCE, _CHROMINANCE)]
    dqt = tuple(bytes(t[i] for i in ZIGZAG) for t in tables)
    mult = tuple([1 / (t[i] * 8 * _AAN[i // 8] * _AAN[i % 8]) for i in range(64)] for t in tables)
    return (dqt[0], dqt[1]), (mult[0], mult[1])


def _aan(d0: float, d1: float, d2: float, d3: float, d4: float, d5: float, d6: float, d7: float
         ) -> tuple[float, float, float, float, float, float, float, float]:
    """One 8-point forward DCT (Arai, Agui and Nakajima; libjpeg's jfdctflt), outputs scaled by _AAN."""
    t0, t7, t1, t6, t2, t5, t3, t4 = d0 + d7, d0 - d7, d1 + d6, d1 - d6, d2 + d5, d2 - d5, d3 + d4, d3 - d4
    t10, t13, t11, t12 = t0 + t3, t0 - t3, t1 + t2, t1 - t2
    z1 = (t12 + t13) * 0.707106781
    t10b, t11b, t12b = t4 + t5, t5 + t6, t6 + t7
    z5 = (t10b - t12b) * 0.382683433
    z2 = 0.541196100 * t10b + z5
    z4 = 1.306562965 * t12b + z5
    z3 = t11b * 0.707106781
    z11, z13 = t7 + z3, t7 - z3
    return t10 + t11, z11 + z4, t13 + z1, z13 - z2, t10 - t11, z13 + z2, t13 - z1, z11 - z4


def _quantised(samples: list[float], mult: list[float]) -> list[int]:
    """The block's quantised DCT coefficients in zig-zag order."""
    rows: list[float] = []
    for r in range(0, 64, 8):
        rows.extend(_aan(*samples[r:r + 8]))
    out = [0.0] * 64
    for c in range(8):
        out[c::8] = _aan(*rows[c::8])
    coef = list(map(round, map(operator.mul, out, mult)))
    if max(coef) > 1023 or min(coef) < -1023:
        coef = [max(-1023, min(1023, v)) for v in coef]
    return list(_IN_ZIGZAG(coef))


def _ac_run_lengths(zz: list[int]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The AC coefficients as (run, size) symbols and their extra bits (T.81 F.1.2.2)."""
    symbols: list[int] = []
    extras: list[str] = []
    previous = 0
    for k in itertools.compress(range(1, 64), zz[1:]):  # the non-zero ones
        run = k - previous - 1
        while run > 15:
            symbols.append(_ZRL)
            extras.append("")
            run -= 16
        value = zz[k]
        symbols.append(run << 4 | abs(value).bit_length())
        extras.append(_EXTRA[value])
        previous = k
    if previous < 63:
        symbols.append(_EOB)
        extras.append("")
    return tuple(symbols), tuple(extras)


def _code_block(block: bytes, mult: tuple[list[float], list[float]]) -> _Coded:
    """Quantise one 8x8 RGB block (192 bytes) into its three components' DC and AC parts."""
    reds, greens, blues = block[0::3], block[1::3], block[2::3]
    coded = []
    for table, (kr, kg, kb), shift in ((0, _TO_Y, -128.0), (1, _TO_CB, 0.0), (1, _TO_CR, 0.0)):
        samples = [a + b + c + shift for a, b, c in zip(map(kr.__getitem__, reds), map(kg.__getitem__, greens),
                                                         map(kb.__getitem__, blues))]
        if reds.count(reds[0]) == 64 and greens.count(greens[0]) == 64 and blues.count(blues[0]) == 64:
            # A uniform block: the DC alone (the mean times 8, quantised), no transform.
            zz = [max(-1023, min(1023, round(samples[0] * 64 * mult[table][0])))] + [0] * 63
        else:
            zz = _quantised(samples, mult[table])
        coded.append((zz[0], *_ac_run_lengths(zz)))
    return tuple(coded)


def _optimal_table(freq: Counter[int]) -> tuple[bytes, bytes]:
    """(code-length counts 1..16, symbols) of an optimal code for these frequencies (T.81 Annex K.2)."""
    reserved = 256  # a symbol of frequency 1 whose code, all ones, is then taken away (no code is all 1-bits)
    heap = [(count, symbol, [symbol]) for symbol, count in sorted(freq.items()) if count] + [(1, reserved, [reserved])]
    heapq.heapify(heap)
    size = {symbol: 0 for _, symbol, _ in heap}
    order = 1000
    while len(heap) > 1:
        f1, _, s1 = heapq.heappop(heap)
        f2, _, s2 = heapq.heappop(heap)
        for symbol in s1 + s2:
            size[symbol] += 1
        order += 1
        heapq.heappush(heap, (f1 + f2, order, s1 + s2))
    longest = max(size.values())
    if size[reserved] < longest:  # swapping two lengths keeps the code complete: the reserved one goes last
        other = max(s for s in size if size[s] == longest)
        size[other], size[reserved] = size[reserved], longest
    bits = [0] * (longest + 1)
    for length in size.values():
        bits[length] += 1
    i = longest
    while i > 16:  # Figure K.3: no code longer than 16 bits
        while bits[i] > 0:
            j = i - 2
            while bits[j] == 0:
                j -= 1
            bits[i] -= 2
            bits[i - 1] += 1
            bits[j + 1] += 2
            bits[j] -= 1
        i -= 1
    while bits[i] == 0:
        i -= 1
    bits[i] -= 1  # the reserved code
    symbols = sorted((s for s in size if s != reserved), key=lambda s: (size[s], s))
    return bytes((bits + [0] * 17)[1:17]), bytes(symbols)


def encode(width: int, height: int, pixels: bytes | bytearray, quality: int = 88) -> bytes:
    """A baseline JPEG of ``pixels`` (RGB, 3 bytes a pixel, rows top to bottom).

    Blocks past the right and bottom edges repeat the last column and row.
    """
    if width <= 0 or height <= 0 or len(pixels) != width * height * 3:
        raise ValueError(f"{len(pixels)} bytes are not a {width}x{height} RGB image")
    dqt, mult = _quantisers(quality)
    stride, pad = width * 3, -width % 8
    coded: list[_Coded] = []
    index: dict[bytes, int] = {}
    blocks: list[int] = []
    for top in range(0, height, 8):
        rows = []
        for y in range(top, top + 8):
            start = min(y, height - 1) * stride
            row = bytes(pixels[start:start + stride])
            rows.append(row + row[-3:] * pad)
        for x in range(0, stride + 3 * pad, 24):
            block = b"".join([row[x:x + 24] for row in rows])
            found = index.get(block)
            if found is None:
                found = index[block] = len(coded)
                coded.append(_code_block(block, mult))
            blocks.append(found)
    # DC values are coded as differences along the blocks; AC symbols are counted per distinct block
    # times its uses.
    diffs, dc_freq, ac_freq = [], [Counter[int](), Counter[int]()], [Counter[int](), Counter[int]()]
    uses = Counter(blocks)
    for component in range(3):
        values = [block[component][0] for block in coded]
        sequence = list(map(values.__getitem__, blocks))
        diffs.append(list(map(operator.sub, sequence, [0] + sequence[:-1])))
        for diff, n in Counter(diffs[-1]).items():
            dc_freq[min(component, 1)][abs(diff).bit_length()] += n
        for block_index, n in uses.items():
            for symbol in coded[block_index][component][1]:
                ac_freq[min(component, 1)][symbol] += n
    dc_tables = [_optimal_table(f) for f in dc_freq]
    ac_tables = [_optimal_table(f) for f in ac_freq]
    dc_codes = [_huffman_codes(*t) for t in dc_tables]
    ac_codes = [_huffman_codes(*t) for t in ac_tables]
    streams: list[Iterable[str]] = []
    for component in range(3):
        table = min(component, 1)
        dc_bits = {diff: _dc_bits(dc_codes[table], diff) for diff in set(diffs[component])}
        ac_bits = ["".join(map(operator.add, map(ac_codes[table].__getitem__, block[component][1]), block[component][2]))
                   for block in coded]
        streams += [map(dc_bits.__getitem__, diffs[component]), map(ac_bits.__getitem__, blocks)]
    # Block after block: Y's DC and AC, then Cb's, then Cr's.
    scan = "".join(itertools.chain.from_iterable(zip(*streams)))
    dqt_segment = b"\xff\xdb\x00\x84\x00" + dqt[0] + b"\x01" + dqt[1]
    dht = b"".join(_dht(cls, table_id, *tables[table_id])
                   for cls, tables in ((0, dc_tables), (1, ac_tables)) for table_id in (0, 1))
    frame = _frame(width, height, 1)
    return (b"\xff\xd8" + _JFIF + dqt_segment + frame[:19] + dht + frame[19:]
            + _scan_bytes(scan) + b"\xff\xd9")
