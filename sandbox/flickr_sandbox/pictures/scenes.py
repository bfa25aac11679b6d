# SPDX-License-Identifier: MIT
"""Drawn pictures for photos that have no pixels of their own: little flat-colour scenes.

``render(seed, title, width, height)`` draws a scene chosen by the title
(a sunset, a harbour, a city, mountains, the countryside, a kitten, a food
stall, a desert road, fireworks, fog, a portrait, a bridge) and laid out by a
random generator seeded with the photo id (and an upload's checksum).  Everything is placed in units of
the picture (x and y from 0 to 1, sizes in units of the shorter side), and the
generator is consulted the same number of times at every size, so each size of
a photo is the same picture, only finer or coarser.
"""

from __future__ import annotations

import math
import random
import re
from typing import Callable, Sequence

from .raster import Colour, Point, Raster, mix

Stops = Sequence[tuple[float, Colour]]


def gradient(stops: Stops) -> Callable[[float], Colour]:
    """Colour at height v (0 top, 1 bottom) between the stops, linearly."""
    def at(v: float) -> Colour:
        if v <= stops[0][0]:
            return stops[0][1]
        for (v0, c0), (v1, c1) in zip(stops, stops[1:]):
            if v < v1:
                return mix(c0, c1, (v - v0) / (v1 - v0))
        return stops[-1][1]
    return at


class Canvas:
    """A raster addressed in picture units: x and y from 0 to 1, lengths in units of the shorter side."""

    def __init__(self, raster: Raster):
        self.raster = raster
        self.w, self.h = raster.width, raster.height
        self.unit = min(self.w, self.h)

    def _pt(self, p: Point) -> Point:
        return p[0] * self.w, p[1] * self.h

    def fill(self, top: float, bottom: float, stops: Stops, left: float = 0.0, right: float = 1.0) -> None:
        """Rows from ``top`` to ``bottom`` (``left`` to ``right``), coloured by the stops (positions
        in picture height)."""
        at = gradient(stops)
        self.raster.rows(top * self.h, bottom * self.h, lambda y: at(y / self.h), left * self.w, right * self.w)

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: Colour) -> None:
        self.raster.rect(x0 * self.w, y0 * self.h, x1 * self.w, y1 * self.h, colour)

    def ellipse(self, x: float, y: float, rx: float, ry: float, colour: Colour) -> None:
        self.raster.ellipse(x * self.w, y * self.h, rx * self.unit, ry * self.unit, colour)

    def disc(self, x: float, y: float, r: float, colour: Colour) -> None:
        self.ellipse(x, y, r, r, colour)

    def half_ellipse(self, x: float, y: float, rx: float, ry: float, colour: Colour, below: bool = False) -> None:
        """The upper half of an ellipse (the lower one if ``below``), flat side on y."""
        sign = 1 if below else -1
        self.poly([(x + rx * self.unit / self.w * math.cos(math.pi * k / 16),
                    y + sign * ry * self.unit / self.h * math.sin(math.pi * k / 16)) for k in range(17)], colour)

    def poly(self, points: Sequence[Point], colour: Colour) -> None:
        self.raster.polygon([self._pt(p) for p in points], colour)

    def line(self, a: Point, b: Point, width: float, colour: Colour) -> None:
        self.raster.line(self._pt(a), self._pt(b), width * self.unit, colour)

    def ridge(self, base: float, waves: Sequence[tuple[float, float, float]], colour: Colour,
              bottom: float = 1.0, x0: float = -1.0, x1: float = 2.0) -> None:
        """Hills: from x0 to x1 the ground rises to ``base`` plus the sum of the waves
        (amplitude, cycles across the picture, phase), and is filled down to ``bottom``."""
        tops = []
        for x in range(self.w):
            u = (x + 0.5) / self.w
            top = base + sum(a * math.sin(2 * math.pi * (f * u + p)) for a, f, p in waves)
            tops.append(top * self.h if x0 <= u < x1 else math.inf)
        self.raster.columns(tops, bottom * self.h, colour)

    def glow(self, x: float, y: float, r: float, colour: Colour, around: Colour, rings: int = 5,
             reach: float = 2.5) -> None:
        """A disc in rings that fade into ``around``, widest first, out to ``reach`` times its radius."""
        for i in range(rings, 0, -1):
            t = i / rings
            self.disc(x, y, r * (1 + (reach - 1) * t), mix(colour, around, 0.35 + 0.6 * t))
        self.disc(x, y, r, colour)


def waves(rng: random.Random, n: int, amplitude: float, cycles: tuple[float, float] = (0.5, 3.0)
          ) -> list[tuple[float, float, float]]:
    """``n`` random waves for a ridge, each smaller and faster than the one before."""
    return [(amplitude * rng.uniform(0.5, 1.0) / (i + 1), rng.uniform(*cycles) * (i + 1), rng.random())
            for i in range(n)]


# -- Pieces shared by several scenes -------------------------------------------------------------

def _stars(c: Canvas, rng: random.Random, n: int, bottom: float, colour: Colour = (235, 235, 250)) -> None:
    for _ in range(n):
        x, y, r = rng.random(), rng.uniform(0, bottom), rng.uniform(0.0015, 0.004)
        c.rect(x, y, x + r * c.unit / c.w, y + r * c.unit / c.h, colour)


def _moon(c: Canvas, rng: random.Random, sky: Colour) -> None:
    x, y, r = rng.uniform(0.15, 0.85), rng.uniform(0.1, 0.25), rng.uniform(0.035, 0.06)
    c.glow(x, y, r, (245, 240, 215), sky, rings=4, reach=2.2)
    if rng.random() < 0.5:  # a crescent: the sky's colour over most of the disc
        c.disc(x + r * 0.45 * c.unit / c.w, y - r * 0.2 * c.unit / c.h, r * 0.9, mix((245, 240, 215), sky, 0.75))


def _cloud(c: Canvas, rng: random.Random, x: float, y: float, size: float, light: Colour, shade: Colour) -> None:
    puffs = [(rng.uniform(-1.2, 1.2) * size, rng.uniform(-0.35, 0.1) * size, rng.uniform(0.35, 0.6) * size)
             for _ in range(6)]
    for dx, dy, r in puffs:
        c.ellipse(x + dx * c.unit / c.w, y + (dy + 0.08 * size) * c.unit / c.h, r * 1.1, r * 0.7, shade)
    for dx, dy, r in puffs:
        c.ellipse(x + dx * c.unit / c.w, y + dy * c.unit / c.h, r * 1.1, r * 0.7, light)


def _water_streaks(c: Canvas, rng: random.Random, top: float, n: int, colours: Sequence[Colour],
                   length: float = 0.06) -> None:
    """Short horizontal strokes on water, longer and lower nearer the viewer."""
    for _ in range(n):
        depth = rng.random() ** 1.6
        y = top + (1 - top) * depth
        x = rng.uniform(-0.05, 1.0)
        half = length * (0.3 + depth) * rng.uniform(0.5, 1.2)
        c.line((x, y), (x + half, y), 0.002 + 0.004 * depth, rng.choice(colours))


def _reflection(c: Canvas, rng: random.Random, x: float, top: float, width: float, colour: Colour,
                water: Colour, steps: int = 24) -> None:
    """A light's broken reflection: dashes down the water, fading and widening."""
    for i in range(steps):
        t = i / steps
        y = top + (1 - top) * t ** 1.3
        half = width * (0.5 + 1.5 * t) * rng.uniform(0.4, 1.0)
        dx = rng.uniform(-0.3, 0.3) * width
        c.line((x + dx - half, y), (x + dx + half, y), 0.003 + 0.004 * t, mix(colour, water, 0.2 + 0.6 * t))


def _building(c: Canvas, rng: random.Random, x0: float, x1: float, top: float, bottom: float, body: Colour,
              lit: float, lights: Sequence[Colour], dark: Colour) -> None:
    c.rect(x0, top, x1, bottom, body)
    roof = rng.random()
    if roof < 0.2:
        c.rect(x0 + (x1 - x0) * 0.25, top - 0.04, x1 - (x1 - x0) * 0.25, top, body)
    elif roof < 0.35:
        c.line(((x0 + x1) / 2, top), ((x0 + x1) / 2, top - 0.08), 0.004, body)
    elif roof < 0.45:
        c.poly([(x0, top), ((x0 + x1) / 2, top - 0.06), (x1, top)], body)
    win_w, win_h = 0.012 * c.unit / c.w, 0.018 * c.unit / c.h
    cols = max(1, int((x1 - x0) / (win_w * 2.2)))
    rows = max(1, int((bottom - top - 0.03) / (win_h * 2.0)))
    margin = ((x1 - x0) - cols * win_w * 2.2) / 2 + win_w * 0.6
    for row in range(rows):
        for col in range(cols):
            on = rng.random() < lit
            colour = rng.choice(lights) if on else dark
            wx, wy = x0 + margin + col * win_w * 2.2, top + 0.02 + row * win_h * 2.0
            c.rect(wx, wy, wx + win_w, wy + win_h, colour)


def _tree(c: Canvas, x: float, ground: float, size: float, trunk: Colour, leaves: Sequence[Colour]) -> None:
    c.rect(x - size * 0.08 * c.unit / c.w, ground - size * 0.9, x + size * 0.08 * c.unit / c.w, ground, trunk)
    for i, (dx, dy, r) in enumerate(((0, -1.0, 0.45), (-0.25, -0.75, 0.35), (0.25, -0.78, 0.36), (0, -1.25, 0.3))):
        c.disc(x + dx * size * c.unit / c.w, ground + dy * size * c.unit / c.h, r * size, leaves[i % len(leaves)])


def _pine(c: Canvas, x: float, ground: float, size: float, colour: Colour) -> None:
    half = size * 0.32 * c.unit / c.w
    for level in range(3):
        base = ground - size * (0.15 + level * 0.25)
        c.poly([(x - half * (1 - level * 0.22), base), (x, base - size * 0.45), (x + half * (1 - level * 0.22), base)],
               colour)
    c.rect(x - half * 0.12, ground - size * 0.15, x + half * 0.12, ground, mix(colour, (40, 25, 15), 0.5))


def _jagged_range(rng: random.Random, base: float, height: float, peaks: int) -> list[Point]:
    """The outline of a mountain range: alternate peaks and valleys across the picture."""
    points: list[Point] = [(-0.05, 1.0)]
    step = 1.1 / (peaks * 2)
    for i in range(peaks * 2 + 1):
        x = -0.05 + i * step + rng.uniform(-0.3, 0.3) * step
        y = base - height * (rng.uniform(0.6, 1.0) if i % 2 else rng.uniform(0.0, 0.35))
        points.append((x, y))
    points.append((1.05, 1.0))
    return points


def _snow_caps(c: Canvas, rng: random.Random, outline: list[Point], line: float, colour: Colour) -> None:
    """White over the parts of each peak above ``line``, with a ragged lower edge."""
    for i in range(2, len(outline) - 2, 2):
        (lx, ly), (px, py), (rx, ry) = outline[i - 1], outline[i], outline[i + 1]
        if py >= line:
            continue
        fl, fr = min(1.0, (line - py) / max(1e-6, ly - py)), min(1.0, (line - py) / max(1e-6, ry - py))
        left, right = (px + (lx - px) * fl, py + (ly - py) * fl), (px + (rx - px) * fr, py + (ry - py) * fr)
        ragged = [(left[0] + (right[0] - left[0]) * k / 5,
                   left[1] + (right[1] - left[1]) * k / 5 + rng.uniform(-0.015, 0.03)) for k in range(1, 5)]
        c.poly([(px, py), left, *ragged, right], colour)


def _mirror(points: Sequence[Point], axis: float) -> list[Point]:
    return [(x, 2 * axis - y) for x, y in points]


# -- The scenes ------------------------------------------------------------------------------------

def sunset(c: Canvas, rng: random.Random) -> None:
    horizon = rng.uniform(0.56, 0.66)
    top, middle, low, glow = rng.choice([
        ((38, 28, 92), (176, 66, 120), (248, 142, 70), (255, 214, 120)),
        ((24, 34, 84), (120, 60, 140), (236, 98, 82), (255, 180, 100)),
        ((52, 74, 140), (214, 120, 140), (252, 176, 96), (255, 232, 160)),
    ])
    sky = [(0.0, top), (horizon * 0.55, middle), (horizon * 0.88, low), (horizon, glow)]
    c.fill(0, horizon, sky)
    sun_x, sun_r = rng.uniform(0.3, 0.7), rng.uniform(0.06, 0.1)
    sun_y = horizon - sun_r * rng.uniform(0.1, 0.9) * c.unit / c.h
    c.glow(sun_x, sun_y, sun_r, (255, 236, 170), gradient(sky)(sun_y), rings=6, reach=3.0)
    for _ in range(rng.randrange(3, 6)):
        y = rng.uniform(0.1, horizon * 0.7)
        x, rx, ry = rng.random(), rng.uniform(0.12, 0.3), rng.uniform(0.008, 0.02)
        c.ellipse(x, y + ry * 0.6 * c.unit / c.h, rx, ry, mix(gradient(sky)(y), top, 0.35))
        c.ellipse(x, y, rx * 0.95, ry * 0.8, mix(gradient(sky)(y), glow, 0.55))
    land = mix(top, (10, 10, 30), 0.4)
    if rng.random() < 0.7:
        left = rng.random() < 0.5
        c.ridge(horizon - 0.03, waves(rng, 3, 0.03), land, bottom=horizon + 0.002,
                x0=-1 if left else rng.uniform(0.6, 0.8), x1=rng.uniform(0.2, 0.4) if left else 2)
    water = [(horizon, mix(glow, middle, 0.5)), (horizon + 0.08, mix(middle, top, 0.5)), (1.0, mix(top, (5, 5, 25), 0.4))]
    c.fill(horizon, 1, water)
    _water_streaks(c, rng, horizon, 90, [mix(middle, top, 0.6), mix(low, middle, 0.5)], 0.08)
    _reflection(c, rng, sun_x, horizon + 0.004, sun_r * c.unit / c.w * 0.9, (255, 226, 150), gradient(water)(0.8), 30)
    for _ in range(rng.randrange(2, 6)):  # birds
        x, y, s = rng.uniform(0.1, 0.9), rng.uniform(0.15, horizon * 0.7), rng.uniform(0.012, 0.025)
        for side in (-1, 1):
            c.line((x, y), (x + side * s * c.unit / c.w, y - s * 0.5 * c.unit / c.h), 0.003, land)


def harbour(c: Canvas, rng: random.Random, lighthouse: bool = False) -> None:
    horizon = rng.uniform(0.55, 0.62)
    night = rng.random() < 0.6
    top, low = ((10, 18, 48), (40, 70, 120)) if night else ((60, 80, 150), (240, 160, 120))
    sky = [(0.0, top), (horizon, low)]
    c.fill(0, horizon, sky)
    if night:
        _stars(c, rng, 70, horizon * 0.8)
        _moon(c, rng, gradient(sky)(0.2))
    shore = mix(top, (0, 0, 0), 0.5)
    c.ridge(horizon - 0.05, waves(rng, 3, 0.025), shore, bottom=horizon + 0.002)
    lights = [(255, 214, 120), (255, 240, 190), (255, 170, 90)]
    lamps = [(rng.random(), horizon - rng.uniform(0.002, 0.03)) for _ in range(25)]
    for x, y in lamps:
        c.disc(x, y, 0.003, rng.choice(lights))
    water = [(horizon, mix(low, top, 0.4)), (1.0, mix(top, (0, 0, 10), 0.5))]
    c.fill(horizon, 1, water)
    for x, _ in lamps[:10]:
        _reflection(c, rng, x, horizon + 0.003, 0.006, rng.choice(lights), gradient(water)(0.8), 12)
    _water_streaks(c, rng, horizon, 110, [mix(low, top, 0.2), mix(top, (0, 0, 0), 0.3)], 0.05)
    if lighthouse:
        x = rng.uniform(0.6, 0.8)
        rock = mix(shore, (60, 50, 40), 0.3)
        c.poly([(x - 0.2, 1.0), (x - 0.12, 0.78), (x - 0.02, 0.74), (x + 0.1, 0.76), (x + 0.22, 1.0)], rock)
        base_y, top_y, half = 0.76, 0.3, 0.035

        def tower(y0: float, y1: float, colour: Colour) -> None:  # the tapering tower between two heights
            w0, w1 = (half * (0.8 + 0.5 * (y - top_y) / (base_y - top_y)) for y in (y0, y1))
            c.poly([(x - w0, y0), (x + w0, y0), (x + w1, y1), (x - w1, y1)], colour)

        tower(top_y, base_y, (240, 240, 235))
        for band in range(3):
            y0 = top_y + (base_y - top_y) * (0.15 + band * 0.3)
            tower(y0, y0 + (base_y - top_y) * 0.15, (200, 40, 40))
        c.rect(x - half * 0.7, top_y - 0.05, x + half * 0.7, top_y, (255, 236, 150))
        c.poly([(x - half, top_y - 0.05), (x, top_y - 0.09), (x + half, top_y - 0.05)], (40, 40, 50))
        beam = mix((255, 244, 190), gradient(sky)(top_y), 0.3)
        c.poly([(x - half * 0.5, top_y - 0.035), (-0.05, top_y - 0.12), (-0.05, top_y + 0.04)], beam)
        c.glow(x, top_y - 0.025, 0.018, (255, 245, 200), gradient(sky)(top_y), rings=4, reach=3.0)
        return
    for _ in range(rng.randrange(2, 5)):  # boats
        x, y = rng.uniform(0.05, 0.85), rng.uniform(horizon + 0.08, 0.9)
        s = 0.05 + 0.12 * (y - horizon) / (1 - horizon)
        hull = rng.choice([(200, 50, 45), (235, 235, 230), (40, 80, 150), (230, 180, 60)])
        dx, dy = s * c.unit / c.w, s * c.unit / c.h
        c.poly([(x - dx * 0.6, y + dy * 0.25), (x + dx * 0.6, y + dy * 0.25),
                (x + dx * 0.9, y + dy * 0.02), (x + dx, y - dy * 0.2), (x - dx, y - dy * 0.2)], hull)
        c.poly(_mirror([(x - dx * 0.6, y + dy * 0.25), (x + dx * 0.6, y + dy * 0.25), (x + dx, y + dy * 0.55),
                        (x - dx, y + dy * 0.55)], y + dy * 0.25), mix(hull, gradient(water)(y), 0.6))
        c.rect(x - dx * 0.3, y - dy * 0.45, x + dx * 0.2, y - dy * 0.2, (235, 230, 220))
        c.line((x, y - dy * 0.2), (x, y - dy * 1.6), 0.004, (60, 50, 40))
        if rng.random() < 0.6:
            c.poly([(x + dx * 0.05, y - dy * 1.55), (x + dx * 0.05, y - dy * 0.35), (x + dx * 0.75, y - dy * 0.35)],
                   (245, 240, 225))
        c.disc(x, y - dy * 1.6, 0.004, (255, 220, 140))


def city(c: Canvas, rng: random.Random, mood: str = "") -> None:
    mood = mood or rng.choice(["night", "night", "dusk", "day"])
    street = 0.84
    skies = {"night": [(0.0, (8, 12, 36)), (0.7, (42, 46, 96))],
             "dusk": [(0.0, (30, 44, 110)), (0.5, (110, 90, 160)), (0.75, (240, 150, 110))],
             "day": [(0.0, (80, 140, 215)), (0.75, (190, 220, 240))],
             "rain": [(0.0, (70, 76, 88)), (0.75, (130, 136, 146))]}
    sky = skies[mood]
    c.fill(0, street, sky)
    if mood == "night":
        _stars(c, rng, 60, 0.4)
        _moon(c, rng, gradient(sky)(0.2))
    elif mood == "day":
        for _ in range(3):
            _cloud(c, rng, rng.random(), rng.uniform(0.08, 0.3), rng.uniform(0.05, 0.09),
                   (250, 250, 252), (215, 225, 238))
    lights = [(255, 214, 120), (255, 236, 170), (190, 225, 255)] if mood != "day" else [(150, 190, 220)]
    lit = {"night": 0.45, "dusk": 0.3, "rain": 0.35, "day": 0.0}[mood]
    haze = gradient(sky)(0.7)
    for layer, (bodies, tallest) in enumerate((((60, 64, 100), 0.55), ((40, 42, 70), 0.45), ((24, 24, 40), 0.35))):
        x = rng.uniform(-0.1, 0.0)
        while x < 1.0:
            width = rng.uniform(0.06, 0.14)
            top = street - rng.uniform(0.15, tallest) - (0.1 if layer == 0 else 0.0)
            body = mix(bodies, haze, 0.55 - layer * 0.25)
            if mood == "day":
                body = mix(rng.choice([(200, 170, 140), (170, 180, 190), (220, 200, 170), (150, 150, 160)]),
                           haze, 0.4 - layer * 0.15)
            _building(c, rng, x, x + width, top, street, body, lit * (0.5 + layer * 0.3), lights,
                      mix(body, (0, 0, 0), 0.25))
            x += width + rng.uniform(0.0, 0.03)
    road = (50, 52, 60) if mood != "day" else (90, 92, 98)
    c.fill(street, 1, [(street, mix(road, (160, 160, 170), 0.3)), (street + 0.02, road), (1.0, mix(road, (0, 0, 0), 0.3))])
    for k in range(8):
        x = k / 7
        c.rect(x - 0.03, 0.94, x + 0.03, 0.95, (220, 220, 200))
    for k in range(4):  # street lamps
        x = 0.1 + k * 0.27 + rng.uniform(-0.03, 0.03)
        c.line((x, street + 0.02), (x, street - 0.2), 0.006, (30, 30, 36))
        c.line((x, street - 0.2), (x + 0.025, street - 0.2), 0.006, (30, 30, 36))
        if mood != "day":
            c.glow(x + 0.025, street - 0.19, 0.01, (255, 230, 160), gradient(sky)(street - 0.19), rings=4, reach=3.5)
            _reflection(c, rng, x + 0.025, street + 0.03, 0.008, (255, 220, 150), road, 10)
    if mood == "rain":
        for _ in range(350):
            x, y, length = rng.uniform(-0.1, 1.0), rng.random(), rng.uniform(0.02, 0.05)
            c.line((x, y), (x + length * 0.25, y + length), 0.0015, (190, 196, 206))


def mountains(c: Canvas, rng: random.Random, snow: bool = False) -> None:
    lake = rng.uniform(0.66, 0.74)
    sky = [(0.0, (56, 104, 186)), (lake, (186, 214, 236))]
    c.fill(0, lake, sky)
    if rng.random() < 0.5:
        c.glow(rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.2), 0.05, (255, 250, 225), (150, 190, 228), reach=3.0)
    for _ in range(rng.randrange(2, 4)):
        _cloud(c, rng, rng.random(), rng.uniform(0.06, 0.25), rng.uniform(0.05, 0.08), (252, 252, 255), (214, 224, 238))
    # Both ranges stand on the lake's far shore, and stand upside down in it.
    far = [(x, min(y, lake)) for x, y in _jagged_range(rng, lake - 0.08, 0.42, rng.randrange(3, 5))]
    near = [(x, min(y, lake)) for x, y in _jagged_range(rng, lake, 0.25, rng.randrange(4, 7))]
    far_colour, near_colour = (118, 138, 176), (70, 92, 104)
    water = [(lake, (120, 160, 196)), (1.0, (34, 70, 110))]
    c.fill(lake, 1, water)
    c.poly(_mirror(far, lake), mix(far_colour, (120, 160, 196), 0.5))
    c.poly(_mirror(near, lake), mix(near_colour, (60, 100, 140), 0.5))
    c.poly(far, far_colour)
    _snow_caps(c, rng, far, lake - 0.28, (246, 248, 252))
    c.poly(near, near_colour)
    if snow:
        _snow_caps(c, rng, near, lake - 0.12, (236, 240, 248))
    c.rect(0, lake, 1, lake + 0.004, (60, 80, 90))
    _water_streaks(c, rng, lake + 0.02, 60, [(150, 186, 214), (50, 86, 126)], 0.06)
    shore = 0.9 + rng.uniform(-0.03, 0.03)
    ground = (236, 240, 246) if snow else (50, 82, 50)
    c.ridge(shore, waves(rng, 2, 0.02), ground)
    for _ in range(rng.randrange(4, 9)):
        _pine(c, rng.random(), shore + rng.uniform(0.01, 0.06), rng.uniform(0.12, 0.22), (28, 60, 40))


def countryside(c: Canvas, rng: random.Random, autumn: bool = False, lavender: bool = False) -> None:
    sky = [(0.0, (74, 140, 220)), (0.6, (190, 222, 246))]
    c.fill(0, 0.6, sky)
    c.glow(rng.uniform(0.1, 0.9), rng.uniform(0.08, 0.2), 0.05, (255, 246, 200), (150, 196, 236), reach=3.0)
    for _ in range(rng.randrange(2, 5)):
        _cloud(c, rng, rng.random(), rng.uniform(0.06, 0.3), rng.uniform(0.05, 0.09), (252, 252, 255), (212, 224, 240))
    greens = [(150, 180, 160), (110, 160, 90), (80, 140, 60), (60, 120, 40)]
    if autumn:
        greens = [(170, 170, 150), (190, 150, 80), (170, 120, 50), (140, 90, 40)]
    leaves = [(220, 110, 30), (200, 60, 30), (240, 170, 40)] if autumn else [(40, 100, 40), (60, 120, 50)]
    trees = [(rng.random(), 0.7 + rng.uniform(-0.02, 0.04), rng.uniform(0.08, 0.14), [rng.choice(leaves) for _ in range(4)])
             for _ in range(rng.randrange(3, 8))]
    for i, colour in enumerate(greens[:3] if lavender else greens):
        c.ridge(0.45 + i * 0.1, waves(rng, 3, 0.05), colour)
        if i == 2 and not lavender:  # trees on the third hill, the fourth in front of their feet
            for x, ground, size, crown in trees:
                _tree(c, x, ground, size, (90, 60, 40), crown)
    if lavender:  # rows of lavender to the horizon, trees standing in the field
        vanish = (rng.uniform(0.3, 0.7), 0.62)
        c.rect(0, 0.62, 1, 1, (70, 130, 50))
        for k in range(-8, 16):
            x0, x1 = k / 8 - 0.5, (k + 0.5) / 8 - 0.5
            c.poly([vanish, (x0 * 2 + 0.5, 1.0), (x1 * 2 + 0.5, 1.0)], (140, 100, 190))
        for x, ground, size, crown in trees:
            _tree(c, x, ground, size, (90, 60, 40), crown)
    flowers = [(235, 60, 60), (250, 220, 80), (250, 250, 250)] if not autumn else [(200, 80, 30), (230, 150, 40)]
    for _ in range(160):
        y = rng.uniform(0.82, 1.0)
        c.disc(rng.random(), y, 0.004 + 0.006 * (y - 0.82) / 0.18, rng.choice(flowers))


def _cat(c: Canvas, rng: random.Random, x: float, ground: float, size: float) -> None:
    fur, stripe = rng.choice([((230, 140, 60), (190, 100, 40)), ((130, 130, 140), (90, 90, 100)),
                              ((40, 40, 44), (25, 25, 28)), ((240, 236, 228), (210, 200, 190))])
    u, v = size * c.unit / c.w, size * c.unit / c.h
    tail_side = rng.choice((-1, 1))
    for k in range(12):  # the tail, curling up beside the body
        t = k / 11
        c.disc(x + tail_side * u * (0.45 + 0.35 * math.sin(t * 2.2)), ground - v * (0.08 + 0.5 * t ** 1.5),
               size * 0.07, fur)
    c.ellipse(x, ground - v * 0.35, size * 0.38, size * 0.38, fur)
    c.ellipse(x, ground - v * 0.22, size * 0.44, size * 0.24, fur)
    for k in (-1, 1):
        c.ellipse(x + k * u * 0.15, ground - v * 0.04, size * 0.1, size * 0.06, mix(fur, (255, 255, 255), 0.3))
    hx, hy, hr = x, ground - v * 0.82, size * 0.27
    for k in (-1, 1):
        c.poly([(x + k * u * 0.25, hy - v * 0.08), (x + k * u * 0.22, hy - v * 0.42), (x + k * u * 0.05, hy - v * 0.2)], fur)
        c.poly([(x + k * u * 0.21, hy - v * 0.12), (x + k * u * 0.2, hy - v * 0.33), (x + k * u * 0.1, hy - v * 0.2)],
               (235, 160, 170))
    c.ellipse(hx, hy, hr * 1.1, hr, fur)
    for k in (-1, 0, 1):
        c.line((hx + k * u * 0.06, hy - v * 0.26), (hx + k * u * 0.06, hy - v * 0.16), 0.01 * size, stripe)
    eye = rng.choice([(120, 200, 80), (230, 190, 60), (90, 170, 210)])
    for k in (-1, 1):
        c.ellipse(hx + k * u * 0.11, hy - v * 0.02, size * 0.055, size * 0.045, eye)
        c.ellipse(hx + k * u * 0.11, hy - v * 0.02, size * 0.015, size * 0.042, (15, 15, 15))
    c.poly([(hx - u * 0.03, hy + v * 0.07), (hx + u * 0.03, hy + v * 0.07), (hx, hy + v * 0.11)], (230, 130, 140))
    for k in (-1, 1):
        for dy in (0.08, 0.12):
            c.line((hx + k * u * 0.08, hy + v * dy), (hx + k * u * 0.36, hy + v * (dy * 1.4 - 0.02)), 0.006 * size,
                   (250, 250, 245))


def kitten(c: Canvas, rng: random.Random, snow: bool = False) -> None:
    floor = 0.8
    if snow:
        c.fill(0, 0.62, [(0.0, (150, 170, 196)), (0.62, (214, 222, 232))])
        c.ridge(0.58, waves(rng, 2, 0.03), (186, 198, 214), bottom=0.7)
        c.ridge(0.66, waves(rng, 2, 0.02), (246, 248, 252))
        for _ in range(4):
            _pine(c, rng.random(), 0.62 + rng.uniform(0.0, 0.04), rng.uniform(0.15, 0.25), (60, 86, 76))
        _cat(c, rng, rng.uniform(0.35, 0.65), 0.9, 0.45)
        for _ in range(220):
            c.disc(rng.random(), rng.random(), rng.uniform(0.002, 0.007), (255, 255, 255))
        return
    wall = rng.choice([(226, 210, 180), (190, 210, 200), (220, 190, 190), (200, 200, 220)])
    c.rect(0, 0, 1, floor, wall)
    for k in range(0, 24, 2):
        c.rect(k / 24, 0, (k + 1) / 24, floor, mix(wall, (255, 255, 255), 0.12))
    wx = rng.choice((0.12, 0.62))
    c.rect(wx - 0.02, 0.08, wx + 0.28, 0.42, (245, 242, 235))
    c.fill(0.1, 0.4, [(0.1, (110, 170, 230)), (0.4, (200, 226, 246))], wx, wx + 0.26)
    c.rect(wx + 0.12, 0.1, wx + 0.14, 0.4, (245, 242, 235))
    c.rect(wx, 0.24, wx + 0.26, 0.255, (245, 242, 235))
    wood = rng.choice([(150, 100, 60), (180, 140, 100), (120, 80, 50)])
    for k in range(8):
        c.rect(0, floor + k * 0.025, 1, floor + (k + 1) * 0.025, wood if k % 2 else mix(wood, (0, 0, 0), 0.1))
    sofa = rng.choice([(60, 120, 130), (190, 150, 60), (170, 60, 60), (90, 100, 150)])
    dark = mix(sofa, (0, 0, 0), 0.25)
    c.rect(0.08, 0.42, 0.92, 0.66, dark)
    c.ellipse(0.08, 0.56, 0.07, 0.12, sofa)
    c.ellipse(0.92, 0.56, 0.07, 0.12, sofa)
    c.rect(0.03, 0.56, 0.13, floor - 0.04, sofa)
    c.rect(0.87, 0.56, 0.97, floor - 0.04, sofa)
    c.rect(0.13, 0.62, 0.87, floor - 0.04, sofa)
    c.rect(0.13, 0.6, 0.5, 0.64, mix(sofa, (255, 255, 255), 0.15))
    c.rect(0.5, 0.6, 0.87, 0.64, mix(sofa, (255, 255, 255), 0.1))
    for x in (0.08, 0.9):
        c.rect(x, floor - 0.04, x + 0.02, floor + 0.01, (60, 40, 30))
    _cat(c, rng, rng.uniform(0.3, 0.7), 0.62, 0.42)
    bx = rng.uniform(0.1, 0.9)
    yarn = rng.choice([(220, 60, 90), (70, 130, 220), (240, 200, 60)])
    c.disc(bx, 0.92, 0.045, yarn)
    for k in range(3):
        c.line((bx - 0.03, 0.9 + k * 0.02), (bx + 0.03, 0.89 + k * 0.02), 0.004, mix(yarn, (255, 255, 255), 0.4))


def food(c: Canvas, rng: random.Random, kind: str = "stall") -> None:
    if kind == "cafe":
        table = rng.choice([(150, 100, 70), (110, 75, 55), (200, 180, 150)])
        c.fill(0, 1, [(0.0, mix(table, (255, 255, 255), 0.15)), (1.0, mix(table, (0, 0, 0), 0.2))])
        for k in range(12):
            c.rect(0, k / 12, 1, k / 12 + 0.004, mix(table, (0, 0, 0), 0.15))
        x, y = rng.uniform(0.4, 0.6), rng.uniform(0.5, 0.56)
        c.ellipse(x + 0.02, y + 0.04, 0.36, 0.3, mix(table, (0, 0, 0), 0.3))  # shadow
        c.ellipse(x, y, 0.36, 0.3, (246, 244, 238))
        c.ellipse(x, y, 0.26, 0.21, (226, 222, 214))
        c.ellipse(x + 0.26 * c.unit / c.w, y, 0.08, 0.05, (246, 244, 238))
        c.ellipse(x + 0.26 * c.unit / c.w, y, 0.05, 0.025, mix(table, (226, 222, 214), 0.5))
        c.ellipse(x, y, 0.22, 0.19, (250, 248, 244))
        c.ellipse(x, y, 0.185, 0.16, (150, 95, 55))
        heart = (240, 226, 205)
        c.disc(x - 0.04 * c.unit / c.w, y - 0.03 * c.unit / c.h, 0.05, heart)
        c.disc(x + 0.04 * c.unit / c.w, y - 0.03 * c.unit / c.h, 0.05, heart)
        c.poly([(x - 0.088 * c.unit / c.w, y - 0.015 * c.unit / c.h), (x + 0.088 * c.unit / c.w, y - 0.015 * c.unit / c.h),
                (x, y + 0.09 * c.unit / c.h)], heart)
        spoon = (200, 200, 205)
        c.line((x + 0.12 * c.unit / c.w, y + 0.2 * c.unit / c.h), (x + 0.3 * c.unit / c.w, y + 0.32 * c.unit / c.h),
               0.018, spoon)
        c.ellipse(x + 0.1 * c.unit / c.w, y + 0.185 * c.unit / c.h, 0.035, 0.022, spoon)
        return
    c.fill(0, 0.7, [(0.0, (30, 30, 70)), (0.7, (110, 70, 110))])
    for _ in range(5):
        x, w = rng.random(), rng.uniform(0.1, 0.2)
        c.rect(x, rng.uniform(0.2, 0.4), x + w, 0.7, (45, 40, 70))
    c.fill(0.7, 1, [(0.7, (70, 60, 70)), (1.0, (40, 34, 40))])
    a, b = rng.choice([((210, 50, 50), (245, 240, 230)), ((40, 120, 90), (240, 230, 200)), ((230, 140, 40), (250, 240, 220))])
    c.rect(0.08, 0.2, 0.1, 0.9, (70, 50, 40))
    c.rect(0.9, 0.2, 0.92, 0.9, (70, 50, 40))
    c.rect(0.1, 0.3, 0.9, 0.62, (60, 36, 30))
    glow = (255, 190, 110)
    c.fill(0.32, 0.62, [(0.32, mix(glow, (60, 36, 30), 0.3)), (0.62, (120, 70, 50))])
    for k in range(10):
        x0 = 0.05 + k * 0.09
        c.poly([(x0 + 0.02, 0.12), (x0 + 0.11, 0.12), (x0 + 0.09, 0.3), (x0, 0.3)], a if k % 2 else b)
        c.ellipse(x0 + 0.045, 0.3, 0.045 * c.w / c.unit, 0.03, a if k % 2 else b)
    c.rect(0.05, 0.62, 0.95, 0.66, (150, 100, 60))
    c.rect(0.07, 0.66, 0.93, 0.92, (120, 76, 46))
    for k in range(6):
        c.rect(0.07, 0.68 + k * 0.04, 0.93, 0.685 + k * 0.04, (100, 60, 36))
    if kind == "market":
        fruit = [(240, 140, 30), (210, 40, 40), (240, 220, 60), (120, 180, 60)]
        for crate in range(4):
            x0 = 0.12 + crate * 0.2
            colour = fruit[(crate + rng.randrange(4)) % 4]
            c.rect(x0, 0.55, x0 + 0.16, 0.62, (170, 120, 70))
            for row in range(3):
                for k in range(5 - row):
                    c.disc(x0 + 0.02 + (k + row * 0.5) * 0.03 * c.unit / c.w * 1.3, 0.545 - row * 0.03, 0.022,
                           mix(colour, (0, 0, 0), rng.uniform(0, 0.2)))
    else:
        for k in range(rng.randrange(3, 5)):
            x = 0.2 + k * 0.2 + rng.uniform(-0.03, 0.03)
            bowl = rng.choice([(240, 240, 235), (200, 60, 50), (60, 90, 160)])
            c.ellipse(x, 0.6, 0.075, 0.02, mix(bowl, (0, 0, 0), 0.3))
            c.poly([(x + 0.075 * c.unit / c.w * math.cos(t * math.pi / 12), 0.57 + 0.05 * math.sin(t * math.pi / 12))
                    for t in range(13)], bowl)
            c.ellipse(x, 0.57, 0.075, 0.018, (230, 200, 120))
            for s in range(3):
                sx = x + (s - 1) * 0.025
                for k2 in range(10):
                    c.disc(sx + 0.008 * math.sin(k2 * 0.9 + s), 0.55 - k2 * 0.018, 0.006, (210, 200, 205))
    c.line((0.1, 0.34), (0.9, 0.34), 0.003, (30, 20, 20))
    for k in range(6):
        x = 0.18 + k * 0.128
        y = 0.35 + 0.03 * math.sin(k / 5 * math.pi)
        lantern = rng.choice([(230, 50, 40), (240, 160, 40)])
        c.line((x, 0.34), (x, y), 0.003, (30, 20, 20))
        c.glow(x, y + 0.035, 0.028, lantern, (120, 70, 50), rings=3, reach=1.8)
        c.rect(x - 0.012, y, x + 0.012, y + 0.01, (220, 180, 60))


def desert(c: Canvas, rng: random.Random) -> None:
    horizon = rng.uniform(0.5, 0.58)
    sky = [(0.0, (90, 150, 210)), (horizon, (250, 214, 170))]
    c.fill(0, 1, sky)
    c.glow(rng.uniform(0.15, 0.85), rng.uniform(0.12, 0.3), 0.06, (255, 246, 210), gradient(sky)(0.25), reach=3.0)
    for _ in range(rng.randrange(2, 4)):  # mesas
        x, w, h = rng.uniform(-0.1, 0.9), rng.uniform(0.1, 0.25), rng.uniform(0.05, 0.12)
        c.poly([(x, horizon + 0.01), (x + 0.03, horizon - h), (x + w - 0.03, horizon - h), (x + w, horizon + 0.01)],
               (196, 130, 100))
    sands = [(230, 190, 140), (220, 170, 110), (210, 150, 90)]
    for i, colour in enumerate(sands):
        c.ridge(horizon + 0.01 + i * 0.06, waves(rng, 2, 0.03), colour)
    vx = rng.uniform(0.4, 0.6)
    c.poly([(vx - 0.004, horizon + 0.02), (vx + 0.004, horizon + 0.02), (0.85, 1.0), (0.15, 1.0)], (70, 66, 70))
    for k in range(12):
        t0, t1 = (k / 12) ** 2, (k / 12 + 0.04) ** 2
        y0, y1 = horizon + 0.02 + (1 - horizon) * t0, horizon + 0.02 + (1 - horizon) * t1
        x0, x1 = vx + (0.5 - vx) * t0, vx + (0.5 - vx) * t1
        c.poly([(x0 - 0.001 - 0.006 * t0, y0), (x0 + 0.001 + 0.006 * t0, y0), (x1 + 0.001 + 0.006 * t1, y1),
                (x1 - 0.001 - 0.006 * t1, y1)], (240, 220, 120))
    for _ in range(rng.randrange(2, 5)):  # saguaros
        x, base, s = rng.choice((rng.uniform(0.0, 0.12), rng.uniform(0.88, 1.0))), rng.uniform(0.8, 0.98), \
            rng.uniform(0.15, 0.3)
        green = (70, 120, 70)
        u = 0.04 * s / 0.3 * c.unit / c.w
        c.rect(x - u, base - s, x + u, base, green)
        c.disc(x, base - s, 0.04 * s / 0.3, green)
        for side in (-1, 1):
            y = base - s * rng.uniform(0.4, 0.6)
            c.rect(x, y, x + side * u * 3.5, y + u * 1.6 * c.w / c.h, green)
            c.rect(x + side * u * 2.5 - u * 0.9, y - s * 0.3, x + side * u * 2.5 + u * 0.9, y + u * 1.6 * c.w / c.h,
                   green)
            c.disc(x + side * u * 2.5, y - s * 0.3, 0.036 * s / 0.3, green)


def fireworks(c: Canvas, rng: random.Random) -> None:
    water_top = 0.8
    sky = [(0.0, (6, 8, 28)), (water_top, (40, 30, 70))]
    c.fill(0, water_top, sky)
    _stars(c, rng, 40, 0.6)
    palette = [(255, 80, 80), (255, 200, 60), (120, 220, 255), (200, 120, 255), (140, 255, 140), (255, 255, 255)]
    water = [(water_top, (30, 26, 60)), (1.0, (6, 8, 24))]
    c.fill(water_top, 1, water)
    bursts = []
    for _ in range(rng.randrange(3, 7)):
        x, y, r = rng.uniform(0.1, 0.9), rng.uniform(0.12, 0.5), rng.uniform(0.08, 0.2)
        colour = rng.choice(palette)
        bursts.append((x, colour))
        rays = rng.randrange(20, 40)
        for k in range(rays):
            angle = 2 * math.pi * k / rays + rng.uniform(-0.05, 0.05)
            dx, dy = math.cos(angle) * c.unit / c.w, math.sin(angle) * c.unit / c.h
            c.line((x + dx * r * 0.2, y + dy * r * 0.2), (x + dx * r * 0.85, y + dy * r * 0.85), 0.003,
                   mix(colour, (0, 0, 0), 0.35))
            for d in range(4):
                t = 0.55 + d * 0.15
                c.disc(x + dx * r * t, y + dy * r * t, 0.004 + d * 0.002, mix(colour, (255, 255, 255), 0.4 - d * 0.1))
        c.glow(x, y, 0.012, (255, 250, 230), (6, 8, 28), rings=3, reach=3.0)
    x = 0.0
    while x < 1.0:
        w, h = rng.uniform(0.03, 0.08), rng.uniform(0.03, 0.14)
        c.rect(x, water_top - h, x + w, water_top, (14, 12, 26))
        for _ in range(int(w * h * 4000)):
            wx, wy = rng.uniform(x, x + w - 0.006), rng.uniform(water_top - h + 0.005, water_top - 0.01)
            c.rect(wx, wy, wx + 0.004, wy + 0.005, (255, 214, 120))
        x += w
    for x, colour in bursts:
        _reflection(c, rng, x, water_top + 0.005, 0.02, colour, (6, 8, 24), 16)


def fog(c: Canvas, rng: random.Random) -> None:
    mist = rng.choice([(222, 226, 230), (236, 226, 214), (214, 222, 226)])
    c.fill(0, 1, [(0.0, mix(mist, (170, 190, 210), 0.4)), (0.5, mist), (1.0, mist)])
    c.disc(rng.uniform(0.2, 0.8), rng.uniform(0.15, 0.3), 0.07, mix(mist, (255, 250, 235), 0.6))
    dark = rng.choice([(40, 60, 50), (50, 56, 70)])
    for i in range(5):
        colour = mix(dark, mist, 0.85 - i * 0.18)
        base = 0.42 + i * 0.11
        c.ridge(base, waves(rng, 3, 0.05), colour)
        for _ in range(rng.randrange(3, 9)):
            _pine(c, rng.random(), base + rng.uniform(0.02, 0.06), 0.06 + i * 0.04, colour)


def portrait(c: Canvas, rng: random.Random) -> None:
    back = rng.choice([(90, 110, 120), (150, 120, 100), (100, 90, 120), (120, 140, 110)])
    c.fill(0, 1, [(0.0, mix(back, (0, 0, 0), 0.3)), (1.0, mix(back, (0, 0, 0), 0.5))])
    c.glow(0.5, 0.42, 0.3, mix(back, (255, 255, 255), 0.25), mix(back, (0, 0, 0), 0.35), rings=6, reach=2.0)
    skin = rng.choice([(240, 200, 170), (200, 150, 110), (150, 100, 70), (230, 185, 150)])
    hair = rng.choice([(50, 35, 25), (120, 70, 30), (200, 160, 90), (20, 20, 20), (150, 50, 30)])
    clothes = rng.choice([(40, 60, 110), (150, 40, 50), (60, 110, 80), (220, 200, 170)])
    c.ellipse(0.5, 0.45, 0.2, 0.26, hair)
    c.rect(0.5 - 0.2 * c.unit / c.w, 0.45, 0.5 + 0.2 * c.unit / c.w, 0.78, hair)
    c.ellipse(0.5, 1.02, 0.42, 0.26, clothes)
    c.rect(0.5 - 0.06 * c.unit / c.w, 0.6, 0.5 + 0.06 * c.unit / c.w, 0.8, mix(skin, (0, 0, 0), 0.15))
    c.ellipse(0.5, 0.8, 0.09, 0.05, mix(skin, (0, 0, 0), 0.15))
    c.ellipse(0.5, 0.48, 0.15, 0.19, skin)
    c.poly([(0.5 + 0.16 * c.unit / c.w * math.cos(math.pi + t * math.pi / 12),
             0.44 + 0.18 * c.unit / c.h * math.sin(math.pi + t * math.pi / 12)) for t in range(13)], hair)
    for k in (-1, 1):
        ex = 0.5 + k * 0.06 * c.unit / c.w
        c.ellipse(ex, 0.49, 0.022, 0.012, (250, 250, 250))
        c.disc(ex, 0.49, 0.01, (60, 40, 30))
        c.line((ex - k * 0.025 * c.unit / c.w, 0.448), (ex + k * 0.025 * c.unit / c.w, 0.455), 0.006,
               mix(hair, (0, 0, 0), 0.2))
        c.disc(ex, 0.55, 0.025, mix(skin, (230, 120, 120), 0.3))
    c.half_ellipse(0.5, 0.59, 0.035, 0.018, (190, 90, 90), below=True)


def bridge(c: Canvas, rng: random.Random) -> None:
    river, deck = 0.66, 0.5
    sky = [(0.0, (96, 150, 214)), (river, (214, 228, 236))]
    c.fill(0, river, sky)
    for _ in range(3):
        _cloud(c, rng, rng.random(), rng.uniform(0.06, 0.25), rng.uniform(0.04, 0.07), (252, 252, 255), (214, 224, 238))
    c.ridge(0.4, waves(rng, 3, 0.03), (120, 156, 120), bottom=river)
    for _ in range(8):
        _tree(c, rng.random(), rng.uniform(0.42, 0.5), rng.uniform(0.06, 0.1), (80, 60, 40), [(60, 110, 60), (80, 130, 70)])
    water = [(river, (110, 146, 160)), (1.0, (50, 80, 96))]
    stone = rng.choice([(190, 170, 140), (170, 160, 150), (200, 150, 120)])
    arches = rng.randrange(3, 6)
    span = 1 / arches
    radius = min(span * 0.36 * c.w, (river - deck) * 0.8 * c.h) / c.unit
    c.fill(river, 1, water)
    c.rect(0, deck, 1, river, stone)
    c.rect(0, river, 1, 2 * river - deck, mix(stone, water[0][1], 0.6))
    for k in range(arches):  # each arch above the water, and its reflection below
        c.half_ellipse((k + 0.5) * span, river, radius, radius, mix(stone, (30, 34, 40), 0.65))
        c.half_ellipse((k + 0.5) * span, river, radius, radius, mix(stone, water[1][1], 0.8), below=True)
    c.rect(0, deck - 0.02, 1, deck, mix(stone, (255, 255, 255), 0.2))
    for k in range(arches + 1):
        x = k * span
        c.rect(x - 0.004, deck - 0.06, x + 0.004, deck - 0.02, (60, 60, 60))
        c.disc(x, deck - 0.065, 0.008, (250, 240, 200))
    _water_streaks(c, rng, river + 0.01, 90, [(140, 176, 190), (40, 70, 86)], 0.05)


# Title words (lower case) -> scene, the first match winning: "Street food" is food, not a street.
THEMES: list[tuple[tuple[str, ...], Callable[[Canvas, random.Random], None]]] = [
    (("kitten", "cat", "sofa", "猫"), kitten),
    (("portrait", "face", "selfie"), portrait),
    (("food", "market", "café", "cafe", "coffee", "lait", "bakery"), food),
    (("lighthouse",), lambda c, rng: harbour(c, rng, lighthouse=True)),
    (("harbour", "harbor", "port", "boat", "pier"), harbour),
    (("sunset", "sunrise", "dusk", "夕焼け", "夕日", "bay", "beach", "sea"), sunset),
    (("firework", "花火"), fireworks),
    (("fog", "mist", "morning"), fog),
    (("mountain", "lake", "alps", "snow", "peak"), mountains),
    (("desert", "road", "canyon"), desert),
    (("bridge",), bridge),
    (("spring", "provence", "leaves", "autumn", "zoo", "owl", "garden", "field", "tree", "forest", "park"),
     countryside),
    (("city", "street", "night", "tokyo", "東京", "夜", "münchen", "zürich", "station", "train", "площадь",
      "graffiti", "blue hour", "rain", "town"), city),
]


def _says(text: str, word: str) -> bool:
    """Whether lower-case ``text`` has a word starting with ``word`` ("cats", not "street" for
    "tree"); words in scripts without spaces (Japanese) anywhere."""
    if word.isascii():
        return re.search(r"\b" + re.escape(word), text) is not None
    return word in text


def theme_of(title: str) -> Callable[[Canvas, random.Random], None] | None:
    """The scene a title asks for, or None when it names none."""
    text = title.lower()
    for words, scene in THEMES:
        if any(_says(text, word) for word in words):
            return scene
    return None


def _variant(title: str, rng: random.Random) -> Callable[[Canvas, random.Random], None]:
    """The scene with the title's finer words applied (rain, snow, autumn...), or one picked at random."""
    text = title.lower()
    scene = theme_of(title)
    if scene is city:
        mood = "rain" if _says(text, "rain") else "dusk" if _says(text, "blue hour") else \
            "night" if (_says(text, "night") or "夜" in text) else ""
        return lambda c, r: city(c, r, mood)
    if scene is kitten and _says(text, "snow"):
        return lambda c, r: kitten(c, r, snow=True)
    if scene is mountains and _says(text, "snow"):
        return lambda c, r: mountains(c, r, snow=True)
    if scene is countryside and (_says(text, "leaves") or _says(text, "autumn")):
        return lambda c, r: countryside(c, r, autumn=True)
    if scene is countryside and (_says(text, "provence") or _says(text, "lavender")):
        return lambda c, r: countryside(c, r, lavender=True)
    if scene is food:
        kind = "cafe" if any(_says(text, w) for w in ("café", "cafe", "coffee", "lait")) else \
            "market" if _says(text, "market") else "stall"
        return lambda c, r: food(c, r, kind)
    if scene is not None:
        return scene
    return rng.choice([sunset, harbour, city, mountains, countryside, desert, bridge, fog])


def render(seed: int | str, title: str, width: int, height: int) -> Raster:
    """A photo's picture at ``width`` x ``height``: the scene its title asks for, laid out by
    ``seed`` (the photo id), the same at every size."""
    rng = random.Random(seed)
    scene = _variant(title, rng)
    raster = Raster(width, height)
    scene(Canvas(raster), rng)
    return raster


def render_square(seed: int | str, title: str, aspect: tuple[int, int], edge: int) -> Raster:
    """The centre ``edge`` x ``edge`` square of the picture drawn at the photo's aspect ratio."""
    width, height = aspect
    scale = edge / min(width, height)
    full_w, full_h = max(edge, round(width * scale)), max(edge, round(height * scale))
    return render(seed, title, full_w, full_h).crop((full_w - edge) // 2, (full_h - edge) // 2, edge, edge)
