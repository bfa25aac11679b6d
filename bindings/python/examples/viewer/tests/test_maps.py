# SPDX-License-Identifier: MIT
"""Maps in Chromium: the offline basemap (land, coasts, borders) under the pins with only the
viewer's own origin reachable, tiles over it when configured, and overlapping pins in clusters."""
from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import expect
from viewer.app import BASEMAP

VIEWER_DIR = Path(__file__).resolve().parents[1]

ZURICH = (47.3769, 8.5417)  # far from any sea
ATLANTIC = (0.0, -30.0)  # far from any land
NEAR_TOKYO = [(35.6895, 139.6917), (35.6581, 139.7017)]
SAN_FRANCISCO = (37.7793, -122.4193)
BASEMAP_COUNTRIES = len(json.loads((VIEWER_DIR / "viewer" / "static" / BASEMAP).read_bytes())
                        ["objects"]["countries"]["geometries"])
# Makes the basemap's paths findable with document.elementsFromPoint (Leaflet turns their events off).
HIT_TESTABLE = ".leaflet-basemap-pane path { pointer-events: visiblePainted !important; }"


def write_recents(sandbox, data_dir, places: list[tuple[float, float]]) -> list[dict]:
    """Recents of real sandbox photos, placed at `places` (one photo each), newest first."""
    rows = sandbox.store.all("SELECT id, secret, server, title FROM photos WHERE ispublic = 1 AND title != '' "
                             "ORDER BY id LIMIT ?", (len(places),))
    recents = [{"id": r["id"], "secret": r["secret"], "server": r["server"], "title": f"{r['title']} ({n})",
                "latitude": lat, "longitude": lon} for n, (r, (lat, lon)) in enumerate(zip(rows, places))]
    (data_dir / "recents.json").write_text(json.dumps(recents), encoding="utf-8")
    return recents


def only_own_origin(page, viewer) -> list[str]:
    """Aborts every request that is not to the viewer; the list of those aborted."""
    blocked: list[str] = []

    def route(route):
        if route.request.url.startswith(viewer.url + "/"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    page.context.route("**/*", route)
    return blocked


def layers_at(page, x: float, y: float) -> list[str]:
    """The classes of the basemap's paths under a point of the page."""
    return page.evaluate("([x, y]) => document.elementsFromPoint(x, y)"
                         ".filter((e) => e.closest('.leaflet-basemap-pane')).map((e) => e.getAttribute('class'))",
                         [x, y])


def drawn(page, kind: str) -> int:
    """How many of the basemap's paths of a kind are drawn in the view (Leaflet empties the others)."""
    return page.locator(f"path.basemap-{kind}").evaluate_all(
        "paths => paths.filter((p) => p.getAttribute('d') && p.getAttribute('d') !== 'M0 0').length")


def cluster(page, count: int):
    return page.locator(".marker-cluster", has=page.get_by_text(str(count), exact=True))


def test_ten_recents_at_four_places_are_clustered_over_land_and_sea_offline(page, start_viewer, sandbox,
                                                                              tmp_path, shot):
    recents = write_recents(sandbox, tmp_path, [ZURICH] * 6 + NEAR_TOKYO + [SAN_FRANCISCO, ATLANTIC])
    viewer = start_viewer(tmp_path)
    blocked = only_own_origin(page, viewer)
    page.add_init_script(f"document.addEventListener('DOMContentLoaded', () => "
                         f"document.head.append(Object.assign(document.createElement('style'), "
                         f"{{textContent: {json.dumps(HIT_TESTABLE)}}})))")
    page.goto(viewer.url + "/recents#map")
    expect(page.locator(".map[data-basemap=drawn]")).to_be_visible()
    # Every country, three times (the world and a copy on each side), with the lines over them.
    expect(page.locator("path.basemap-land")).to_have_count(3 * BASEMAP_COUNTRIES)
    assert drawn(page, "land") > 150 and drawn(page, "coast") >= 1 and drawn(page, "border") >= 1
    expect(page.locator(".leaflet-control-attribution")).to_contain_text("Natural Earth")
    # Every graticule label inside the map, 180° too (it was cut off at the east edge).
    expect(page.locator(".graticule-label span", has_text="180°")).not_to_have_count(0)
    frame = page.locator(".map").bounding_box()
    for label in page.locator(".graticule-label span").all():
        at = label.bounding_box()
        assert frame["x"] <= at["x"] and at["x"] + at["width"] <= frame["x"] + frame["width"], label.inner_text()
        assert frame["y"] <= at["y"] and at["y"] + at["height"] <= frame["y"] + frame["height"], label.inner_text()

    # 6 at one place and 2 close together: two clusters; San Francisco and the ship: pins.
    expect(cluster(page, 6)).to_be_visible()
    expect(cluster(page, 2)).to_be_visible()
    markers = page.locator("img.leaflet-marker-icon")
    expect(markers).to_have_count(2)
    box = cluster(page, 6).bounding_box()
    assert "basemap-land" in layers_at(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ship = page.get_by_title(recents[-1]["title"], exact=True).bounding_box()
    assert "basemap-land" not in layers_at(page, ship["x"] + 12, ship["y"] + ship["height"] - 1)
    shot(page, "clusters")

    # The six are at the same place: a click spreads them out around it, each one a pin.
    cluster(page, 6).click()
    expect(markers).to_have_count(2 + 6)
    zurich = [r["title"] for r in recents[:6]]
    for title in zurich:
        expect(page.get_by_title(title, exact=True)).to_be_visible()
    expect(page.locator(".leaflet-cluster-anim")).to_have_count(0)  # spread out: a person clicks now
    page.get_by_title(zurich[2], exact=True).click()
    expect(page.locator(".leaflet-popup")).to_contain_text(zurich[2])
    expect(page.locator(".leaflet-popup")).to_have_css("opacity", "1")
    shot(page, "spiderfied")

    # The two near Tokyo are a few km apart: a click zooms in until they stand apart.
    page.locator(".leaflet-popup-close-button").click()
    cluster(page, 2).click()
    for recent in recents[6:8]:
        expect(page.get_by_title(recent["title"], exact=True)).to_be_visible()
    expect(page.locator(".map[data-basemap=drawn]")).to_be_visible()
    assert drawn(page, "coast") >= 1  # Tokyo Bay
    shot(page, "tokyo")
    assert blocked == []  # nothing even tried to leave the machine


def test_tiles_come_over_the_basemap_which_stays_when_they_fail(page, start_viewer, tmp_path, shot):
    viewer = start_viewer(tmp_path, app_options={"tile_url": "https://tiles.invalid/{z}/{x}/{y}.png",
                                                 "tile_attribution": "Example tiles"})
    blocked = only_own_origin(page, viewer)
    page.goto(viewer.url + "/places#map")
    expect(page.locator(".map[data-basemap=drawn]")).to_be_visible()
    expect(page.locator(".leaflet-control-attribution")).to_contain_text("Example tiles")
    expect(page.locator(".leaflet-tile-pane img.leaflet-tile")).not_to_have_count(0)
    assert blocked and all(url.startswith("https://tiles.invalid/") for url in blocked)
    tiles, basemap = (page.locator(f".leaflet-{name}-pane").evaluate("e => Number(getComputedStyle(e).zIndex)")
                      for name in ("tile", "basemap"))
    assert basemap < tiles  # under the tiles: seen only where a tile does not come
    assert drawn(page, "land") > 150
    shot(page, "tiles-blocked")


def test_without_markercluster_the_pins_are_plain_and_a_note_says_so(page, start_viewer, sandbox, tmp_path, shot):
    write_recents(sandbox, tmp_path, [ZURICH] * 3 + [SAN_FRANCISCO])
    viewer = start_viewer(tmp_path)
    page.route("**/leaflet/leaflet.markercluster.js", lambda route: route.fulfill(status=404))
    page.goto(viewer.url + "/recents#map")
    expect(page.locator("img.leaflet-marker-icon")).to_have_count(4)
    expect(page.locator(".marker-cluster")).to_have_count(0)
    expect(page.get_by_role("note")).to_have_text(
        "Overlapping pins are not grouped: install Debian's libjs-leaflet.markercluster package.")
    expect(page.locator(".map[data-basemap=drawn]")).to_be_visible()
    shot(page, "no-markercluster")
