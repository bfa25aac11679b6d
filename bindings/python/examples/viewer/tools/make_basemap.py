# SPDX-License-Identifier: MIT
"""Makes the viewer's offline basemap, viewer/static/basemap/countries-50m.topo.json.

The source is Natural Earth's 1:50m "Admin 0 - Countries" (public domain), as Debian's
r-cran-rnaturalearthdata package ships it (the CRAN package rnaturalearthdata, CC0):

    apt-get install --no-install-recommends r-cran-rnaturalearthdata   # brings r-base-core and r-cran-sp
    python3 tools/make_basemap.py            # writes the file and prints what goes in its README
    python3 tools/make_basemap.py --check    # exit 1 unless the committed file is what it makes

Rscript prints every country's rings; this script then builds a topology (TopoJSON: each stretch
of boundary shared by two countries is one arc, stored once), simplifies each arc with
Douglas-Peucker (a shared border the same way for both neighbours, so no gaps open), makes one
border of two neighbours' copies of it that differ by a vertex but come out the same, drops
islands smaller than --min-island unless one is all a country has, and writes three objects:

  countries  the land, one (Multi)Polygon per country, with its name
  coastline  the arcs on one country only: the edge of the land
  borders    the arcs two countries share

The cuts Natural Earth makes along the antimeridian and at the south pole are neither coast nor
border and are left out of both line objects. The output is deterministic: the same source and
options make the same bytes.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

OUTPUT = Path(__file__).resolve().parents[1] / "viewer" / "static" / "basemap" / "countries-50m.topo.json"

# Prints "F<TAB>name" for each country, then "R<TAB>hole<TAB>x y x y ..." for each of its rings.
R_DUMP = r"""
suppressMessages(library(sp))
data("countries50", package = "rnaturalearthdata")
for (i in seq_along(countries50@polygons)) {
  cat("F\t", as.character(countries50@data$name[i]), "\n", sep = "")
  for (ring in countries50@polygons[[i]]@Polygons) {
    xy <- ring@coords
    cat("R\t", as.integer(ring@hole), "\t", paste(sprintf("%.10g %.10g", xy[, 1], xy[, 2]), collapse = " "),
        "\n", sep = "")
  }
}
"""

Point = tuple[float, float]
Ring = list[Point]


def read_countries() -> list[tuple[str, list[tuple[bool, Ring]]]]:
    """[(name, [(hole, ring)...])...] from the R package, rings closed (first point == last)."""
    text = subprocess.run(["Rscript", "--vanilla", "-e", R_DUMP], check=True, capture_output=True,
                          text=True, encoding="utf-8").stdout
    return parse_dump(text)


def parse_dump(text: str) -> list[tuple[str, list[tuple[bool, Ring]]]]:
    countries: list[tuple[str, list[tuple[bool, Ring]]]] = []
    for line in text.splitlines():
        kind, _, rest = line.partition("\t")
        if kind == "F":
            countries.append((rest, []))
        elif kind == "R":
            hole, _, numbers = rest.partition("\t")
            values = [float(v) for v in numbers.split()]
            countries[-1][1].append((hole == "1", list(zip(values[0::2], values[1::2]))))
    return countries


def _cut(point: Point) -> bool:
    """A point on Natural Earth's cuts: the antimeridian, the south pole's edge."""
    return abs(point[0]) >= 180 or point[1] <= -89.99


def _open(ring: Ring) -> Ring:
    """The ring without its closing point and without repeated points."""
    points = [p for i, p in enumerate(ring) if i == 0 or p != ring[i - 1]]
    return points[:-1] if len(points) > 1 and points[0] == points[-1] else points


def junctions(rings: list[Ring]) -> set[Point]:
    """Points where arcs must start and end: where rings meet or part (a point seen with other
    neighbours elsewhere), and where the land's edge meets one of Natural Earth's cuts."""
    seen: dict[Point, frozenset] = {}
    found: set[Point] = set()
    for ring in rings:
        n = len(ring)
        for i, point in enumerate(ring):
            neighbours = frozenset((ring[i - 1], ring[(i + 1) % n]))
            if seen.setdefault(point, neighbours) != neighbours:
                found.add(point)
            if _cut(point) and not (_cut(ring[i - 1]) and _cut(ring[(i + 1) % n])):
                found.add(point)
    return found


def split_ring(ring: Ring, stops: set[Point]) -> list[list[Point]]:
    """The ring as arcs from junction to junction; a ring without junctions is one closed arc,
    started at its smallest point so that the same ring gives the same arc wherever it is."""
    at = [i for i, p in enumerate(ring) if p in stops]
    if not at:
        start = ring.index(min(ring))
        rotated = ring[start:] + ring[:start]
        return [rotated + [rotated[0]]]
    rotated = ring[at[0]:] + ring[:at[0]] + [ring[at[0]]]
    arcs, current = [], [rotated[0]]
    for point in rotated[1:]:
        current.append(point)
        if point in stops:
            arcs.append(current)
            current = [point]
    return arcs


def _distance(p: Point, a: Point, b: Point) -> float:
    (x, y), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    if dx == dy == 0:
        return ((x - ax) ** 2 + (y - ay) ** 2) ** 0.5
    t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
    return ((x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2) ** 0.5


def simplify(points: list[Point], tolerance: float) -> list[Point]:
    """Douglas-Peucker, keeping both ends; a closed arc is split at its point farthest from its
    start, and keeps a triangle at least."""
    if points[0] == points[-1] and len(points) > 3:
        far = max(range(len(points)), key=lambda i: _distance(points[i], points[0], points[0]))
        out = _douglas_peucker(points[:far + 1], tolerance) + _douglas_peucker(points[far:], tolerance)[1:]
        if len(out) < 4:
            mid = max((i for i in range(1, len(points) - 1) if i != far),
                      key=lambda i: _distance(points[i], points[0], points[far]))
            out = [points[i] for i in sorted((0, mid, far))] + [points[0]]
        return out
    return _douglas_peucker(points, tolerance)


def _douglas_peucker(points: list[Point], tolerance: float) -> list[Point]:
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        lo, hi = stack.pop()
        best, index = 0.0, -1
        for i in range(lo + 1, hi):
            d = _distance(points[i], points[lo], points[hi])
            if d > best:
                best, index = d, i
        if index >= 0 and best > tolerance:
            keep[index] = True
            stack += [(lo, index), (index, hi)]
    return [p for p, k in zip(points, keep) if k]


def inside(point: Point, ring: list[Point]) -> bool:
    """Whether the point is inside the ring (even-odd)."""
    x, y = point
    result = False
    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            result = not result
    return result


def area(ring: list[Point]) -> float:
    """Absolute area in square degrees (shoelace)."""
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]))) / 2


def build(countries: list[tuple[str, list[tuple[bool, Ring]]]], *, tolerance: float, min_island: float,
          scale: float) -> dict:
    """The TopoJSON topology of the countries (see the module's doc)."""
    rings = [[_open(ring) for _, ring in shapes] for _, shapes in countries]
    stops = junctions([ring for shapes in rings for ring in shapes])
    arcs: list[list[Point]] = []
    index: dict[tuple, int] = {}
    uses: list[int] = []

    def arc_id(points: list[Point]) -> int:
        key = tuple(points)
        if key in index:
            uses[index[key]] += 1
            return index[key]
        back = tuple(reversed(points))
        if back in index:
            uses[index[back]] += 1
            return ~index[back]
        index[key] = len(arcs)
        arcs.append(points)
        uses.append(1)
        return index[key]

    features = []
    for (name, shapes), opened in zip(countries, rings):
        outers = [ring for (hole, _), ring in zip(shapes, opened) if not hole and len(ring) >= 3]
        polygons: list[list[list[int]]] = [[[arc_id(arc) for arc in split_ring(ring, stops)]] for ring in outers]
        for (hole, _), ring in zip(shapes, opened):
            if hole and len(ring) >= 3:  # with the outer ring around it (sp does not say which)
                owner = next((n for n, outer in enumerate(outers) if inside(ring[0], outer)), None)
                if owner is not None:
                    polygons[owner].append([arc_id(arc) for arc in split_ring(ring, stops)])
        features.append((name, polygons, [area(ring) for ring in outers]))

    simplified = [simplify(points, tolerance) for points in arcs]
    # Where two neighbours' copies of a border differ by a vertex the topology sees two arcs, each
    # on one country: drawn as coast. Once simplified onto the grid they are mostly the same arc.
    # (Not within one country: the two sides of a tiny one can fold onto the same segment.)
    owners: list[set[int]] = [set() for _ in arcs]
    for n, (_, polygons, _) in enumerate(features):
        for i in (i for polygon in polygons for ring in polygon for i in ring):
            owners[i if i >= 0 else ~i].add(n)
    same = {i: j for i, j in _same_arcs([_grid(points, scale) for points in simplified]).items()
            if not owners[i] & owners[j if j >= 0 else ~j]}
    for i, j in same.items():
        uses[j if j >= 0 else ~j] += uses[i]

    def resolve(i: int) -> int:
        a = i if i >= 0 else ~i
        if a not in same:
            return i
        return same[a] if i >= 0 else ~same[a]

    features = [(name, [[[resolve(i) for i in ring] for ring in polygon] for polygon in polygons], sizes)
                for name, polygons, sizes in features]

    def small_island(polygon: list[list[int]], size: float) -> bool:
        ids = polygon[0]
        return len(ids) == 1 and uses[ids[0] if ids[0] >= 0 else ~ids[0]] == 1 and size < min_island

    geometries = []
    for name, polygons, sizes in features:
        if not polygons:
            continue
        largest = max(sizes)
        kept = [p for p, size in zip(polygons, sizes) if size == largest or not small_island(p, size)]
        geometry = ({"type": "Polygon", "arcs": kept[0]} if len(kept) == 1
                    else {"type": "MultiPolygon", "arcs": kept})
        geometries.append({**geometry, "properties": {"name": name}})

    used = {abs(i if i >= 0 else ~i) for g in geometries for part in _parts(g) for ring in part for i in ring}
    coastline = [[i] for i in sorted(used) if uses[i] == 1 and not all(_cut(p) for p in arcs[i])]
    borders = [[i] for i in sorted(used) if uses[i] > 1]
    # Renumber: only the arcs kept, in order.
    order = sorted(used)
    new = {old: n for n, old in enumerate(order)}

    def renumber(i: int) -> int:
        return new[i] if i >= 0 else ~new[~i]

    for g in geometries:
        if g["type"] == "Polygon":
            g["arcs"] = [[renumber(i) for i in ring] for ring in g["arcs"]]
        else:
            g["arcs"] = [[[renumber(i) for i in ring] for ring in polygon] for polygon in g["arcs"]]
    return {
        "type": "Topology",
        "transform": {"scale": [scale, scale], "translate": [-180, -90]},
        "objects": {
            "countries": {"type": "GeometryCollection", "geometries": geometries},
            "coastline": {"type": "MultiLineString", "arcs": [[new[i]] for [i] in coastline]},
            "borders": {"type": "MultiLineString", "arcs": [[new[i]] for [i] in borders]},
        },
        "arcs": [_quantize(simplified[i], scale) for i in order],
    }


def _parts(geometry: dict) -> list:
    return [geometry["arcs"]] if geometry["type"] == "Polygon" else geometry["arcs"]


def _grid(points: list[Point], scale: float) -> list[tuple[int, int]]:
    """The arc on a grid of `scale` degrees from (-180, -90), repeats dropped, two points at least."""
    grid = [(round((x + 180) / scale), round((y + 90) / scale)) for x, y in points]
    grid = [p for i, p in enumerate(grid) if i == 0 or p != grid[i - 1]]
    return grid if len(grid) > 1 else grid * 2


def _same_arcs(grids: list[list[tuple[int, int]]]) -> dict[int, int]:
    """{arc: the earlier arc it is the same as (~arc when reversed)}."""
    first: dict[tuple, int] = {}
    same = {}
    for i, grid in enumerate(grids):
        key, back = tuple(grid), tuple(reversed(grid))
        if key in first:
            same[i] = first[key]
        elif back in first:
            same[i] = ~first[back]
        else:
            first[key] = i
    return same


def _quantize(points: list[Point], scale: float) -> list[list[int]]:
    """The arc in TopoJSON's delta encoding on a grid of `scale` degrees."""
    out, (px, py) = [], (0, 0)
    for x, y in _grid(points, scale):
        out.append([x - px, y - py])
        px, py = x, y
    return out


def encode(topology: dict) -> bytes:
    return (json.dumps(topology, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def summary(data: bytes) -> dict:
    """What the README records of the file, and what the tests check it against."""
    topology = json.loads(data)
    objects = topology["objects"]
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data),
            "countries": len(objects["countries"]["geometries"]), "arcs": len(topology["arcs"]),
            "points": sum(len(arc) for arc in topology["arcs"]),
            "coastline arcs": len(objects["coastline"]["arcs"]), "border arcs": len(objects["borders"]["arcs"])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing it")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--tolerance", type=float, default=0.04, help="Douglas-Peucker tolerance, degrees (0.04)")
    parser.add_argument("--min-island", type=float, default=0.05,
                        help="islands smaller than this, in square degrees, are dropped (0.05)")
    parser.add_argument("--scale", type=float, default=0.01, help="the grid coordinates are rounded to (0.01°)")
    args = parser.parse_args(argv)
    data = encode(build(read_countries(), tolerance=args.tolerance, min_island=args.min_island, scale=args.scale))
    if args.check:
        same = args.output.read_bytes() == data
        print(f"{args.output.name}: {'the same' if same else 'DIFFERS from what this makes'}")
        return 0 if same else 1
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_bytes(data)
    for key, value in summary(data).items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
