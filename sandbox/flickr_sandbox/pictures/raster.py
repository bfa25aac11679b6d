# SPDX-License-Identifier: MIT
"""An RGB raster and the few drawing operations the sandbox's pictures are made of.

Pixels are one ``bytearray`` (3 bytes a pixel, rows top to bottom), and every
operation writes whole runs of it with slice assignment: a row span, a column
(a strided slice, one per channel), a row of a gradient.  No Python code runs
per pixel, so a 2048 px picture is drawn in a fraction of a second.
Coordinates are floats in pixels; a pixel is covered when its centre is inside
the shape.  Everything is clipped to the raster.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

Colour = tuple[int, int, int]
Point = tuple[float, float]


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """The colour ``t`` of the way from ``a`` to ``b`` (0: a, 1: b)."""
    t = min(1.0, max(0.0, t))
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _first(coordinate: float) -> int:
    """The first pixel whose centre is at or past ``coordinate``."""
    return math.ceil(coordinate - 0.5)


class Raster:
    """``width`` x ``height`` RGB pixels, filled with ``colour``."""

    def __init__(self, width: int, height: int, colour: Colour = (0, 0, 0)):
        self.width, self.height = width, height
        self.pixels = bytearray(bytes(colour) * (width * height))

    def span(self, y: int, x0: int, x1: int, colour: Colour) -> None:
        """Pixels x0..x1-1 of row y (integer pixels, clipped)."""
        x0, x1 = max(0, x0), min(self.width, x1)
        if 0 <= y < self.height and x0 < x1:
            start = (y * self.width + x0) * 3
            self.pixels[start:start + (x1 - x0) * 3] = bytes(colour) * (x1 - x0)

    def rows(self, top: float, bottom: float, colour_at: Callable[[float], Colour],
             left: float = 0.0, right: float = math.inf) -> None:
        """Rows from ``top`` to ``bottom`` (between ``left`` and ``right``), each of one colour:
        ``colour_at(y)`` of its centre."""
        x0, x1 = max(0, _first(left)), min(self.width, _first(right))
        if x0 >= x1:
            return
        line = self.width * 3
        for y in range(max(0, _first(top)), min(self.height, _first(bottom))):
            start = y * line + x0 * 3
            self.pixels[start:start + (x1 - x0) * 3] = bytes(colour_at(y + 0.5)) * (x1 - x0)

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: Colour) -> None:
        left, right = max(0, _first(x0)), min(self.width, _first(x1))
        if left >= right:
            return
        run, line = bytes(colour) * (right - left), self.width * 3
        for y in range(max(0, _first(y0)), min(self.height, _first(y1))):
            start = y * line + left * 3
            self.pixels[start:start + len(run)] = run

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, colour: Colour) -> None:
        if rx <= 0 or ry <= 0:
            return
        for y in range(max(0, _first(cy - ry)), min(self.height, _first(cy + ry))):
            dy = (y + 0.5 - cy) / ry
            if dy * dy < 1:
                half = rx * math.sqrt(1 - dy * dy)
                self.span(y, _first(cx - half), _first(cx + half), colour)

    def polygon(self, points: Sequence[Point], colour: Colour) -> None:
        """A polygon, filled by the even-odd rule."""
        edges = [(points[i - 1], points[i]) for i in range(len(points)) if points[i - 1][1] != points[i][1]]
        if not edges:
            return
        top = min(p[1] for p in points)
        bottom = max(p[1] for p in points)
        for y in range(max(0, _first(top)), min(self.height, _first(bottom))):
            yc = y + 0.5
            xs = sorted(x0 + (yc - y0) * (x1 - x0) / (y1 - y0)
                        for (x0, y0), (x1, y1) in edges if (y0 <= yc < y1) or (y1 <= yc < y0))
            for i in range(0, len(xs) - 1, 2):
                self.span(y, _first(xs[i]), _first(xs[i + 1]), colour)

    def line(self, a: Point, b: Point, width: float, colour: Colour) -> None:
        """A straight stroke from a to b, ``width`` pixels wide (at least one)."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        if length == 0:
            return
        half = max(width, 1.0) / 2
        nx, ny = -dy / length * half, dx / length * half
        if abs(nx) < 0.5 and abs(dx) < abs(dy):
            nx = math.copysign(0.5, nx or 1.0)  # a thin steep line still covers a pixel per row
        if abs(ny) < 0.5 and abs(dy) <= abs(dx):
            ny = math.copysign(0.5, ny or 1.0)
        self.polygon([(a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), (b[0] - nx, b[1] - ny),
                      (a[0] - nx, a[1] - ny)], colour)

    def columns(self, tops: Sequence[float], bottom: float, colour: Colour) -> None:
        """A silhouette: column x covered from ``tops[x]`` down to ``bottom`` (one top per column)."""
        stride = self.width * 3
        last = min(self.height, _first(bottom))
        for x, top in enumerate(tops[:self.width]):
            if top >= last:
                continue
            first = max(0, _first(top))
            if first >= last:
                continue
            n = last - first
            start = (first * self.width + x) * 3
            for channel in range(3):
                at = start + channel
                self.pixels[at:at + n * stride:stride] = bytes((colour[channel],)) * n

    def crop(self, x0: int, y0: int, width: int, height: int) -> Raster:
        """The ``width`` x ``height`` pixels from (x0, y0) as a new raster (within this one)."""
        out = Raster(width, height)
        line, out_line = self.width * 3, width * 3
        for y in range(height):
            start = (y0 + y) * line + x0 * 3
            out.pixels[y * out_line:(y + 1) * out_line] = self.pixels[start:start + out_line]
        return out

    def resized(self, width: int, height: int) -> Raster:
        """Scaled to ``width`` x ``height`` by sampling, each output pixel the mean of the
        four source pixels nearest its quarter points (a 2x2 supersample)."""
        out = Raster(width, height)
        src_line = self.width * 3

        def picks(size: int, source: int, offset: float) -> list[int]:
            return [min(source - 1, int((i + offset) * source / size)) for i in range(size)]

        columns = [picks(width, self.width, offset) for offset in (0.25, 0.75)]
        gathers = [[x * 3 + c for x in cols for c in range(3)] for cols in columns]
        for y, (ya, yb) in enumerate(zip(picks(height, self.height, 0.25), picks(height, self.height, 0.75))):
            samples: list[bytes] = []
            for sy in (ya, yb):
                row = self.pixels[sy * src_line:(sy + 1) * src_line]
                samples.extend(bytes(map(row.__getitem__, gather)) for gather in gathers)
            out.pixels[y * width * 3:(y + 1) * width * 3] = _mean4(*samples)
        return out


def _mean4(a: bytes, b: bytes, c: bytes, d: bytes) -> bytes:
    """Byte by byte, (a + b + c + d) / 4 rounded down: SWAR on big integers, no loop per byte."""
    return _mean2(_mean2(a, b), _mean2(c, d))


def _mean2(a: bytes, b: bytes) -> bytes:
    n = len(a)
    x, y = int.from_bytes(a, "big"), int.from_bytes(b, "big")
    low7 = int.from_bytes(b"\x7f" * n, "big")
    # (x & y) + ((x ^ y) >> 1) per byte: the shifted bit of each byte's neighbour is masked off.
    return ((x & y) + (((x ^ y) >> 1) & low7)).to_bytes(n, "big")
