# SPDX-License-Identifier: MIT
"""Virtual vacations in Chromium: Visit/Unvisit, the itinerary, tags, several vacations."""
from __future__ import annotations

import re

from playwright.sync_api import expect

PARIS = "EsIQUYZXU79_kEA"
TOKYO = "_N2KS.9QUL9SUePA"
SAN_FRANCISCO = "7.MJR8tTVrIO1EgB"


def tagged_photos(sandbox, place_id: str, count: int) -> list:
    return sandbox.store.all(
        "SELECT id, title FROM photos p WHERE place_id = ? AND ispublic = 1 AND title != '' AND "
        "(SELECT COUNT(*) FROM tags t WHERE t.photo_id = p.id) >= 2 ORDER BY id LIMIT ?", (place_id, count))


def expected_tags(sandbox, photo_ids: list) -> list[str]:
    """Independently of the viewer: capitalised clean tags without a colon, most frequent first."""
    counts: dict[str, int] = {}
    for photo_id in photo_ids:
        for tag in {t["tag"] for t in sandbox.store.tags(photo_id) if ":" not in t["tag"]}:
            shown = tag[0].upper() + tag[1:]
            counts[shown] = counts.get(shown, 0) + 1
    return sorted(counts, key=lambda tag: (-counts[tag], tag.casefold()))


def toggle_visit(page, viewer, photo, expect_after: str, vacation: str) -> None:
    page.goto(f"{viewer.url}/photos/{photo['id']}")
    expect(page.locator("#photo-title")).to_have_text(photo["title"])
    page.locator("#visit").click()
    expect(page.locator("#visit")).to_have_text(expect_after)
    expect(page.locator("#visit-vacation")).to_contain_text(vacation)


def test_visits_make_an_itinerary_and_tags(page, start_viewer, sandbox, tmp_path, shot):
    viewer = start_viewer(tmp_path)
    tokyo_1, tokyo_2 = tagged_photos(sandbox, TOKYO, 2)
    [paris] = tagged_photos(sandbox, PARIS, 1)
    for photo in (tokyo_1, paris, tokyo_2):
        toggle_visit(page, viewer, photo, "Unvisit", "in My Vacation")
    shot(page, "visited")
    page.locator("#visit").click()  # and unvisit the last one, then visit it again
    expect(page.locator("#visit")).to_have_text("Visit")
    page.locator("#visit").click()
    expect(page.locator("#visit")).to_have_text("Unvisit")
    assert (tmp_path / "vacations" / "My Vacation.sqlite3").is_file()

    page.get_by_role("link", name="Vacations").click()
    expect(page.locator("#content .list > li .title")).to_have_text(["My Vacation"])
    expect(page.locator("#content .list > li .subtitle")).to_have_text(["3 photos · Current vacation"])
    page.get_by_role("link", name=re.compile("^My Vacation")).click()

    places = page.locator("#content .list > li")
    expect(places.locator("> a .title")).to_have_text(["Tokyo", "Paris"])  # first visited first
    expect(places.first.locator(".sublist .title")).to_have_text([tokyo_1["title"], tokyo_2["title"]])
    shot(page, "itinerary")
    page.get_by_role("button", name="Map").click()
    expect(page.locator("img.leaflet-marker-icon")).to_have_count(2)
    page.get_by_role("button", name="List").click()

    page.get_by_role("tab", name="Tags").click()
    tags = page.locator("#tag-content .list > li > a .title")
    expect(tags).to_have_text(expected_tags(sandbox, [tokyo_1["id"], paris["id"], tokyo_2["id"]]))
    shot(page, "tags")
    expect(page).to_have_url(re.compile(r"/vacations/My%20Vacation/tags$"))  # the tab has its address
    first_tag = tags.first.inner_text()
    tags.first.click()
    expect(page.locator("#heading")).to_have_text(first_tag)
    expect(page.locator("#content .list > li")).not_to_have_count(0)
    page.go_back()  # back to the tags, not to the itinerary
    expect(page.get_by_role("tab", name="Tags")).to_have_attribute("aria-selected", "true")
    expect(tags.first).to_have_text(first_tag)
    page.reload()
    expect(page.get_by_role("tab", name="Tags")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#itinerary")).to_be_hidden()
    expect(tags.first).to_have_text(first_tag)
    shot(page, "tags-after-back-and-reload")
    page.get_by_role("tab", name="Itinerary").click()
    expect(page).to_have_url(re.compile(r"/vacations/My%20Vacation$"))
    page.get_by_role("button", name="Map").click()
    page.get_by_role("tab", name="Tags").click()
    page.get_by_role("tab", name="Itinerary").click()
    expect(page).to_have_url(re.compile(r"/vacations/My%20Vacation#map$"))  # the itinerary's map stays chosen
    page.reload()
    expect(page.locator("img.leaflet-marker-icon")).to_have_count(2)

    places_page = f"{viewer.url}/vacations/My%20Vacation/places/" + "Paris, Île-de-France, France"
    page.goto(places_page)
    expect(page.locator("#heading")).to_have_text("Paris")
    expect(page.locator("#content .list .title")).to_have_text([paris["title"]])


def create_vacation(page, viewer, name: str) -> None:
    page.goto(viewer.url + "/vacations")
    page.get_by_label("New vacation").fill(name)
    page.get_by_role("button", name="Create").click()
    expect(page.locator("#new-vacation-status")).to_have_text(f"“{name}” is now the current vacation.")


def test_several_vacations_and_the_current_one(page, start_viewer, sandbox, tmp_path, shot):
    viewer = start_viewer(tmp_path)
    first, second = tagged_photos(sandbox, TOKYO, 2)
    toggle_visit(page, viewer, first, "Unvisit", "in My Vacation")

    create_vacation(page, viewer, "Japan 2024")
    expect(page.locator("#content .list > li .title")).to_have_text(["Japan 2024", "My Vacation"])
    expect(page.get_by_role("button", name="Make “My Vacation” current")).to_be_visible()
    page.get_by_label("New vacation").fill("../escape")
    page.get_by_role("button", name="Create").click()
    expect(page.locator("#new-vacation-status")).to_contain_text("A vacation name has")
    shot(page, "vacations")

    toggle_visit(page, viewer, second, "Unvisit", "in Japan 2024")
    page.goto(f"{viewer.url}/photos/{first['id']}")  # in My Vacation, not in the current one
    expect(page.locator("#visit")).to_have_text("Visit")
    expect(page.locator("#visit-vacation")).to_have_text("add to Japan 2024")

    page.goto(viewer.url + "/vacations/My%20Vacation")
    expect(page.locator("#content .list .sublist .title")).to_have_text([first["title"]])
    page.get_by_role("button", name="Make current").click()
    expect(page.locator("#vacation-status")).to_contain_text("The current vacation")
    expect(page.get_by_role("button", name="Make current")).to_be_hidden()
    assert sorted(p.name for p in (tmp_path / "vacations").glob("*.sqlite3")) == \
        ["Japan 2024.sqlite3", "My Vacation.sqlite3"]


def test_deleting_a_vacation_asks_first_then_it_is_gone(page, start_viewer, sandbox, tmp_path, shot):
    viewer = start_viewer(tmp_path)
    first, second = tagged_photos(sandbox, TOKYO, 2)
    toggle_visit(page, viewer, first, "Unvisit", "in My Vacation")
    create_vacation(page, viewer, "Japan 2024")
    toggle_visit(page, viewer, second, "Unvisit", "in Japan 2024")

    page.goto(viewer.url + "/vacations/Japan%202024/tags")
    page.get_by_role("button", name="Delete…").click()
    dialog = page.get_by_role("dialog", name="Delete “Japan 2024”?")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Its list of 1 visited photo goes too; the photos stay on Flickr.")
    shot(page, "confirm")
    dialog.get_by_role("button", name="Cancel").click()  # kept
    expect(dialog).to_be_hidden()
    assert (tmp_path / "vacations" / "Japan 2024.sqlite3").is_file()
    page.keyboard.press("Escape")  # nothing open: nothing happens

    page.get_by_role("button", name="Delete…").click()
    dialog.get_by_role("button", name="Delete").click()
    expect(page).to_have_url(viewer.url + "/vacations")  # replaced: Back does not return to it
    expect(page.locator("#vacations-note")).to_have_text("“Japan 2024” was deleted.")
    expect(page.locator("#content .list > li .title")).to_have_text(["My Vacation"])
    expect(page.locator("#content .list > li .subtitle")).to_have_text(["1 photo · Current vacation"])
    shot(page, "deleted")
    assert not (tmp_path / "vacations" / "Japan 2024.sqlite3").exists()
    page.goto(f"{viewer.url}/photos/{second['id']}")  # visited only in the vacation that is gone
    expect(page.locator("#visit-vacation")).to_have_text("add to My Vacation")

    page.goto(viewer.url + "/vacations")  # and from the list, the last one
    page.get_by_role("button", name="Delete “My Vacation”…").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    expect(page.locator("#vacations-note")).to_have_text("“My Vacation” was deleted.")
    expect(page.locator("#content")).to_contain_text("No vacation yet")
    assert list((tmp_path / "vacations").glob("*.sqlite3")) == []


def test_a_place_reads_the_same_everywhere(page, start_viewer, sandbox, tmp_path, shot):
    """Top places (Flickr's "San Francisco, California, US, United States"), the photo page and the
    itinerary (the photo's location: locality, region, country) name it by one rule."""
    viewer = start_viewer(tmp_path)
    page.goto(viewer.url + "/places")
    san_francisco = page.locator("#content .list > li").filter(has_text="San Francisco")
    expect(san_francisco.locator(".subtitle")).to_have_text("California, United States")
    shot(page, "top-places")
    san_francisco.locator("a").click()
    expect(page.locator("#subheading")).to_have_text("California, United States")

    [photo] = tagged_photos(sandbox, SAN_FRANCISCO, 1)
    toggle_visit(page, viewer, photo, "Unvisit", "in My Vacation")
    expect(page.locator("#photo-place")).to_contain_text("San Francisco, California, United States — ")
    shot(page, "photo")
    page.goto(viewer.url + "/vacations/My%20Vacation")
    expect(page.locator("#content .list > li > a .title")).to_have_text(["San Francisco"])
    expect(page.locator("#content .list > li > a .subtitle")).to_have_text(["California, United States"])
    shot(page, "itinerary")
    page.locator("#content .list > li > a").click()
    expect(page.locator("#heading")).to_have_text("San Francisco")
    expect(page.locator("#subheading")).to_have_text("California, United States")
