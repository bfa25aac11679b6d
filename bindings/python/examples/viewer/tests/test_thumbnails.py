# SPDX-License-Identifier: MIT
"""Thumbnails on the lists, in Chromium: on every list of photos, decoded, loaded lazily, through the
library's bounded photo cache, in boxes that do not move, and a placeholder where one fails."""
from __future__ import annotations

import dataclasses
import re

from playwright.sync_api import expect
from viewer.recents import Recents
from viewer.vacations import Vacations

PARIS = "EsIQUYZXU79_kEA"
TOKYO = "_N2KS.9QUL9SUePA"


def titled_photos(sandbox, place_id: str, count: int) -> list:
    return sandbox.store.all("SELECT id, title FROM photos p WHERE place_id = ? AND ispublic = 1 AND title != '' "
                             "AND EXISTS (SELECT 1 FROM tags t WHERE t.photo_id = p.id AND t.tag NOT LIKE '%:%') "
                             "ORDER BY id LIMIT ?", (place_id, count))


def place_photos(sandbox, place_id: str) -> list:
    return sandbox.store.all("SELECT id FROM photos WHERE place_id = ? AND ispublic = 1 LIMIT 50", (place_id,))


def remember(viewer, photos: list, vacation: str | None = None) -> None:
    """Views the photos (recents, the last one first) and visits them in `vacation`, as the photo page
    would: straight through the files the app reads on each request."""
    for row in photos:
        photo = viewer.service.photo(str(row["id"]))
        Recents(viewer.data_dir / "recents.json").add(photo)
        if vacation:
            Vacations(viewer.data_dir / "vacations").create(vacation).visit(photo)


def expect_thumbnails(page, scope: str, count: int) -> None:
    """`count` thumbnails in `scope`, each decoded once scrolled to (they load lazily)."""
    images = page.locator(f"{scope} .thumb img")
    expect(images).to_have_count(count)
    for image in images.all():
        image.scroll_into_view_if_needed()
        expect(image).to_have_js_property("naturalWidth", 75)  # the "s" square at 1 pixel a point
    page.evaluate("scrollTo(0, 0)")


def cached_thumbnails(viewer) -> dict[str, int]:
    """The cache's 75 px squares, by name, with their inodes (a new download is a new file)."""
    return {p.name: p.stat().st_ino for p in (viewer.data_dir / "photo-cache").glob("flickr-cache-*_s.jpg")}


def test_every_photo_list_shows_its_thumbnails(page, start_viewer, sandbox, tmp_path, shot):
    viewer = start_viewer(tmp_path)
    tokyo, paris = titled_photos(sandbox, TOKYO, 3), titled_photos(sandbox, PARIS, 2)
    remember(viewer, tokyo + paris, vacation="Spring")
    Vacations(tmp_path / "vacations").create("Empty")

    page.goto(f"{viewer.url}/places/{PARIS}")
    expect_thumbnails(page, "#content", len(place_photos(sandbox, PARIS)))
    shot(page, "place")

    page.goto(f"{viewer.url}/recents")
    expect(page.locator("#content .list > li .title")).to_have_text([r["title"] for r in reversed(tokyo + paris)])
    expect_thumbnails(page, "#content", 5)
    shot(page, "recents")

    # A vacation stands with its first photo; one with none keeps an empty box, so the rows align.
    page.goto(f"{viewer.url}/vacations")
    expect(page.locator("#content .list > li .title")).to_have_text(["Empty", "Spring"])
    expect(page.locator("#content .list > li").first.locator(".thumb")).to_be_visible()
    expect(page.locator("#content .list > li").first.locator(".thumb img")).to_have_count(0)
    expect_thumbnails(page, "#content .list > li:nth-child(2)", 1)
    expect(page.locator("#content .thumb img")).to_have_attribute("src", re.compile(f"/{tokyo[0]['id']}_"))
    shot(page, "vacations")

    # The itinerary and the tags list their photos with thumbnails; places and tags themselves have none.
    page.goto(f"{viewer.url}/vacations/Spring")
    expect(page.locator("#content .list > li > a .title")).to_have_text(["Tokyo", "Paris"])
    expect(page.locator("#content .list > li > a .thumb")).to_have_count(0)
    expect_thumbnails(page, "#content .sublist", 5)
    shot(page, "itinerary")
    page.get_by_role("tab", name="Tags").click()
    tags = page.locator("#tag-content .list > li")
    expect_thumbnails(page, "#tag-content .sublist", tags.locator(".sublist > li").count())
    shot(page, "tags")

    tags.first.locator("> a").click()  # a tag's photos
    expect(page.locator("#content .list > li")).not_to_have_count(0)
    expect_thumbnails(page, "#content", page.locator("#content .list > li").count())
    page.goto(f"{viewer.url}/vacations/Spring")
    page.get_by_role("link", name="Tokyo").click()  # a place's photos
    expect(page.locator("#heading")).to_have_text("Tokyo")
    expect_thumbnails(page, "#content", 3)
    shot(page, "vacation-place")


def test_thumbnails_load_lazily_through_the_cache(page, start_viewer, sandbox, tmp_path):
    viewer = start_viewer(tmp_path)
    rows = len(place_photos(sandbox, PARIS))
    requested: set[str] = set()
    page.on("request", lambda r: requested.add(r.url) if "/api/images/" in r.url else None)
    page.goto(f"{viewer.url}/places/{PARIS}")
    expect(page.locator("#content .thumb img").first).to_have_js_property("naturalWidth", 75)
    page.wait_for_load_state("networkidle")
    # Only the rows on or near the screen asked for theirs, and each went into the library's cache.
    assert 0 < len(requested) < rows
    assert len(cached_thumbnails(viewer)) == len(requested)
    expect_thumbnails(page, "#content", rows)  # scrolling brings the others
    cached = cached_thumbnails(viewer)
    assert len(cached) == rows

    # With the image host gone and the browser's cache emptied, every thumbnail still comes: from the
    # library's cache, the same files (a download would have put a new one in place).
    viewer.service.api.set_option("photo_endpoint", sandbox.url + "/nowhere")
    page.context.new_cdp_session(page).send("Network.clearBrowserCache")
    page.reload()
    expect_thumbnails(page, "#content", rows)
    assert cached_thumbnails(viewer) == cached


def test_thumbnails_keep_the_cache_within_its_bound(page, start_viewer, sandbox, tmp_path):
    bound = 40_000  # about a dozen 75 px squares: fewer than the list shows
    viewer = start_viewer(tmp_path, cache_max_bytes=bound)
    rows = len(place_photos(sandbox, PARIS))
    page.goto(f"{viewer.url}/places/{PARIS}")
    expect_thumbnails(page, "#content", rows)
    cache = viewer.data_dir / "photo-cache"
    assert sum(p.stat().st_size for p in cache.glob("flickr-cache-*")) <= bound
    assert 0 < len(cached_thumbnails(viewer)) < rows


def test_a_failed_thumbnail_leaves_a_placeholder_and_nothing_moves(page, start_viewer, sandbox, tmp_path, shot):
    viewer = start_viewer(tmp_path)
    photos = titled_photos(sandbox, TOKYO, 4)
    remember(viewer, photos)
    # The newest recent's secret is no longer Flickr's (as after a replace): the image host answers 404.
    recents = Recents(tmp_path / "recents.json")
    newest = recents.list()[0]
    recents.add(dataclasses.replace(newest, secret="0000000000"))
    aborted, garbled = str(photos[2]["id"]), str(photos[1]["id"])  # the second and third rows

    held, answers = [], {}
    release = False

    def route(request_route):
        if not release:
            held.append(request_route)
        elif f"/{aborted}_" in request_route.request.url:
            request_route.abort()  # the network fails
        elif f"/{garbled}_" in request_route.request.url:
            request_route.fulfill(status=200, content_type="image/jpeg", body=b"not a JPEG")
        else:
            request_route.continue_()

    page.route("**/api/images/s/**", route)
    page.on("response", lambda r: answers.__setitem__(r.url.rsplit("/", 1)[1], r.status))
    page.goto(f"{viewer.url}/recents")
    items = page.locator("#content .list > li")
    expect(items).to_have_count(4)
    boxes = [item.bounding_box() for item in items.all()]
    thumbs = items.locator(".thumb")
    assert all(box["width"] == box["height"] == 75 for box in (t.bounding_box() for t in thumbs.all()))
    shot(page, "loading")

    release = True
    for request_route in held:  # requests held until now go the way of later ones
        route(request_route)
    expect(items.nth(3).locator(".thumb img")).to_have_js_property("naturalWidth", 75)
    for failed in range(3):
        expect(items.nth(failed).locator(".thumb img")).to_have_count(0)  # no broken-image icon
    assert answers[f"{newest.id}_0000000000.jpg"] == 404
    assert [t.bounding_box()["width"] for t in thumbs.all()] == [75] * 4
    assert [item.bounding_box() for item in items.all()] == boxes  # the rows did not move
    assert "svg" in thumbs.first.evaluate("e => getComputedStyle(e).backgroundImage")  # the placeholder's picture
    shot(page, "placeholders")


def test_a_dense_screen_gets_the_150_px_square(browser, viewer, sandbox):
    context = browser.new_context(viewport={"width": 800, "height": 600}, device_scale_factor=2)
    try:
        page = context.new_page()
        page.goto(f"{viewer.url}/places/{PARIS}")
        image = page.locator("#content .thumb img").first
        expect(image).to_have_js_property("naturalWidth", 75)  # 150 pixels at 2 a point
        assert "/api/images/q/" in image.evaluate("e => e.currentSrc")
    finally:
        context.close()
