# SPDX-License-Identifier: MIT
"""flickr backup, item by item: odd values from Flickr are dropped field by field and one item's failure
stays that item's (the run goes on to index.html); --verify's findings repaired by the next run;
--comments added to an existing backup; the sidecars' owner, machine tags, CR and dates."""
import json
import re
import shutil
import sqlite3
import subprocess
import sys

import pytest

import flickr
import flickr.backup
from backuptest import client, jpeg, media_files, mp4, run_cli, sidecar, small_account, state_rows, upload
from flickr_apps.backup.fields import check
from flickr_apps.backup.sidecar import Sidecar
from flickr_apps.backup.xmp import xmp_document
from lyingproxy import rewriting

GOOD, ODD = 20, 7
ARABIC_DATE = "٢٠٢٣-٠٥-٠١ ١٢:٠٠:٠٠"  # Arabic-Indic digits: \d and int() take them, a folder name must not


@pytest.fixture
def server(module_sandbox, library_path):
    return module_sandbox


def set_attribute(body: bytes, photo_id: str, name: str, value: str) -> bytes:
    """`name="value"` in the <photo id=photo_id ...> start tag (added when missing)."""
    def start_tag(found: re.Match) -> bytes:
        tag = found.group(0)
        if re.search(rb'\s' + name.encode() + rb'="', tag):
            return re.sub(rb'(\s' + name.encode() + rb'=")[^"]*"', lambda m: m.group(1) + value.encode() + b'"', tag)
        return tag.replace(b"<photo ", b"<photo " + name.encode() + b'="' + value.encode() + b'" ', 1)
    return re.sub(rb'<photo [^>]*\bid="' + photo_id.encode() + rb'"[^>]*>', start_tag, body)


def odd_answers(odd: dict[str, str]):
    """The rewrite of a Flickr whose answers about the `odd` photos ({kind: id}) are hostile."""
    def rewrite(method: str, params: dict, body: bytes) -> bytes:
        if method == "flickr.people.getPhotos":
            body = set_attribute(body, odd["latitude 1e999"], "latitude", "1e999")
            body = set_attribute(body, odd["latitude 1e999"], "longitude", "2.35")
            body = set_attribute(body, odd["latitude nan"], "latitude", "nan")
            body = set_attribute(body, odd["latitude nan"], "longitude", "2.35")
            body = set_attribute(body, odd["date in Arabic digits"], "datetaken", ARABIC_DATE)
            body = set_attribute(body, odd["views in Arabic digits"], "views", "٣")
            body = re.sub(rb'(<photo [^>]*\bid="' + odd["two descriptions"].encode() + rb'"[^>]*>\s*)(<description>)',
                          rb"\1<description>first</description>\2", body)
            body = re.sub(rb'(<photo [^>]*\bid="' + odd["two titles in the listing"].encode() + rb'"[^>]*>)',
                          rb"\1<title>one</title><title>two</title>", body)
        if method == "flickr.photos.getInfo" and params.get("photo_id") == odd["two titles"]:
            body = re.sub(rb"(<title>[^<]*</title>)", rb"\1<title>second</title>", body, count=1)
        if method == "flickr.photos.getInfo" and params.get("photo_id") == odd["date in Arabic digits"]:
            body = re.sub(rb'taken="[^"]*"', b'taken="' + ARABIC_DATE.encode() + b'"', body, count=1)
        return body
    return rewrite


def test_odd_values_are_dropped_field_by_field_and_every_item_is_kept(server, tmp_path):
    """Once: a latitude of 1e999 ended the whole backup (OverflowError), two <description> or two <title>
    a TypeError, every later run at the same item, with no index.html; NaN failed its item on every
    run; a date in Arabic-Indic digits named a folder in them."""
    with client(server) as api:
        items = small_account(api, GOOD + ODD)
    kinds = ["latitude 1e999", "latitude nan", "two descriptions", "two titles", "date in Arabic digits",
             "views in Arabic digits", "two titles in the listing"]
    odd = dict(zip(kinds, sorted(items)[:ODD]))
    with rewriting(server.url, odd_answers(odd)) as proxy:
        api = flickr.Flickr(server.settings.api_key, server.settings.api_secret, base_url=proxy.url,
                            oauth_token=server.settings.oauth_token,
                            oauth_token_secret=server.settings.oauth_token_secret)
        with api:
            report = flickr.backup.run(api, tmp_path / "api", info=True)
        print(report.summary(), report.failed)
        assert report.ok and report.failed == []
        files = media_files(tmp_path / "api")
        assert sorted(files) == sorted(items) and all(files[i].read_bytes() == items[i] for i in items)
        assert (tmp_path / "api" / "index.html").is_file()
        dropped = {i: {d["field"]: d for d in sidecar(files[i]).get("dropped", [])} for i in items}
        print(json.dumps({k: dropped[i] for k, i in odd.items()}, ensure_ascii=False))
        assert sum(1 for i in items if not dropped[i]) == GOOD  # the good ones: nothing dropped
        assert dropped[odd["latitude 1e999"]]["listing.latitude"]["value"] == "1e999"
        assert dropped[odd["latitude 1e999"]]["listing.latitude"]["reason"] == "not a finite number in -90..90"
        assert dropped[odd["latitude nan"]]["listing.latitude"]["value"] == "nan"
        assert sidecar(files[odd["latitude nan"]])["location"] is None
        assert "given 2 times" in dropped[odd["two descriptions"]]["listing.description"]["reason"]
        assert "given 2 times" in dropped[odd["two titles"]]["getInfo.title"]["reason"]
        assert sidecar(files[odd["two titles"]])["title"] == f"Photo {sorted(items).index(odd['two titles'])}"
        arabic = files[odd["date in Arabic digits"]]
        assert {"listing.datetaken", "getInfo.dates.taken"} <= set(dropped[odd["date in Arabic digits"]])
        assert arabic.parent.name == "undated" and sidecar(arabic)["dates"]["taken"] == ""
        assert b"DateCreated" not in arabic.with_name(arabic.name + ".xmp").read_bytes()
        assert dropped[odd["views in Arabic digits"]]["listing.views"]["value"] == "٣"
        assert "given 2 times" in dropped[odd["two titles in the listing"]]["listing.title"]["reason"]
        index = json.loads((tmp_path / "api" / "index.json").read_text())
        assert len(index["items"]) == len(items) and all(i["complete"] for i in index["items"])
        # Nothing Flickr said is lost: the raw listing is in the sidecar as it came.
        assert sidecar(files[odd["latitude 1e999"]])["flickr"]["listing"]["latitude"] == "1e999"

        # The CLI, on a directory of its own: every item done, exit 0.
        cli = run_cli(server, "backup", str(tmp_path / "cli"), "--progress", "none",
                      env_extra={"FLICKR_ENDPOINT": proxy.url})
        print(cli.stderr)
        assert cli.returncode == 0, cli.stderr
        assert "failed" not in cli.stderr and (tmp_path / "cli" / "index.html").is_file()
        assert sorted(media_files(tmp_path / "cli")) == sorted(items)


def test_an_unexpected_error_fails_its_item_alone(server, tmp_path, monkeypatch):
    """Any exception in one item's work (a bug, an answer no check foresaw) fails that item: the others
    are done, index.html written, the item retried and finished by the next run."""
    with client(server) as api:
        items = small_account(api, 6)
        victim = sorted(items)[2]
        build = Sidecar.build

        def broken(listed, *args, **kwargs):
            if listed.get("id") == victim:
                raise RuntimeError("no check foresaw this")
            return build(listed, *args, **kwargs)

        monkeypatch.setattr(Sidecar, "build", staticmethod(broken))
        report = flickr.backup.run(api, tmp_path)
        print(report.summary(), report.failed)
        assert [f["id"] for f in report.failed] == [victim] and not report.ok
        assert report.failed[0]["error"] == "unexpected RuntimeError: no check foresaw this"
        assert report.done == len(items) - 1 and (tmp_path / "index.html").is_file()
        monkeypatch.setattr(Sidecar, "build", staticmethod(build))
        again = flickr.backup.run(api, tmp_path)
    assert again.ok and again.to_do == 1 and again.done == 1
    assert sidecar(media_files(tmp_path)[victim])["id"] == victim


def test_repeated_titles_of_albums_and_the_account_never_stop_the_run(server, tmp_path):
    """Once: an album whose getList entry had two <title> elements, or an account with two <realname>,
    ended the whole run with TypeError (albums.py, index.html) after every item was fetched, on every
    run. Such a title is read as none: the album is named by its id, the index is written."""
    with client(server) as api:
        items = small_account(api, 3)
        album = api.call("flickr.photosets.create", title="Trip", primary_photo_id=sorted(items)[0])["photoset"]["id"]

    def rewrite(method, params, body):
        if method == "flickr.photosets.getList":
            body = re.sub(rb"(<title>[^<]*</title>)", rb"\1<title>again</title>", body)
        if method == "flickr.people.getInfo":
            body = re.sub(rb"(<realname>[^<]*</realname>|<realname\s*/>)", rb"<realname>a</realname><realname>b</realname>",
                          body)
        return body

    with rewriting(server.url, rewrite) as proxy:
        api = flickr.Flickr(server.settings.api_key, server.settings.api_secret, base_url=proxy.url,
                            oauth_token=server.settings.oauth_token,
                            oauth_token_secret=server.settings.oauth_token_secret)
        with api:
            report = flickr.backup.run(api, tmp_path)
    print(report.summary(), report.failed)
    assert report.ok and report.done == len(items)
    assert (tmp_path / "index.html").is_file() and (tmp_path / "albums" / f"{album}_untitled" / "album.json").is_file()
    albums = json.loads((tmp_path / "albums" / "index.json").read_text())["albums"]
    assert album in [a["id"] for a in albums] and all(a["title"] == "" for a in albums)  # the sandbox's, ours


# (value, valid?) per rule: the boundaries, and what Python's own parsers would take.
FIELD_CASES = {
    "latitude": [("48.8566", True), ("-90", True), ("90.0", True), ("0", True), (".5", True), (12.5, True),
                 ("90.0001", False), ("-91", False), ("1e999", False), ("1e2", False), ("nan", False), ("inf", False),
                 ("-Infinity", False), (float("nan"), False), (float("inf"), False), (True, False), ("", False),
                 (" 1", False), ("١٢", False), (["1", "2"], False), ({"_text": "1"}, False), (None, True)],
    "longitude": [("-180", True), ("179.999", True), ("180.5", False), ("1_0", False)],
    "accuracy": [("16", True), ("0", True), ("", True), ("17", False), ("-1", False), ("٣", False), ("1.5", False)],
    "views": [("0", True), (7, True), ("9" * 18, True), ("9" * 19, False), ("-3", False), (False, False)],
    "datetaken": [("2023-05-01 12:00:00", True), ("0000-00-00 00:00:00", True), ("2023-05-01", False),
                  ("٢٠٢٣-٠٥-٠١ ١٢:٠٠:٠٠", False), ("2023-05-01 12:00:00 ", False), (20230501, False)],
    "title": [("a", True), ("", True), ({"_text": "a"}, True), ({}, True), ([{"_text": "a"}, {"_text": "b"}], False),
              (3, False), ({"_text": ["x"]}, False)],
    "id": [("52891000873", True), ("1" * 21, False), ("12a", False), ("١٢", False)],
    "ispublic": [("1", True), (0, True), (True, True), ("2", False), ("yes", False)],
    "media": [("photo", True), ("video", True), ("audio", False)],
}


@pytest.mark.parametrize("field", FIELD_CASES)
def test_each_field_is_checked_on_its_own(field):
    for value, valid in FIELD_CASES[field]:
        listed = {"id": "1", "title": "kept", field: value}
        found = check(listed)
        kept = field in found.listing
        print(f"{field} {value!r}: {'kept' if kept else found.dropped}")
        assert kept == valid, (field, value)  # None: absent, nothing to check
        assert len(found.dropped) == (0 if valid else 1) and all(d["field"] == f"listing.{field}" for d in found.dropped)


def test_getinfo_fields_nested_and_repeated():
    info = {"title": [{"_text": "a"}, {"_text": "b"}], "dates": {"taken": "2023-05-01 12:00:00", "posted": "x"},
            "location": {"latitude": "91", "longitude": "2", "locality": [{"_text": "a"}, {"_text": "b"}]},
            "owner": [{"nsid": "1"}, {"nsid": "2"}], "visibility": {"ispublic": "1"}}
    found = check({"id": "1"}, info)
    print(found.dropped)
    assert sorted(d["field"] for d in found.dropped) == ["getInfo.dates.posted", "getInfo.location.latitude",
                                                         "getInfo.location.locality", "getInfo.owner", "getInfo.title"]
    assert found.info["dates"] == {"taken": "2023-05-01 12:00:00"} and found.info["location"] == {"longitude": "2"}
    assert "owner" not in found.info and found.info["visibility"] == {"ispublic": "1"}
    assert info["title"] == [{"_text": "a"}, {"_text": "b"}]  # the answer itself is left as it came


def test_a_video_still_processing_is_pending_then_fetched(server, tmp_path):
    """Once: a video Flickr was still processing failed every run (exit 1) and cost a getSizes call each.
    Pending now: no call, exit 0; fetched by the first run after Flickr has finished."""
    with client(server) as api:
        items = small_account(api, 2, videos=1)
        video = max(items)

    def processing(method, params, body):
        return set_attribute(body, video, "media_status", "processing") if method == "flickr.people.getPhotos" else body

    with rewriting(server.url, processing) as proxy:
        cli = run_cli(server, "backup", str(tmp_path), "--progress", "json", env_extra={"FLICKR_ENDPOINT": proxy.url})
    print(cli.stderr)
    end = json.loads(cli.stdout.splitlines()[-1])["report"]
    assert cli.returncode == 0, cli.stderr
    assert [p["id"] for p in end["pending"]] == [video] and end["failed"] == [] and end["done"] == 2
    assert "flickr.photos.getSizes" not in end["api_calls_by_method"]
    assert "1 pending (videos Flickr is still processing)" in cli.stderr and f"pending: {video} (Video 0)" in cli.stderr
    assert sorted(media_files(tmp_path)) == sorted(set(items) - {video})
    with client(server) as api:  # Flickr has finished: the listing says ready
        ready = flickr.backup.run(api, tmp_path)
    assert ready.ok and ready.pending == [] and ready.to_do == 1 and ready.fetched == 1
    assert ready.api_calls_by_method["flickr.photos.getSizes"] == 1
    assert media_files(tmp_path)[video].read_bytes() == items[video]


def test_verify_findings_are_repaired_by_the_next_run(server, tmp_path, monkeypatch):
    """Once: --verify found a changed file, and neither a normal run nor --recheck made it again."""
    with client(server) as api:
        items = small_account(api, 4)
        flickr.backup.run(api, tmp_path)
    files = media_files(tmp_path)
    truncated, flipped = sorted(items)[:2]
    with open(files[truncated], "r+b") as f:
        f.truncate(100)
    data = bytearray(files[flipped].read_bytes())
    data[5000] ^= 0xFF  # the same size: only a read of every byte sees it
    files[flipped].write_bytes(bytes(data))
    verified = flickr.backup.verify(tmp_path)
    print(verified)
    assert sorted(verified["changed"]) == sorted(str(files[i].relative_to(tmp_path)) for i in (truncated, flipped))
    assert verified.get("not_recorded") is None
    with client(server) as api:
        report = flickr.backup.run(api, tmp_path)
    print(report.summary())
    assert report.ok and report.fetched == 2
    assert files[truncated].read_bytes() == items[truncated] and files[flipped].read_bytes() == items[flipped]
    assert state_rows(tmp_path, "SELECT count(*) FROM items WHERE error IS NOT NULL OR need != ''") == [(0,)]
    assert run_cli(server, "backup", "--verify", str(tmp_path)).returncode == 0
    # The CLI: exit 1, and says the next run makes it again.
    files[flipped].write_bytes(bytes(data))
    cli = run_cli(server, "backup", "--verify", str(tmp_path))
    print(cli.stderr)
    assert cli.returncode == 1 and "0 missing, 1 changed (recorded: the next backup run makes them again)" in cli.stderr
    # A backup --verify cannot write to (a read-only copy): verified all the same, and it says so.
    verifier = sys.modules["flickr_apps.backup.verify"]

    class ReadOnly(verifier.State):
        def __init__(self, path):
            raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(verifier, "State", ReadOnly)
    found = flickr.backup.verify(tmp_path)
    assert found["changed"] == [str(files[flipped].relative_to(tmp_path))]
    assert found["not_recorded"].startswith("not recorded in the state (attempt to write a readonly database)")


def test_comments_added_to_an_existing_backup_fill_the_items_there(server, tmp_path):
    """Once: --comments (or --info) given to a backup made without it did nothing for its items."""
    with client(server) as api:
        items = small_account(api, 3)
        commented = sorted(items)[1]
        api.call("flickr.photos.comments.addComment", photo_id=commented, comment_text="lovely light")
        flickr.backup.run(api, tmp_path)
        assert sidecar(media_files(tmp_path)[commented])["comments"] is None
        report = flickr.backup.run(api, tmp_path, comments=True)
        print(report.summary(), report.notes, report.api_calls_by_method)
        assert report.ok and report.fetched == 0 and report.sidecars == len(items)
        assert report.api_calls_by_method["flickr.photos.comments.getList"] == len(items)
        assert f"{len(items)} items backed up before are filled with the per-item answers now asked for: " \
               f"{len(items)} calls (1 an item)" in report.notes
        assert [c["text"] for c in sidecar(media_files(tmp_path)[commented])["comments"]] == ["lovely light"]
        assert all(sidecar(p)["comments"] is not None for p in media_files(tmp_path).values())
        # Filled once: the next run with --comments asks nothing per item.
        again = flickr.backup.run(api, tmp_path, comments=True)
    assert again.to_do == 0 and "flickr.photos.comments.getList" not in again.api_calls_by_method


def test_exif_an_owner_hides_is_asked_once(server, tmp_path):
    """--exif added to a backup of an account that hides its EXIF (error 2, final): asked once per item,
    stored as null, and not asked again by every later run."""
    from flickr_sandbox.constants import THIRD_NSID

    with client(server) as api:
        first = flickr.backup.run(api, tmp_path, user=THIRD_NSID)
        filled = flickr.backup.run(api, tmp_path, user=THIRD_NSID, exif=True)
        again = flickr.backup.run(api, tmp_path, user=THIRD_NSID, exif=True)
    print(first.summary(), filled.summary(), filled.api_calls_by_method, again.api_calls_by_method)
    assert first.ok and first.done > 0 and filled.ok
    assert filled.api_calls_by_method["flickr.photos.getExif"] == first.done
    side = sidecar(next(iter(media_files(tmp_path).values())))
    assert side["exif"] is None and "the owner hides EXIF" in side["problems"][0]
    assert again.to_do == 0 and "flickr.photos.getExif" not in again.api_calls_by_method


def test_sidecar_owner_and_machine_tags(server, tmp_path):
    """Once: the owner's username was "" (the listing's ownername is it), and a machine tag was listed
    twice, in the JSON and as an XMP keyword."""
    assert shutil.which("exiftool"), "exiftool is missing: apt install libimage-exiftool-perl"
    with client(server) as api:
        small_account(api, 0)
        item = upload(api, jpeg(1), title="Tagged", tags="plain geo:lat=48.85")
        person = api.call("flickr.people.getInfo", user_id=api.call("flickr.test.login")["user"]["id"])["person"]
        flickr.backup.run(api, tmp_path)
    path = media_files(tmp_path)[item]
    side = sidecar(path)
    print(side["owner"], side["tags"])
    assert side["owner"]["username"] == flickr.text(person["username"]) != ""
    assert side["owner"]["realname"] == flickr.text(person["realname"])
    # The listing's normalised tags (getInfo, with --info, has the raw "geo:lat=48.85" too).
    assert sorted((t["tag"], t["machine_tag"]) for t in side["tags"]) == [("geo:lat=4885", True), ("plain", False)]
    found = exiftool(path.with_name(path.name + ".xmp"))
    assert sorted(found["Subject"]) == ["geo:lat=4885", "plain"]


def exiftool(path) -> dict:
    return json.loads(subprocess.run(["exiftool", "-j", "-XMP:all", str(path)], capture_output=True, text=True,
                                     check=True).stdout)[0]


def test_xmp_keeps_a_carriage_return_and_ascii_dates(tmp_path):
    """Once: a CR in a title was written raw, read back as LF; a date taken in Arabic-Indic digits was
    written as the XMP's dates."""
    assert shutil.which("exiftool"), "exiftool is missing: apt install libimage-exiftool-perl"
    side = {"title": "one\rtwo\r\nthree", "description": "a\rb", "tags": [],
            "dates": {"taken": ARABIC_DATE, "taken_unknown": False}, "license": {}, "location": None}
    path = tmp_path / "x.jpg.xmp"
    path.write_bytes(xmp_document(side))
    found = exiftool(path)
    print(found)
    assert found["Title"] == "one\rtwo\r\nthree" and found["Description"] == "a\rb"
    # An XML parser reads a raw CR as LF (XML 1.0, 2.11): only "&#13;" reads back as CR.
    import xml.etree.ElementTree as ElementTree
    parsed = ElementTree.parse(path).getroot()
    title = parsed.find(".//{http://purl.org/dc/elements/1.1/}title//{http://www.w3.org/1999/02/22-rdf-syntax-ns#}li")
    assert title is not None and title.text == "one\rtwo\r\nthree"
    assert "DateTimeOriginal" not in found and "CreateDate" not in found
