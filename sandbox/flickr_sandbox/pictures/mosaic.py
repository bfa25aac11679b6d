# SPDX-License-Identifier: MIT
"""Large JPEGs in milliseconds: a small picture, each of its pixels a flat square of blocks.

``jpeg.encode`` costs about half a second for a 4000 px original, and a seeded account of
20,000 items has 20,000 of them: too slow for a first request (the contract asks for tens of
milliseconds).  Here every 8x8 block is flat (its DC coefficient alone, as in
``jpeg.placeholder_jpeg``), so a block costs no transform, and a run of equal blocks along
a row is one bit pattern repeated: a string multiplication.  The picture drawn is the same
scene at about ``CELLS`` pixels on its longest side, each pixel ``k`` x ``k`` blocks: what a
client sees is the photo's picture, coarser, at the dimensions the API announced.
"""

from __future__ import annotations

import itertools

from .jpeg import _AC_EOB_ONLY, _DC_TABLES, _JFIF, _dc_bits, _dht, _frame, _huffman_codes, _scan_bytes
from .raster import Raster

CELLS = 256  # the drawn picture's longest side, in cells
_DC_CODES = [_huffman_codes(*table) for table in _DC_TABLES]
_EOB = _huffman_codes(*_AC_EOB_ONLY)[0]
# One MCU (a Y, a Cb and a Cr block) equal to the one before it: three zero DC differences.
_SAME = _dc_bits(_DC_CODES[0], 0) + _EOB + 2 * (_dc_bits(_DC_CODES[1], 0) + _EOB)
_HEADER_TABLES = (b"\xff\xdb\x00\x43\x00" + b"\x01" * 64,
                  _dht(0, 0, *_DC_TABLES[0]) + _dht(0, 1, *_DC_TABLES[1]) + _dht(1, 0, *_AC_EOB_ONLY))


def cell_blocks(width: int, height: int) -> int:
    """How many 8x8 blocks a side of a cell covers for a picture of this size."""
    blocks = (max(width, height) + 7) // 8
    return max(1, -(-blocks // CELLS))


def cell_grid(width: int, height: int) -> tuple[int, int]:
    """The (columns, rows) of cells covering a ``width`` x ``height`` picture."""
    k = cell_blocks(width, height)
    return -(-((width + 7) // 8) // k), -(-((height + 7) // 8) // k)


def _dcs(pixel: bytes) -> tuple[int, int, int]:
    """The DC values (quantiser 1) of a flat block of this RGB colour: 8 x level-shifted YCbCr."""
    r, g, b = pixel
    samples = (0.299 * r + 0.587 * g + 0.114 * b - 128,
               -0.168736 * r - 0.331264 * g + 0.5 * b,
               0.5 * r - 0.418688 * g - 0.081312 * b)
    return tuple(max(-1024, min(1016, round(8 * s))) for s in samples)  # type: ignore[return-value]


def encode(width: int, height: int, cells: Raster) -> bytes:
    """A baseline JPEG of ``width`` x ``height`` showing ``cells`` (of :func:`cell_grid`'s size),
    each cell a flat square of :func:`cell_blocks` blocks a side (cut at the right and bottom)."""
    columns, rows = cell_grid(width, height)
    if (cells.width, cells.height) != (columns, rows):
        raise ValueError(f"a {width}x{height} mosaic needs {columns}x{rows} cells, not {cells.width}x{cells.height}")
    k = cell_blocks(width, height)
    blocks_wide, blocks_high = (width + 7) // 8, (height + 7) // 8
    last_wide = blocks_wide - (columns - 1) * k  # the blocks of the last column's cells
    dc_cache: dict[bytes, tuple[int, int, int]] = {}
    bits_cache: dict[tuple[int, int, int], str] = {}

    def first_bits(diff: tuple[int, int, int]) -> str:
        found = bits_cache.get(diff)
        if found is None:
            found = bits_cache[diff] = "".join(_dc_bits(_DC_CODES[min(i, 1)], d) + _EOB for i, d in enumerate(diff))
        return found

    pieces: list[str] = []
    previous = (0, 0, 0)
    stride = columns * 3
    for row in range(rows):
        line = bytes(cells.pixels[row * stride:(row + 1) * stride])
        # Runs of equal cells: (DC values, number of blocks across).
        runs: list[tuple[tuple[int, int, int], int]] = []
        for pixel, group in itertools.groupby(line[i:i + 3] for i in range(0, len(line), 3)):
            dcs = dc_cache.get(pixel)
            if dcs is None:
                dcs = dc_cache[pixel] = _dcs(pixel)
            n = sum(1 for _ in group) * k
            if runs and runs[-1][0] == dcs:
                runs[-1] = (dcs, runs[-1][1] + n)
            else:
                runs.append((dcs, n))
        dcs, n = runs[-1]
        runs[-1] = (dcs, n - (k - last_wide))
        # Within the row after its first block everything is fixed: the first block's difference
        # from the block before it (the previous row's last) is all that changes between rows.
        body = []
        before = runs[0][0]
        for dcs, n in runs:
            body.append(first_bits((dcs[0] - before[0], dcs[1] - before[1], dcs[2] - before[2])))
            body.append(_SAME * (n - 1))
            before = dcs
        rest = "".join(body)[len(first_bits((0, 0, 0))):]  # the row without its first block
        start = runs[0][0]
        end = runs[-1][0]
        for _ in range(min(k, blocks_high - row * k)):
            pieces.append(first_bits((start[0] - previous[0], start[1] - previous[1], start[2] - previous[2])))
            pieces.append(rest)
            previous = end
    frame = _frame(width, height, 0)
    return (b"\xff\xd8" + _JFIF + _HEADER_TABLES[0] + frame[:19] + _HEADER_TABLES[1] + frame[19:]
            + _scan_bytes("".join(pieces)) + b"\xff\xd9")
