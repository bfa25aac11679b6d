# SPDX-License-Identifier: MIT
"""The committed basemap is the file its README describes, and tools/make_basemap.py's topology
is right on shapes small enough to check by hand."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from viewer.app import BASEMAP

VIEWER_DIR = Path(__file__).resolve().parents[1]
DATA = VIEWER_DIR / "viewer" / "static" / BASEMAP
_spec = importlib.util.spec_from_file_location("make_basemap", VIEWER_DIR / "tools" / "make_basemap.py")
make_basemap = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_basemap)


def recorded() -> dict[str, str]:
    """The "- key: value" lines under the README's last heading."""
    readme = (DATA.parent / "README.md").read_text(encoding="utf-8")
    return dict(re.findall(r"^- ([a-z0-9 ]+): (\S+)$", readme.split("\n## ")[-1], re.MULTILINE))


def decoded_arcs(topology: dict) -> list[list[tuple[float, float]]]:
    (kx, ky), (dx, dy) = topology["transform"]["scale"], topology["transform"]["translate"]
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for ax, ay in arc:
            x, y = x + ax, y + ay
            points.append((x * kx + dx, y * ky + dy))
        arcs.append(points)
    return arcs


def test_the_data_file_is_the_one_its_readme_records():
    data = DATA.read_bytes()
    assert {key: str(value) for key, value in make_basemap.summary(data).items()} == recorded()
    assert len(data) < 400_000  # small enough to commit and to load at once


def test_the_data_file_is_a_world_of_countries_with_coasts_and_borders():
    topology = json.loads(DATA.read_bytes())
    arcs = decoded_arcs(topology)
    xs = [x for arc in arcs for x, _ in arc]
    ys = [y for arc in arcs for _, y in arc]
    assert -180 <= min(xs) < -179 and 179 < max(xs) <= 180 and -90 <= min(ys) < -80 and 80 < max(ys) <= 90
    countries = topology["objects"]["countries"]["geometries"]
    names = {g["properties"]["name"] for g in countries}
    assert {"France", "Japan", "Switzerland", "United States", "Australia", "Fiji", "Russia"} <= names
    rings = [ring for g in countries
             for polygon in ([g["arcs"]] if g["type"] == "Polygon" else g["arcs"]) for ring in polygon]
    uses: dict[int, int] = {}
    for ring in rings:
        for i in ring:
            uses[i if i >= 0 else ~i] = uses.get(i if i >= 0 else ~i, 0) + 1
    assert sorted(uses) == list(range(len(arcs)))  # every arc is used, none is missing
    coast = [i for [i] in topology["objects"]["coastline"]["arcs"]]
    borders = [i for [i] in topology["objects"]["borders"]["arcs"]]
    assert all(uses[i] == 1 for i in coast) and all(uses[i] == 2 for i in borders)
    cuts = set(range(len(arcs))) - set(coast) - set(borders)  # the antimeridian's and the pole's
    assert cuts and all(abs(x) == 180 or y == -90 for i in cuts for x, y in arcs[i])


def square(x: float, y: float, size: float = 1.0) -> list[tuple[float, float]]:
    return [(x, y), (x + size, y), (x + size, y + size), (x, y + size), (x, y)]


def test_two_neighbours_share_one_border_arc_and_a_small_island_goes():
    countries = [("West", [(False, square(0, 0))]),
                 ("East", [(False, square(1, 0)), (False, square(5, 5, 0.1))]),  # and a small island
                 ("Isle", [(False, square(8, 8, 0.1))])]  # all it has: kept
    topology = make_basemap.build(countries, tolerance=0.01, min_island=0.05, scale=0.01)
    objects = topology["objects"]
    west, east, isle = objects["countries"]["geometries"]
    assert (west["type"], east["type"], isle["type"]) == ("Polygon", "Polygon", "Polygon")
    assert [g["properties"]["name"] for g in (west, east, isle)] == ["West", "East", "Isle"]
    [border] = [i for [i] in objects["borders"]["arcs"]]
    assert len(objects["coastline"]["arcs"]) == 3  # West's other sides, East's, Isle
    shared = {i if i >= 0 else ~i for i in west["arcs"][0]} & {i if i >= 0 else ~i for i in east["arcs"][0]}
    assert shared == {border}
    assert [(round(x, 2), round(y, 2)) for x, y in decoded_arcs(topology)[border]] in ([(1, 0), (1, 1)],
                                                                                       [(1, 1), (1, 0)])


def test_neighbours_whose_copies_of_a_border_differ_by_a_vertex_still_share_it():
    west = [(0, 0), (1, 0), (1.001, 0.5), (1, 1), (0, 1), (0, 0)]  # a vertex East's copy lacks
    topology = make_basemap.build([("West", [(False, west)]), ("East", [(False, square(1, 0))])],
                                  tolerance=0.01, min_island=0.05, scale=0.01)
    assert len(topology["objects"]["borders"]["arcs"]) == 1
    assert len(topology["objects"]["coastline"]["arcs"]) == 2


def test_an_enclave_is_its_neighbours_hole_and_a_border_and_the_antimeridian_is_no_coast():
    countries = [("Around", [(False, square(0, 0, 4)), (True, square(1, 1, 2))]),
                 ("Enclave", [(False, list(reversed(square(1, 1, 2))))]),
                 ("Far east", [(False, [(179, 0), (180, 0), (180, 1), (179, 1), (179, 0)])])]
    topology = make_basemap.build(countries, tolerance=0.01, min_island=0.05, scale=0.01)
    around, enclave, far_east = topology["objects"]["countries"]["geometries"]
    assert len(around["arcs"]) == 2  # the outer ring and the hole
    [hole_arc] = around["arcs"][1]
    [enclave_arc] = enclave["arcs"][0]
    assert hole_arc in (enclave_arc, ~enclave_arc)  # one arc, stored once
    assert [[hole_arc if hole_arc >= 0 else ~hole_arc]] == topology["objects"]["borders"]["arcs"]
    arcs = decoded_arcs(topology)
    coast = [arcs[i] for [i] in topology["objects"]["coastline"]["arcs"]]
    assert not any(all(x == 180 for x, _ in arc) for arc in coast)  # the cut is not drawn as coast
    assert any(any(x == 179 for x, _ in arc) for arc in coast)


@pytest.mark.parametrize("tolerance, kept", [(0.5, [(0, 0), (4, 0)]), (0.05, [(0, 0), (2, 0.1), (4, 0)]),
                                             (0.001, [(0, 0), (1, 0.01), (2, 0.1), (3, 0), (4, 0)])])
def test_simplify_keeps_the_ends_and_what_stands_out(tolerance, kept):
    assert make_basemap.simplify([(0, 0), (1, 0.01), (2, 0.1), (3, 0), (4, 0)], tolerance) == kept


def test_simplify_leaves_a_closed_ring_a_triangle_at_least():
    ring = square(0, 0, 0.01)
    simplified = make_basemap.simplify(ring, 1.0)
    assert len(simplified) == 4 and simplified[0] == simplified[-1] and len(set(simplified)) == 3
