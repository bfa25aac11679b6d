# SPDX-License-Identifier: MIT
"""The viewer's pure rules: place and photo headings, tags, itinerary order, recents."""
from __future__ import annotations

import json

import flickr
import pytest
from viewer import failures
from viewer.photos import Photo, display_tags, photo_heading, tag_index
from viewer.places import Place, place_label, place_name_from_location, sort_places
from viewer.recents import Recents, add_recent
from viewer.vacations import DEFAULT_NAME, UNKNOWN_PLACE, NoSuchVacation, VacationError, Vacations, itinerary
from viewer.values import plain_text


def photo(photo_id: str, title: str = "", description: str = "", tags: str = "", place: str = "") -> Photo:
    return Photo(id=photo_id, secret="abc", server="65535", title=title, description=description,
                 tags=tags, place_name=place)


@pytest.mark.parametrize("name, expected", [
    ("Paris, Île-de-France, France", ("Paris", "Île-de-France, France")),
    ("San Francisco, California, US, United States", ("San Francisco", "California, United States")),
    ("California, US, United States", ("California", "United States")),
    ("London, England, UK, United Kingdom", ("London", "England, United Kingdom")),
    ("Brooklyn, NY, United States", ("Brooklyn", "NY, United States")),  # a region's abbreviation stays
    ("Zürich, Zürich, Switzerland", ("Zürich", "Zürich, Switzerland")),
    ("France", ("France", "")),
    ("  Tokyo ,Japan ", ("Tokyo", "Japan")),
    ("Tokyo,, Japan", ("Tokyo", "Japan")),
    ("", ("", "")),
])
def test_place_title_is_the_most_detailed_part(name, expected):
    assert place_label(name) == expected
    assert str(place_label(name)) == ", ".join(part for part in expected if part)


def test_a_place_reads_the_same_from_its_full_name_and_from_a_photos_location():
    location = {"locality": {"_text": "San Francisco"}, "region": {"_text": "California"},
                "country": {"_text": "United States"}}
    top_place = Place(id="7.MJR8tTVrIO1EgB", name="San Francisco, California, US, United States")
    assert place_label(place_name_from_location(location)) == (top_place.title, top_place.subtitle) == \
        ("San Francisco", "California, United States")


def test_places_sort_alphabetically_ignoring_case():
    names = ["Zürich, Switzerland", "paris, France", "Amsterdam, Netherlands", "Tokyo, Japan"]
    places = sort_places([Place(id=str(i), name=n) for i, n in enumerate(names)])
    assert [p.title for p in places] == ["Amsterdam", "paris", "Tokyo", "Zürich"]


def test_place_from_top_places_entry():
    place = Place.from_flickr({"place_id": "p1", "latitude": "48.857", "longitude": "2.341",
                               "_text": "Paris, Île-de-France, France"})
    assert (place.title, place.subtitle, place.latitude, place.longitude) == \
        ("Paris", "Île-de-France, France", 48.857, 2.341)


def test_place_name_from_get_info_location():
    location = {"locality": {"_text": "Paris"}, "neighbourhood": {}, "region": {"_text": "Île-de-France"},
                "country": {"_text": "France"}}
    assert place_name_from_location(location) == "Paris, Île-de-France, France"
    assert place_name_from_location({"country": {"_text": "Japan"}}) == "Japan"
    assert place_name_from_location(None) == ""


@pytest.mark.parametrize("title, description, expected", [
    ("Sunset", "Taken at dusk", ("Sunset", "Taken at dusk")),
    ("", "Taken at dusk", ("Taken at dusk", "")),
    ("   ", "", ("Unknown", "")),
    ("", "  ", ("Unknown", "")),
    ("Sunset", "", ("Sunset", "")),
])
def test_photo_title_falls_back_to_description_then_unknown(title, description, expected):
    assert photo_heading(title, description) == expected


def test_descriptions_are_shown_as_plain_text():
    assert plain_text('A <a href="https://example.com/">link</a> &amp; more\n<b>bold</b>') == "A link & more bold"


def test_photo_from_search_without_location_and_page_url():
    found = Photo.from_search({"id": "1", "secret": "s", "server": "1", "owner": "12@N00", "pathalias": "",
                               "title": "", "description": {"_text": "Desc"}, "latitude": "0",
                               "longitude": "0", "accuracy": "0", "tags": "a b"})
    assert not found.has_location and found.heading == ("Desc", "")
    assert found.page_url == "https://www.flickr.com/photos/12@N00/1/"
    aliased = Photo.from_search({"id": "2", "secret": "s", "server": "1", "owner": "12@N00", "pathalias": "me",
                                 "title": "T", "latitude": "48.8", "longitude": "2.3", "accuracy": "16"})
    assert aliased.has_location and aliased.page_url == "https://www.flickr.com/photos/me/2/"


def test_tags_are_capitalised_and_machine_tags_dropped():
    assert display_tags("sunset zürich camera:make=canon 写真 sunset geo:lat=1") == ["Sunset", "Zürich", "写真"]
    assert display_tags("") == []


def test_tags_most_frequent_first_each_with_its_photos():
    photos = [photo("1", tags="sea sun"), photo("2", tags="sun cat"), photo("3", tags="sun sea dc:type=image"),
              photo("4", tags="apple")]
    index = tag_index(photos)
    assert [(tag, [p.id for p in members]) for tag, members in index] == [
        ("Sun", ["1", "2", "3"]), ("Sea", ["1", "3"]), ("Apple", ["4"]), ("Cat", ["2"])]


def test_itinerary_lists_places_first_visited_first():
    visits = [photo("1", place="Tokyo, Japan"), photo("2", place="Paris, France"), photo("3", place="Tokyo, Japan"),
              photo("4"), photo("5", place="Paris, France")]
    assert [(place, [p.id for p in members]) for place, members in itinerary(visits)] == [
        ("Tokyo, Japan", ["1", "3"]), ("Paris, France", ["2", "5"]), (UNKNOWN_PLACE, ["4"])]


def test_recents_newest_first_without_duplicates_at_most_twenty():
    recents: list[Photo] = []
    for i in range(25):
        recents = add_recent(recents, photo(str(i)))
    assert [p.id for p in recents] == [str(i) for i in range(24, 4, -1)]
    recents = add_recent(recents, photo("10", title="seen again"))
    assert [p.id for p in recents][:3] == ["10", "24", "23"] and len(recents) == 20
    assert [p.id for p in recents].count("10") == 1 and recents[0].title == "seen again"


def test_recents_persist_in_a_file(tmp_path):
    store = Recents(tmp_path / "recents.json")
    assert store.list() == []
    store.add(photo("1", title="One"))
    store.add(photo("2", title="Two"))
    again = Recents(tmp_path / "recents.json")
    assert [(p.id, p.title) for p in again.list()] == [("2", "Two"), ("1", "One")]
    (tmp_path / "recents.json").write_text(json.dumps([{"id": "x"}, "junk", {"nope": 1}]))
    assert again.list() == []  # entries it cannot read are skipped, never fatal
    (tmp_path / "recents.json").write_text("{broken")
    assert again.list() == []


def test_vacations_are_files_with_a_current_one(tmp_path):
    vacations = Vacations(tmp_path / "vacations")
    assert vacations.names() == [] and vacations.current_name() == DEFAULT_NAME
    first = vacations.current()  # created on first use
    assert vacations.names() == [DEFAULT_NAME] and (tmp_path / "vacations" / "My Vacation.sqlite3").is_file()
    first.visit(photo("1", place="Tokyo, Japan", tags="sun"))
    first.visit(photo("2", place="Paris, France"))
    first.visit(photo("1", title="again"))  # a second visit keeps the first
    assert [p.id for p in first.photos()] == ["1", "2"] and first.photos()[0].place_name == "Tokyo, Japan"
    first.unvisit("1")
    first.visit(photo("1", place="Tokyo, Japan"))  # visited anew: now last
    assert [p.id for p in first.photos()] == ["2", "1"] and first.contains("1")

    japan = vacations.create("Japan 2024")
    vacations.choose("Japan 2024")
    assert vacations.current().name == "Japan 2024" and vacations.names() == ["Japan 2024", DEFAULT_NAME]
    assert japan.photos() == [] and Vacations(tmp_path / "vacations").current_name() == "Japan 2024"


def test_the_viewers_files_are_never_written_through_a_link(tmp_path):
    """A link planted at .current or recents.json: replaced by the viewer's file, its target kept."""
    precious = tmp_path / "precious"
    precious.write_text("keep me")
    vacations = Vacations(tmp_path / "vacations")
    vacations.create("Rome")
    (tmp_path / "vacations" / ".current").symlink_to(precious)
    (tmp_path / "recents.json").symlink_to(precious)
    vacations.choose("Rome")
    Recents(tmp_path / "recents.json").add(photo("1"))
    assert precious.read_text() == "keep me"
    assert not (tmp_path / "vacations" / ".current").is_symlink() and vacations.current_name() == "Rome"
    assert not (tmp_path / "recents.json").is_symlink() and [p.id for p in Recents(tmp_path / "recents.json").list()] == ["1"]
    assert sorted(p.name for p in (tmp_path / "vacations").iterdir()) == [".current", "Rome.sqlite3"]  # no temp left


@pytest.mark.parametrize("name", ["", " ", ".hidden", "a/b", "../up", "x" * 61, "tab\tname"])
def test_vacation_names_that_cannot_be_files_are_refused(tmp_path, name):
    with pytest.raises(VacationError):
        Vacations(tmp_path).create(name)


def test_deleting_a_vacation_and_the_current_one(tmp_path):
    vacations = Vacations(tmp_path / "vacations")
    vacations.create("Japan 2024").visit(photo("1"))
    vacations.create("Rome")
    vacations.choose("Japan 2024")
    assert vacations.get("Japan 2024").count() == 1 and vacations.get("Rome").count() == 0
    vacations.delete("Rome")  # not the current one: the current one stays
    assert vacations.names() == ["Japan 2024"] and vacations.current_name() == "Japan 2024"
    vacations.delete("Japan 2024")  # the current one: "My Vacation" again, created on first use
    assert vacations.names() == [] and vacations.current_name() == DEFAULT_NAME
    assert not (tmp_path / "vacations" / ".current").exists()
    with pytest.raises(NoSuchVacation):
        vacations.delete("Japan 2024")
    with pytest.raises(VacationError):
        vacations.delete("../up")


def test_unknown_vacation(tmp_path):
    with pytest.raises(NoSuchVacation):
        Vacations(tmp_path).get("Nowhere")
    with pytest.raises(NoSuchVacation):
        Vacations(tmp_path).choose("Nowhere")


def flickr_error(kind: type, api_code: int = 0, http_status: int = 0) -> flickr.FlickrError:
    return kind(-1, "message", api_code, http_status)


@pytest.mark.parametrize("error, transient", [
    (flickr_error(flickr.NetworkError), True),
    (flickr_error(flickr.Timeout), True),
    (flickr_error(flickr.TLSError), True),
    (flickr_error(flickr.ParseError), True),  # a cut or mangled answer
    (flickr_error(flickr.APIError, api_code=105), True),  # Service currently unavailable
    (flickr_error(flickr.APIError, api_code=106), True),  # Write operation failed (temporary)
    (flickr_error(flickr.HTTPError, http_status=502), True),
    (flickr_error(flickr.HTTPError, http_status=503), True),
    (flickr_error(flickr.HTTPError, http_status=429), True),
    (flickr_error(flickr.APIError, api_code=1), False),  # not found
    (flickr_error(flickr.APIError, api_code=2), False),
    (flickr_error(flickr.APIError, api_code=100), False),  # invalid API key
    (flickr_error(flickr.HTTPError, http_status=404), False),
    (flickr_error(flickr.HTTPError, http_status=403), False),
    (flickr_error(flickr.InvalidArgument), False),
    (flickr_error(flickr.TooBig), False),
])
def test_failures_are_transient_or_permanent(error, transient):
    failure = failures.of_flickr(error)
    assert failures.is_transient(error) is transient and failure.transient is transient
    assert failure.json() == {"error": failures.describe(error), "transient": transient}
    assert failure.status == (504 if isinstance(error, flickr.Timeout) else 503 if transient else 502)


def test_the_viewers_own_failures_and_missing_things():
    assert failures.of_status("No such photo.", 404).json() == {"error": "No such photo.", "transient": False}
    assert failures.of_status("Evicted; try again.", 503).transient
    missing = failures.Missing("Unknown place", "Flickr knows no place “x”.").failure
    assert (missing.status, missing.json()) == (
        404, {"error": "Flickr knows no place “x”.", "transient": False, "heading": "Unknown place"})
