# SPDX-License-Identifier: MIT
"""Browsing as a user would, in Chromium: top places, a place's photos, maps, a photo."""
from __future__ import annotations

import re

from playwright.sync_api import expect

PARIS = "EsIQUYZXU79_kEA"
TOKYO = "_N2KS.9QUL9SUePA"


def place_photo_rows(sandbox, place_id: str) -> list:
    return sandbox.store.all("SELECT p.*, u.path_alias FROM photos p JOIN users u ON u.nsid = p.owner "
                             "WHERE p.place_id = ? AND p.ispublic = 1 ORDER BY p.dateupload DESC, p.id DESC "
                             "LIMIT 50", (place_id,))


def pins_on_map(page) -> tuple[list[str], int]:
    """The titles of the markers shown on their own, and how many places the map shows in all:
    those markers and the counts of the clusters that group overlapping ones (test_maps.py)."""
    expect(page.locator(".leaflet-marker-pane > *").first).to_be_visible()
    titles = page.locator("img.leaflet-marker-icon").evaluate_all("icons => icons.map((i) => i.title)")
    clustered = sum(int(n) for n in page.locator(".marker-cluster span").all_inner_texts())
    return titles, len(titles) + clustered


def test_top_places_list_then_map_then_a_place(page, viewer, shot):
    page.goto(viewer.url + "/")
    titles = page.locator("#content .list > li .title")
    expect(titles).to_have_text(["Paris", "San Francisco", "Tokyo", "Zürich"])
    expect(page.locator("#content .list > li .subtitle").first).to_have_text("Île-de-France, France")
    shot(page, "list")

    page.get_by_role("button", name="Map").click()
    titles, count = pins_on_map(page)
    assert count == 4 and "Tokyo" in titles  # Paris and Zürich overlap at this zoom: one cluster
    expect(page.locator(".graticule-label span").first).to_be_visible()
    expect(page.locator(".map[data-basemap=drawn]")).to_be_visible()  # the offline background
    expect(page).to_have_url(re.compile(r"/places#map$"))
    page.get_by_title("Tokyo").click()
    expect(page.locator(".leaflet-popup")).to_contain_text("Tokyo")
    expect(page.locator(".leaflet-popup")).to_have_css("opacity", "1")  # faded in
    shot(page, "map")
    page.get_by_role("link", name="Show photos ›").click()
    expect(page).to_have_url(re.compile(re.escape(f"/places/{TOKYO}")))
    expect(page.locator("#heading")).to_have_text("Tokyo")


def test_place_lists_its_fifty_newest_photos_with_title_rules(page, viewer, sandbox, shot):
    rows = place_photo_rows(sandbox, PARIS)
    page.goto(f"{viewer.url}/places/{PARIS}")
    expect(page.locator("#heading")).to_have_text("Paris")
    expect(page.locator("#subheading")).to_have_text("Île-de-France, France")
    items = page.locator("#content .list > li")
    expect(items).to_have_count(len(rows))
    shown = items.locator(".title").all_inner_texts()
    for title, row in zip(shown, rows):
        if row["title"]:
            assert title == row["title"]
        elif row["description"]:
            assert title not in ("", "Unknown")  # the description, as plain text
        else:
            assert title == "Unknown"
    assert "Unknown" in shown
    shot(page, "list")


def test_photos_on_a_map_lead_to_the_photo(page, viewer, sandbox, shot):
    rows = place_photo_rows(sandbox, TOKYO)
    page.goto(f"{viewer.url}/places/{TOKYO}#map")
    shown, count = pins_on_map(page)
    assert count == len(rows)  # those that overlap in clusters (test_maps.py)
    titles = [row["title"] for row in rows]
    chosen = next(row for row in rows if row["title"] and titles.count(row["title"]) == 1 and row["title"] in shown)
    # Reach the chosen one with the keyboard, as Leaflet allows.
    page.locator("img.leaflet-marker-icon").and_(page.get_by_title(chosen["title"], exact=True)).press("Enter")
    popup = page.locator(".leaflet-popup")
    expect(popup).to_contain_text(chosen["title"])
    expect(popup.locator("img")).to_have_js_property("naturalWidth", 75)  # the thumbnail arrives
    expect(popup).to_have_css("opacity", "1")
    shot(page, "callout")
    popup.get_by_role("link", name="View photo ›").click()
    expect(page).to_have_url(re.compile(f"/photos/{chosen['id']}$"))
    expect(page.locator("#photo-title")).to_have_text(chosen["title"])


def test_photo_page_shows_progress_then_the_large_image_with_pan_and_zoom(page, viewer, sandbox, shot):
    row = next(r for r in place_photo_rows(sandbox, PARIS) if r["title"] and r["width"] > r["height"])
    held = []
    page.route("**/api/images/b/**", lambda route: held.append(route))  # held until progress is seen
    page.goto(f"{viewer.url}/photos/{row['id']}")
    expect(page.locator("#photo-title")).to_have_text(row["title"])
    expect(page.get_by_role("progressbar", name="Loading the photo…")).to_be_visible()
    shot(page, "loading")
    held[0].continue_()

    image = page.locator("#photo-image")
    expect(image).to_be_visible()
    expect(image).to_have_js_property("naturalWidth", 1024)  # the "b" size: 1024 px on the longest side
    expect(image).to_have_js_property("naturalHeight", 768)
    expect(page.get_by_role("link", name="Open on Flickr")).to_have_attribute(
        "href", f"https://www.flickr.com/photos/{row['path_alias'] or row['owner']}/{row['id']}/")
    expect(page).to_have_title(f"{row['title']} · Flickr Viewer")
    stage = page.locator("#stage")
    fill = float(stage.get_attribute("data-scale"))
    box = stage.bounding_box()
    assert abs(fill - max(box["width"] / 1024, box["height"] / 768)) < 0.01  # no unused space at first
    shot(page, "photo")

    page.get_by_role("button", name="Zoom in").click()
    expect(stage).to_have_attribute("data-scale", f"{fill * 1.5:.3f}")
    before = image.evaluate("e => e.style.transform")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 120, box["y"] + box["height"] / 2 - 60, steps=4)
    page.mouse.up()
    assert image.evaluate("e => e.style.transform") != before  # panned
    page.get_by_role("button", name="Show the whole photo").click()
    fit = min(box["width"] / 1024, box["height"] / 768)
    expect(stage).to_have_attribute("data-scale", f"{fit:.3f}")
    shot(page, "zoomed-out")


def test_an_unknown_address_shows_a_page_with_the_ways_on(page, viewer, shot):
    response = page.goto(viewer.url + "/no/such/page")
    assert response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("Page not found")
    expect(page.locator("main")).to_contain_text("/no/such/page")
    expect(page.locator(".bar")).to_be_visible()  # the app's own bar, not Flask's bare page
    shot(page, "not-found")
    page.get_by_role("list", name="Where to go").get_by_role("link", name=re.compile("^Top Places")).click()
    expect(page.locator("#content .list > li .title")).to_have_text(["Paris", "San Francisco", "Tokyo", "Zürich"])
