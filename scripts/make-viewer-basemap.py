#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes the archive viewer's offline world outline, apps/flickr_apps/backup/viewer/basemap.js.

Source: the example viewer's basemap (bindings/python/examples/viewer/viewer/static/basemap/
countries-50m.topo.json: Natural Earth 1:50m Admin 0 countries, public domain, as its README says
how it was made). Only its `coastline` object is kept: each line is simplified (Douglas-Peucker,
0.12°), rounded to 0.1° and written in tenths of a degree, [lon, lat, lon, lat...]; lines shorter
than three points after that are dropped. The file is a script (`window.archiveBasemap = {...};`)
so that a page opened from disk (file://) can load it. Deterministic:

    python3 scripts/make-viewer-basemap.py           # writes the file
    python3 scripts/make-viewer-basemap.py --check   # exit 1 unless the committed file is what it makes
"""
import argparse
import json
import sys
from itertools import accumulate
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO / "bindings/python/examples/viewer/viewer/static/basemap/countries-50m.topo.json"
OUTPUT = REPO / "apps/flickr_apps/backup/viewer/basemap.js"
TOLERANCE = 0.12  # degrees


def simplify(points: list[tuple[float, float]], tolerance: float) -> list[tuple[float, float]]:
    """Douglas-Peucker, iterative (a coast has thousands of points)."""
    if len(points) < 3:
        return points
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        (ax, ay), (bx, by) = points[first], points[last]
        dx, dy = bx - ax, by - ay
        length = (dx * dx + dy * dy) ** 0.5
        far, index = 0.0, -1
        for i in range(first + 1, last):
            px, py = points[i]
            d = abs(dy * px - dx * py + bx * ay - by * ax) / length if length else ((px - ax) ** 2 + (py - ay) ** 2) ** 0.5
            if d > far:
                far, index = d, i
        if far > tolerance:
            keep[index] = True
            stack += [(first, index), (index, last)]
    return [p for p, kept in zip(points, keep) if kept]


def make() -> str:
    topology = json.loads(SOURCE.read_text("utf-8"))
    (kx, ky), (tx, ty) = topology["transform"]["scale"], topology["transform"]["translate"]
    arcs = [[(x * kx + tx, y * ky + ty) for x, y in zip(accumulate(a[0] for a in arc), accumulate(a[1] for a in arc))]
            for arc in topology["arcs"]]  # delta-encoded on the grid
    lines = []
    for ids in topology["objects"]["coastline"]["arcs"]:
        line: list[tuple[float, float]] = []
        for i in ids:
            part = arcs[i] if i >= 0 else arcs[~i][::-1]
            line += part[1:] if line else part
        tenths = []
        for lon, lat in simplify(line, TOLERANCE):
            point = [round(lon * 10), round(lat * 10)]
            if not tenths or tenths[-2:] != point:
                tenths += point
        if len(tenths) >= 6:
            lines.append(tenths)
    body = json.dumps({"source": "Natural Earth 1:50m (public domain), coastlines simplified: "
                       "scripts/make-viewer-basemap.py", "unit": 0.1, "coast": lines}, separators=(",", ":"))
    return "// SPDX-License-Identifier: MIT\n// Made by scripts/make-viewer-basemap.py: do not edit.\n" \
           f"window.archiveBasemap = {body};\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    made = make()
    if args.check:
        same = OUTPUT.is_file() and OUTPUT.read_text("utf-8") == made
        print("up to date" if same else f"{OUTPUT} differs from what the script makes")
        return 0 if same else 1
    OUTPUT.write_text(made, "utf-8")
    points = sum(len(line) // 2 for line in json.loads(made.split("= ", 1)[1].rstrip(";\n"))["coast"])
    print(f"{OUTPUT}: {len(made)} bytes, {points} points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
