# SPDX-License-Identifier: MIT
"""`flickr backup DIR --from-export PATH... --fill`: with a key, only what the export lacks is asked for,
with the fewest calls, counted exactly by method: licence names' ids (licenses.getInfo, once), the
friends/family split (getInfo per item, or three filtered listings past GETINFO_MOST items), people the
export names by NSID only (people.getInfo once per person), originals it left out (getSizes, then the
fetch); and a run with nothing missing makes no call (docs/export.md, "Filling with a key")."""
import json
import os
import sqlite3

import pytest

import flickr.backup
from backuptest import client, jpeg, small_account, upload
from flickr_apps.backup.export.fill import GETINFO_MOST
from libtest import running_sandbox

OTHER, THIRD = "35034346050@N01", "48600090482@N01"  # the sandbox's other users (constants.py)


@pytest.fixture(scope="module")
def sandbox(library_path, tmp_path_factory):
    data = tmp_path_factory.mktemp("fill-sandbox")
    with running_sandbox("--data", str(data)) as server:
        yield server, data


def export_of(sandbox, where, items, comments=()):
    """The sandbox account made of `items` ((upload args, store values) each), exported into where/zips:
    ({id: uploaded bytes}, [zip paths], ids in upload order)."""
    from flickr_sandbox.export import write_export
    from flickr_sandbox.store import Store

    server, data = sandbox
    with client(server) as api:
        small_account(api, 0)
        made = {}
        for n, (args, stored) in enumerate(items):
            item = upload(api, jpeg(100 + n), **args)
            made[item] = (jpeg(100 + n), stored)
    store = Store(str(data))
    try:
        for item, (_, stored) in made.items():
            if stored:
                store.run(f"UPDATE photos SET {', '.join(f'{k}=?' for k in stored)} WHERE id=?",
                          (*stored.values(), int(item)))
        ids = list(made)
        for n, (index, author) in enumerate(comments):
            store.run("INSERT INTO comments(id, photo_id, author, datecreate, text) VALUES (?,?,?,?,?)",
                      (f"9000-{n}", int(ids[index]), author, 1700000000 + n, f"comment {n}"))
        names = write_export(store, str(where / "zips"))
    finally:
        store.close()
    return {i: data for i, (data, _) in made.items()}, [where / "zips" / n for n in names], ids


def rows(root):
    with sqlite3.connect(root / ".flickr-backup" / "state.sqlite3") as db:
        return {item: (kind, path) for item, kind, path in db.execute("SELECT item, kind, path FROM files")}


def sidecars(root):
    found = {}
    with sqlite3.connect(root / ".flickr-backup" / "state.sqlite3") as db:
        for item, path in db.execute("SELECT item, path FROM files WHERE kind='json'"):
            found[item] = json.loads((root / path).read_text())
    return found


def stamps(root):
    return {p: p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file() and ".flickr-backup" not in p.parts
            and p.name not in ("index.json", "index.html")}


def test_fill_asks_only_what_the_export_lacks(sandbox, tmp_path):
    # Two CC 4.0 licences (no built-in id), a friends-only and a family-only item ("friend & family" in
    # the export), three comments by two other people (names: NSIDs only), and the middle item's file
    # left out of the zips by the export (the family-only one).
    items = [(dict(title="cc by 4"), dict(license=11)),
             (dict(title="friends", is_public=0, is_friend=1), dict(license=4)),
             (dict(title="family", is_public=0, is_family=1), dict(license=0)),
             (dict(title="commented"), dict(license=4)),
             (dict(title="cc by-sa 4"), dict(license=12))]
    uploaded, zips, ids = export_of(sandbox, tmp_path, items, comments=[(3, OTHER), (3, OTHER), (3, THIRD), (0, OTHER)])
    server, _ = sandbox
    plain = flickr.backup.from_export(tmp_path / "plain", zips)
    print("no key:", plain.summary(), plain.lacking)
    assert plain.api_calls == 0 and [lack["kind"] for lack in plain.lacking] == ["no-file"]
    with client(server) as api:
        first = flickr.backup.from_export(tmp_path / "archive", zips, client=api)
        print("--fill:", first.summary(), first.api_calls_by_method, first.notes, sep="\n")
        assert first.api_calls_by_method == {"flickr.photos.licenses.getInfo": 1, "flickr.photos.getInfo": 2,
                                             "flickr.people.getInfo": 2, "flickr.photos.getSizes": 1}
        assert first.lacking == [] and first.failed == [] and first.fetched == len(items)
        before = stamps(tmp_path / "archive")
        again = flickr.backup.from_export(tmp_path / "archive", zips, client=api)
    print("again:", again.summary(), again.api_calls_by_method)
    assert again.api_calls == 0 and again.lacking == [] and again.fetched == 0 and again.changed == 0
    assert stamps(tmp_path / "archive") == before  # nothing rewritten
    side = sidecars(tmp_path / "archive")
    by_title = {s["title"]: s for s in side.values()}
    assert by_title["cc by 4"]["license"] == {"id": "11", "name": "CC BY 4.0",
                                              "url": "https://creativecommons.org/licenses/by/4.0/"}
    assert by_title["cc by-sa 4"]["license"]["id"] == "12"
    assert by_title["friends"]["visibility"] == {"public": False, "friend": True, "family": False}
    assert by_title["family"]["visibility"] == {"public": False, "friend": False, "family": True}
    assert all("problems" not in s or not any("friend & family" in p for p in s["problems"]) for s in side.values())
    names = sorted((c["author"], c["authorname"]) for c in by_title["commented"]["comments"])
    assert names == [(OTHER, "otheruser"), (OTHER, "otheruser"), (THIRD, "marie")]
    assert by_title["cc by 4"]["comments"] == [{**by_title["cc by 4"]["comments"][0], "authorname": "otheruser"}]
    # The original the export left out, fetched from Flickr: the uploaded bytes, named as the others.
    family = by_title["family"]
    assert family["file"]["size"] == "Original" and family["file"]["bytes"] == len(uploaded[family["id"]])
    kind, path = rows(tmp_path / "archive")[family["id"]]
    media = [p for p in (tmp_path / "archive" / os.path.dirname(path)).iterdir() if p.name == family["file"]["name"]]
    assert [p.read_bytes() for p in media] == [uploaded[family["id"]]]
    # Without the key, the same export leaves each of those out, and says so.
    lacking = sidecars(tmp_path / "plain")
    assert {s["title"]: s["license"]["id"] for s in lacking.values()}["cc by 4"] == ""
    assert {s["title"]: s["visibility"]["family"] for s in lacking.values()}["friends"] is True


def test_past_a_few_items_the_privacy_split_is_three_listings(sandbox, tmp_path):
    """GETINFO_MOST + 2 items of unknown split: three filtered listings (one page each), not a getInfo each."""
    kinds = [dict(is_public=0, is_friend=1), dict(is_public=0, is_family=1), dict(is_public=0, is_friend=1,
                                                                                 is_family=1)]
    items = [(dict(title=f"item {n}", **kinds[n % 3]), dict(license=4)) for n in range(GETINFO_MOST + 2)]
    items.append((dict(title="public"), dict(license=4)))
    _, zips, ids = export_of(sandbox, tmp_path, items)
    server, _ = sandbox
    with client(server) as api:
        report = flickr.backup.from_export(tmp_path / "archive", zips, client=api)
        again = flickr.backup.from_export(tmp_path / "archive", zips, client=api)
    print(report.api_calls_by_method, report.notes, again.api_calls_by_method, sep="\n")
    assert report.api_calls_by_method == {"flickr.people.getPhotos": 3, "flickr.photos.getSizes": 1}
    assert again.api_calls == 0 and report.lacking == again.lacking == []
    side = sidecars(tmp_path / "archive")
    for n, item in enumerate(ids[:-1]):
        want = kinds[n % 3]
        assert side[item]["visibility"] == {"public": False, "friend": bool(want.get("is_friend")),
                                            "family": bool(want.get("is_family"))}, (n, side[item]["visibility"])
    assert side[ids[-1]]["visibility"]["public"] is True


def test_the_cli_fills_with_the_key_and_refuses_fill_alone(sandbox, tmp_path):
    from backuptest import run_cli

    _, zips, _ = export_of(sandbox, tmp_path, [(dict(title=f"item {n}"), dict(license=11)) for n in range(3)])
    server, _ = sandbox
    done = run_cli(server, "backup", str(tmp_path / "archive"), "--from-export", *map(str, zips), "--fill",
                   "--progress", "none")
    print(done.returncode, done.stderr)
    assert done.returncode == 0 and "filled with the key: licence ids of 3 items" in done.stderr
    assert "lacking" not in done.stderr
    alone = run_cli(server, "backup", str(tmp_path / "other"), "--fill")
    print(alone.returncode, alone.stderr)
    assert alone.returncode == 2 and "--fill fills what an export lacks" in alone.stderr
    assert "Traceback" not in alone.stderr and not (tmp_path / "other").exists()


def test_hostile_answers_fill_nothing_and_stop_nothing(sandbox, tmp_path):
    """A Flickr whose people.getInfo gives each name twice (a repeated element) and whose getInfo says
    isfriend="2": no name and no split is taken from them, the run ends as usual, and the item keeps
    its problem (asked again next run)."""
    import re

    from lyingproxy import rewriting

    def rewrite(method, params, body):
        if method == "flickr.people.getInfo":
            body = re.sub(rb"(<username>[^<]*</username>)", rb"\1\1", body)
            body = re.sub(rb"(<realname>[^<]*</realname>)", rb"\1\1", body)
        if method == "flickr.photos.getInfo":
            body = re.sub(rb'isfriend="[01]"', b'isfriend="2"', body)
        return body

    items = [(dict(title="friends", is_public=0, is_friend=1), dict(license=4)),
             (dict(title="commented"), dict(license=4)), (dict(title="third"), dict(license=4))]
    _, zips, _ = export_of(sandbox, tmp_path, items, comments=[(1, OTHER)])
    server, _ = sandbox
    with rewriting(server.url, rewrite) as proxy:
        settings = server.settings
        with flickr.Flickr(settings.api_key, settings.api_secret, base_url=proxy.url, oauth_token=settings.oauth_token,
                           oauth_token_secret=settings.oauth_token_secret) as api:
            report = flickr.backup.from_export(tmp_path / "archive", zips, client=api)
            again = flickr.backup.from_export(tmp_path / "archive", zips, client=api)
    print(report.summary(), report.api_calls_by_method, report.notes, again.api_calls_by_method, sep="\n")
    assert report.ok and report.lacking == [] and report.api_calls_by_method == {
        "flickr.photos.getInfo": 1, "flickr.people.getInfo": 1, "flickr.photos.getSizes": 1}
    side = {s["title"]: s for s in sidecars(tmp_path / "archive").values()}
    assert side["commented"]["comments"][0]["authorname"] == ""  # a name given twice is no name
    assert side["friends"]["visibility"]["family"] is True  # still the export's "both", and said
    assert any("friend & family" in p for p in side["friends"]["problems"])
    assert again.api_calls_by_method == {"flickr.photos.getInfo": 1}  # the split is asked again; the person not
