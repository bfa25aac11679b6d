# SPDX-License-Identifier: MIT
"""--seed-photos N: a deterministic account of N items beside the default seed; search capped at
4,000 results with pages repeating past them; a seeded original served in milliseconds; the
command line's flags."""
from __future__ import annotations

import hashlib
import json
import time

import pytest
from sbclient import Client

from flickr_sandbox import Sandbox, SandboxProcess
from flickr_sandbox import constants as C
from flickr_sandbox.seed_photos import FIRST_ID, SeedMismatch, seed_photos

ITEMS = 4200  # with the user's 100 default photos, more than the search cap


@pytest.fixture(scope="module")
def seeded():
    start = time.perf_counter()
    with Sandbox(seed_photos=ITEMS) as sb:
        print(f"seeded {ITEMS} items in {time.perf_counter() - start:.2f} s")
        yield sb


def digest(sb) -> str:
    rows = sb.store.all("SELECT * FROM photos WHERE id >= ? ORDER BY id", (FIRST_ID,))
    tags = sb.store.all("SELECT * FROM tags WHERE photo_id >= ? ORDER BY photo_id, seq", (FIRST_ID,))
    sets = sb.store.all("SELECT * FROM photoset_photos ORDER BY set_id, position")
    text = repr([tuple(r) for r in rows] + [tuple(t) for t in tags] + [tuple(s) for s in sets])
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_account_holds_the_mix_beside_the_default_seed(seeded):
    store = seeded.store
    count = lambda sql, *args: store.row(sql, args)["n"]  # noqa: E731
    assert count("SELECT COUNT(*) AS n FROM users") == 3
    assert count("SELECT COUNT(*) AS n FROM photos WHERE id < ?", FIRST_ID) == 300  # the default seed, intact
    assert count("SELECT COUNT(*) AS n FROM photos WHERE id >= ? AND owner = ?", FIRST_ID, C.USER_NSID) == ITEMS
    mix = {
        "videos": count("SELECT COUNT(*) AS n FROM photos WHERE media = 'video'"),
        "processing": count("SELECT COUNT(*) AS n FROM photos WHERE media_status = 'processing'"),
        "all rights reserved": count("SELECT COUNT(*) AS n FROM photos WHERE id >= ? AND license = 0", FIRST_ID),
        "licences": count("SELECT COUNT(DISTINCT license) AS n FROM photos WHERE id >= ?", FIRST_ID),
        "geotagged": count("SELECT COUNT(*) AS n FROM photos WHERE id >= ? AND place_id IS NOT NULL", FIRST_ID),
        "machine tags": count("SELECT COUNT(*) AS n FROM tags WHERE photo_id >= ? AND machine_tag = 1", FIRST_ID),
        "untitled": count("SELECT COUNT(*) AS n FROM photos WHERE id >= ? AND title = ''", FIRST_ID),
        "granularities": count("SELECT COUNT(DISTINCT datetakengranularity) AS n FROM photos"),
        "years": count("SELECT COUNT(DISTINCT substr(datetaken, 1, 4)) AS n FROM photos WHERE id >= ?", FIRST_ID),
        "albums": count("SELECT COUNT(*) AS n FROM photosets WHERE owner = ?", C.USER_NSID),
        "in two albums": count("SELECT COUNT(*) AS n FROM (SELECT photo_id FROM photoset_photos"
                               " GROUP BY photo_id HAVING COUNT(*) > 1)"),
        "in no album": count("SELECT COUNT(*) AS n FROM photos WHERE id >= ? AND id NOT IN"
                             " (SELECT photo_id FROM photoset_photos)", FIRST_ID),
        "collections": count("SELECT COUNT(*) AS n FROM collections"),
        "collected albums": count("SELECT COUNT(*) AS n FROM collection_sets"),
    }
    print(mix)
    assert mix["videos"] == ITEMS // 25 and 0 < mix["processing"] < mix["videos"]
    assert 0 < mix["all rights reserved"] < ITEMS and mix["licences"] == 11
    assert min(mix.values()) > 0 and mix["granularities"] == 4 and mix["years"] >= 5
    assert mix["albums"] == 2 + ITEMS // 100 + 1 and mix["collected albums"] == mix["albums"]  # seed_extras'
    extras = {table: count(f"SELECT COUNT(*) AS n FROM {table} WHERE photo_id >= ?", FIRST_ID)
              for table in ("comments", "notes", "exif", "faves")}
    print(extras)
    assert min(extras.values()) > 0
    assert store.owner(C.USER_NSID)["ispro"] == 0  # a free account now
    assert store.owner(C.OTHER_NSID)["ispro"] == 1


def test_hostile_titles_come_back_intact_in_xml_and_json(seeded):
    client = Client(seeded)
    for title in ("Tom & Jerry's <show>", "../../etc/passwd", "RTL \u202eevil\u202c override", "x" * 255):
        photo = seeded.store.one("SELECT id FROM photos WHERE title = ? AND ispublic = 1 LIMIT 1", (title,))
        assert photo is not None, title
        xml = client.rest("flickr.photos.getInfo", photo_id=photo["id"]).ok()
        reply = client.rest("flickr.photos.getInfo", photo_id=photo["id"], format="json", nojsoncallback=1)
        assert xml.find(".//title").text == json.loads(reply.body)["photo"]["title"]["_content"] == title


def test_the_same_n_gives_the_same_account_and_a_data_dir_keeps_its_n(seeded, tmp_path):
    with Sandbox(seed_photos=ITEMS) as again:
        assert digest(again) == digest(seeded)
    with Sandbox(data_dir=str(tmp_path), seed_photos=50) as first:
        kept = digest(first)
    with Sandbox(data_dir=str(tmp_path), seed_photos=50) as reused:  # seeded once: nothing added
        assert digest(reused) == kept and seed_photos(reused.store, 50) == 0
    with pytest.raises(SeedMismatch, match="holds --seed-photos 50, not 60"):
        Sandbox(data_dir=str(tmp_path), seed_photos=60)


def test_search_returns_at_most_4000_results_and_repeats_past_them(seeded):
    client = Client(seeded)

    def page(number: int, per_page: int, method: str = "flickr.photos.search") -> tuple[int, int, list[str]]:
        root = client.rest(method, auth="oauth", user_id=C.USER_NSID, page=number, per_page=per_page).ok()
        photos = root.find("photos")
        return int(photos.get("total")), int(photos.get("pages")), [p.get("id") for p in photos.iter("photo")]

    total, pages, _ = page(1, 500)
    assert (total, pages) == (ITEMS + 100, 9)  # total and pages count every match
    seen = [pid for n in range(1, 9) for pid in page(n, 500)[2]]
    assert len(seen) == len(set(seen)) == 4000
    assert page(9, 500)[2] == page(12, 500)[2] == page(8, 500)[2]  # past the cap: the last page again
    fourteenth = page(14, 300)[2]
    assert len(fourteenth) == 100 and page(15, 300)[2] == fourteenth and fourteenth == seen[3900:]
    # A photostream is no search: every item, on every page.
    streamed = [pid for n in range(1, 10) for pid in page(n, 500, "flickr.people.getPhotos")[2]]
    assert len(set(streamed)) == ITEMS + 100


def test_search_by_licence_takes_a_comma_separated_list(seeded):
    client = Client(seeded)

    def total(**args: str) -> int:
        root = client.rest("flickr.photos.search", auth="oauth", user_id=C.USER_NSID, per_page=1, **args).ok()
        return int(root.find("photos").get("total"))

    counts = {n: seeded.store.row("SELECT COUNT(*) AS n FROM photos WHERE owner=? AND license=?",
                                  (C.USER_NSID, n))["n"] for n in range(17)}
    print("items per licence:", counts)
    assert counts[0] > 0 and counts[4] > 0
    assert total(license="0") == counts[0]
    assert total(license="4,0") == counts[0] + counts[4]
    assert total(license="x, 4") == counts[4]  # a part that is no number is ignored
    assert total(license="") == total() == sum(counts.values())


def test_a_seeded_original_is_served_in_milliseconds(seeded):
    client = Client(seeded)
    photo = seeded.store.one("SELECT * FROM photos WHERE id >= ? AND media = 'photo' AND license != 0"
                             " AND ispublic = 1 AND width = 6000 ORDER BY id DESC LIMIT 1", (FIRST_ID,))
    root = client.rest("flickr.photos.getSizes", photo_id=photo["id"]).ok()
    original = next(s.get("source") for s in root.iter("size") if s.get("label") == "Original")
    start = time.perf_counter()
    reply = client.raw("GET", original[len(seeded.url):])
    first = time.perf_counter() - start
    print(f"first request of a 6000x4000 original: {first * 1000:.1f} ms, {len(reply.body)} bytes")
    assert reply.status == 200 and reply.body[:2] == b"\xff\xd8"
    assert first < 0.5  # tens of milliseconds here; the bound leaves room for a loaded machine


def test_the_command_line_flags():
    with SandboxProcess("--seed-photos", "30", "--budget-per-hour", "2", "--clock-speed", "1") as sb:
        client = Client(sb)
        total = client.rest("flickr.people.getPhotos", auth="oauth", user_id=C.USER_NSID).ok()
        assert int(total.find("photos").get("total")) == 130
        # The OAuth call above counts for the same key (its consumer key): the third is refused.
        assert [client.rest("flickr.test.echo").status for _ in range(2)] == [200, 429]
