# SPDX-License-Identifier: MIT
"""`flickr backup DIR --from-export PATH...`: the sandbox account's export (python -m flickr_sandbox
--write-export, with the quirks real exports have) made into the same archive as the API backup of the
same account, item by item; what the export lacks reported; hostile zips and JSON held; folders as
well as zips; a second run and a later export adding only what is new (docs/export.md)."""
import hashlib
import json
import os
import pathlib
import re
import shutil
import sqlite3
import struct
import subprocess
import sys
import zipfile

import pytest

import flickr.backup
from backuptest import client
from flickr_apps.backup.export.reader import MAX_JSON, MAX_RATIO, ids_in_name
from flickr_apps.backup.job import taken_time
from libtest import PYTHONPATH, SANDBOX_DIR, running_sandbox

SEED_PHOTOS = "30"  # the default seed's 100 items of the sandbox user and 30 more, a video among them
EXIT_INCOMPLETE = 8


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The sandbox account's export: (folder, [metadata zip, data-download-1.zip, ...])."""
    out = tmp_path_factory.mktemp("export") / "zips"
    subprocess.run([sys.executable, "-m", "flickr_sandbox", "--seed-photos", SEED_PHOTOS, "--write-export", str(out)],
                   check=True, cwd=SANDBOX_DIR, capture_output=True, timeout=600)
    names = sorted(os.listdir(out), key=lambda n: (n.startswith("data-download"), len(n), n))
    return out, names


@pytest.fixture(scope="module")
def from_zips(exported, tmp_path_factory):
    """The archive made from every zip of the export, and its report: made once, copied by the tests that change it."""
    folder, names = exported
    where = tmp_path_factory.mktemp("archive") / "from-zips"
    report = flickr.backup.from_export(where, [folder / n for n in names])
    return where, report


def state(root: pathlib.Path, sql: str, *args):
    with sqlite3.connect(root / ".flickr-backup" / "state.sqlite3") as db:
        return db.execute(sql, args).fetchall()


def paths(root: pathlib.Path) -> dict[tuple[str, str], str]:
    return {(item, kind): path for item, kind, path in state(root, "SELECT item, kind, path FROM files")}


def digests(root: pathlib.Path) -> dict[str, str]:
    return {path: sha for path, sha in state(root, "SELECT path, sha256 FROM files WHERE kind='media'")}


def missing_id(folder: pathlib.Path, names: list[str]) -> str:
    """The item the sandbox's export leaves out of its data zips (docs/export.md)."""
    with zipfile.ZipFile(folder / names[0]) as meta:
        ids = {m[6:-5] for m in meta.namelist() if m.startswith("photo_")}
    for name in names[1:]:
        with zipfile.ZipFile(folder / name) as data:
            for member in data.namelist():
                ids -= {i for i in ids if i in member}
    assert len(ids) == 1, ids
    return ids.pop()


def run_cli(*argv):
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLICKR_")}  # no key, no library
    env["PYTHONPATH"] = PYTHONPATH
    return subprocess.run([sys.executable, "-m", "flickr", "backup", *map(str, argv)], capture_output=True,
                          text=True, env=env, timeout=300)


def test_the_export_makes_the_api_archive(exported, from_zips, tmp_path):
    folder, names = exported
    made, report = from_zips
    absent = missing_id(folder, names)
    print(report.summary())
    assert report.failed == [] and report.api_calls == 0
    assert report.listed == report.new == 130 and report.fetched == 129
    assert [(lack["kind"], lack["id"]) for lack in report.lacking] == [("no-file", absent)]
    assert [p["id"] for p in report.pending] == [absent]
    with running_sandbox("--seed-photos", SEED_PHOTOS) as server:
        with client(server) as api:
            api_report = flickr.backup.run(api, tmp_path / "api", comments=True)
        print("API backup:", api_report.summary())
        # Continued with a key: only what differs is fetched.
        continued = tmp_path / "continued"
        shutil.copytree(made, continued, symlinks=True)
        with client(server) as api:
            later = flickr.backup.run(api, continued)
    print("continued:", later.summary(), later.api_calls_by_method)
    api_dir = tmp_path / "api"
    # The same paths, item by item (the API fetched the one file the export lacks).
    from_api = paths(api_dir)
    from_export = paths(made)
    assert set(from_api) - set(from_export) == {(absent, "media")}
    # ... and the XMP of the item without its file is named after the item, not after a file.
    assert {key for key, path in from_export.items() if from_api[key] != path} == {(absent, "xmp")}
    # The same state rows: names, folders and album folders.
    assert state(made, "SELECT id, folder, base FROM items ORDER BY id") == \
        state(api_dir, "SELECT id, folder, base FROM items ORDER BY id")
    assert state(made, "SELECT id, folder FROM albums WHERE kind='album' ORDER BY id") == \
        state(api_dir, "SELECT id, folder FROM albums WHERE kind='album' ORDER BY id")
    # Galleries (others' photos mostly): listed in index.json, kept there by the API's later runs.
    with zipfile.ZipFile(folder / names[0]) as meta:
        galleries = json.loads(meta.read("galleries.json"))["galleries"]
    index = json.loads((made / "index.json").read_text())
    assert [(g["id"], g["title"], g["items"]) for g in index["galleries"]] == \
        [(g["id"], g["title"], g["photos"]) for g in galleries] and galleries
    # The files: the originals (byte for byte where the API gave the original too), dated.
    originals = {item for item, label in state(api_dir, "SELECT id, size_label FROM items") if label == "Original"}
    compared = 0
    for (item, kind), path in from_export.items():
        if kind == "media" and item in originals:
            assert hashlib.sha256((made / path).read_bytes()).hexdigest() == \
                hashlib.sha256((api_dir / path).read_bytes()).hexdigest(), path
            compared += 1
    assert compared > 80
    # Sidecar fields that both have.
    checked = west = 0
    for (item, kind), path in from_export.items():
        if kind != "json":
            continue
        ours, theirs = json.loads((made / path).read_text()), json.loads((api_dir / path).read_text())
        for field in ("id", "media", "description", "albums"):
            assert ours[field] == theirs[field], (item, field)
        # A photo list's title is an XML attribute: its tab or line feed arrives as a space (XML's
        # attribute normalisation); the export's JSON keeps the character.
        assert re.sub(r"[\t\n\r]", " ", ours["title"]) == theirs["title"], item
        assert ours["owner"]["nsid"] == theirs["owner"]["nsid"]
        assert ours["owner"]["username"] == theirs["owner"]["username"]
        assert ours["dates"]["taken"] == theirs["dates"]["taken"]
        assert ours["dates"]["uploaded"] == theirs["dates"]["uploaded"]
        assert ours["counts"]["views"] == theirs["counts"]["views"]
        assert ours["counts"]["comments"] == theirs["counts"]["comments"]
        if ours["license"]["id"]:
            assert (ours["license"]["id"], ours["license"]["name"]) == \
                (theirs["license"]["id"], theirs["license"]["name"]), item
        if not any("friend & family" in p for p in ours.get("problems", [])):
            assert ours["visibility"] == theirs["visibility"], item
        assert (ours["location"] is None) == (theirs["location"] is None), item
        if ours["location"]:
            for axis in ("latitude", "longitude"):
                assert abs(ours["location"][axis] - theirs["location"][axis]) < 1e-6, (item, axis)
            # The XMP's GPS, its hemisphere included (west and south from the export's signed millionths).
            gps = re.compile(r"<exif:GPSL(?:at|ong)itude>[^<]*</exif:GPSL(?:at|ong)itude>")
            xmp = from_export[(item, "xmp")]
            assert gps.findall((made / xmp).read_text()) == gps.findall((api_dir / from_api[(item, "xmp")]).read_text())
            west += ours["location"]["longitude"] < 0
        assert [(c["id"], c["author"], c["date"], c["text"]) for c in ours["comments"]] == \
            [(c["id"], c["author"], c["date"], c["text"]) for c in theirs["comments"]], item
        raw = [t["raw"] for t in ours["tags"]]
        assert len(raw) == len(theirs["tags"]), item
        if item != absent:
            media = made / from_export[(item, "media")]
            assert media.stat().st_mtime == taken_time(ours["dates"]["taken"]), item
        checked += 1
    assert checked == 130 and west > 0
    # The API run after the export: its listing, and the one file the export lacked.
    assert later.failed == [] and later.fetched == 1, later.summary()
    assert later.api_calls_by_method.get("flickr.photosets.getPhotos", 0) == 0  # albums known from the export
    assert later.api_calls <= 8
    assert paths(continued) == from_api
    assert json.loads((continued / "index.json").read_text())["galleries"] == index["galleries"]
    # Its sidecars now say what only the API knows (the privacy split), and keep the export's comments.
    for (item, kind), path in from_api.items():
        if kind == "json":
            ours, theirs = json.loads((continued / path).read_text()), json.loads((api_dir / path).read_text())
            assert ours["visibility"] == theirs["visibility"] and ours["tags"] == theirs["tags"], item
            assert [c["text"] for c in ours["comments"]] == [c["text"] for c in theirs["comments"]], item


def _extra_zip(path: pathlib.Path, members: dict[str, bytes], method=zipfile.ZIP_DEFLATED) -> pathlib.Path:
    with zipfile.ZipFile(path, "w", method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _item_of(folder: pathlib.Path, zip_name: str, index: int = 0) -> tuple[str, str]:
    """(member, id) of a file in one of the export's data zips."""
    with zipfile.ZipFile(folder / zip_name) as archive:
        member = archive.namelist()[index]
    with zipfile.ZipFile(folder / sorted(os.listdir(folder))[0]) as meta:
        ids = {m[6:-5] for m in meta.namelist() if m.startswith("photo_")}
    found = [i for i in ids_in_name(member) if i in ids]
    assert len(found) == 1, (member, found)
    return member, found[0]


def test_what_the_export_lacks_is_reported(exported, tmp_path):
    folder, names = exported
    absent = missing_id(folder, names)
    _, claimed = _item_of(folder, names[1], 1)
    orphan = _extra_zip(tmp_path / "extra.zip", {"orphan-title_99999999999_o.jpg": b"\xff\xd8 no JSON names me",
                                                  f"another-title_{claimed}_o.jpg": b"\xff\xd8 a second file"})
    result = run_cli(tmp_path / "dir", "--from-export", folder / names[0], folder / names[1], folder / names[3], orphan)
    print(result.stderr[-3000:])
    assert result.returncode == EXIT_INCOMPLETE
    lines = result.stderr.splitlines()
    assert "lacking (zip-not-given): data-download-2.zip was not given (nor its folder)" in lines
    assert any(line.startswith("lacking (no-json): orphan-title_99999999999_o.jpg in ") for line in lines)
    assert any(line.startswith(f"lacking (two-files): {claimed}: 2 files claim item {claimed}") for line in lines)
    assert f"lacking (no-file): {absent}: its photo_<id>.json has no file in the zips given" in lines
    with zipfile.ZipFile(folder / names[2]) as second:
        in_second = len(second.namelist())
    no_file = [line for line in lines if line.startswith("lacking (no-file)")]
    assert len(no_file) == in_second + 2  # the second zip's, the one Flickr left out, the one claimed twice
    # Given the rest (and the left-out file, as a later zip), the archive is complete: exit 0.
    late = _extra_zip(tmp_path / "data-download-4.zip",
                      {f"{absent}_0123456789_o.jpg": b"\xff\xd8\xff\xe0 the last one"})
    result = run_cli(tmp_path / "dir", "--from-export", folder / names[2], late)
    print(result.stderr[-1500:])
    # The file claimed twice is still claimed twice by what this call and the earlier one gave.
    assert result.returncode == EXIT_INCOMPLETE
    assert f"lacking (no-file): {claimed}: its photo_<id>.json has no file in the zips given" in result.stderr
    result = run_cli(tmp_path / "dir", "--from-export", folder / names[1])
    print(result.stderr[-800:])
    assert result.returncode == 0, result.stderr
    assert "lacking" not in result.stderr
    # Another account's archive is refused, nothing written.
    with sqlite3.connect(tmp_path / "dir" / ".flickr-backup" / "state.sqlite3") as db:
        db.execute("UPDATE meta SET value='1@N01' WHERE key='user'")
    result = run_cli(tmp_path / "dir", "--from-export", folder / names[0])
    assert result.returncode == 1
    assert "this directory holds the backup of 1@N01, not of 12037949@N00" in result.stderr
    # --help gives the exit code.
    assert "8 --from-export: the archive is not complete" in " ".join(run_cli("--help").stdout.split())


def _patch_sizes(path: pathlib.Path, member: str, size: int, compressed: int | None = None) -> None:
    """Rewrites `member`'s declared sizes in its local and central headers (a zip that lies)."""
    data = bytearray(path.read_bytes())
    name = member.encode()
    for signature, offset in ((b"PK\x03\x04", 18), (b"PK\x01\x02", 20)):
        at = data.find(signature)
        while at >= 0:
            name_at = at + (30 if signature == b"PK\x03\x04" else 46)
            if data[name_at:name_at + len(name)] == name:
                if compressed is not None:
                    struct.pack_into("<I", data, at + offset, compressed)
                struct.pack_into("<I", data, at + offset + 4, size)
            at = data.find(signature, at + 4)
    path.write_bytes(bytes(data))


def test_hostile_zips_and_json_hold(exported, tmp_path):
    folder, names = exported
    ids = [_item_of(folder, names[3], n)[1] for n in range(4)]  # items of the zip not given: no other file
    hostile = tmp_path / "hostile"
    hostile.mkdir()
    _extra_zip(hostile / "names.zip", {"../../escaped": b"x", f"../../x_{ids[0]}_o.jpg": b"\xff\xd8",
                                       "/etc/absolute.jpg": b"x"})
    with zipfile.ZipFile(hostile / "bomb.zip", "w", zipfile.ZIP_DEFLATED) as bomb, \
            bomb.open(f"bomb_{ids[1]}_o.jpg", "w", force_zip64=True) as entry:
        for _ in range(64):
            entry.write(bytes(1 << 20))  # 64 MiB of zeros: about 64 KB compressed
    # An entry whose bytes outrun its header, and one whose header says 4 GB it does not hold.
    _extra_zip(hostile / "longer.zip", {f"longer_{ids[2]}_o.jpg": b"\xff\xd8" + bytes(range(256)) * 64},
               zipfile.ZIP_STORED)
    _patch_sizes(hostile / "longer.zip", f"longer_{ids[2]}_o.jpg", 100, 100)
    _extra_zip(hostile / "liar.zip", {f"liar_{ids[3]}_o.jpg": b"\xff\xd8" + bytes(1000)}, zipfile.ZIP_STORED)
    _patch_sizes(hostile / "liar.zip", f"liar_{ids[3]}_o.jpg", 0xFFFFFFFE, 0xFFFFFFFE)
    # A directory of entries claiming 4 GB (zipfile would read and parse it whole): refused unread.
    _extra_zip(hostile / "directory.zip", {f"dir_{ids[0]}_o.jpg": b"\xff\xd8"})
    data = bytearray((hostile / "directory.zip").read_bytes())
    struct.pack_into("<I", data, data.rfind(b"PK\x05\x06") + 12, 0xFFFFFFF0)
    (hostile / "directory.zip").write_bytes(bytes(data))
    # JSON: 1 GB (sparse: never stored), declared 1 GB in a zip, nested past any recursion, odd values.
    json_folder = hostile / "json"
    json_folder.mkdir()
    with open(json_folder / "photo_11111111111.json", "wb") as huge:
        huge.truncate(1 << 30)
    _extra_zip(hostile / "declared.zip", {"photo_22222222222.json": b"{}"}, zipfile.ZIP_STORED)
    _patch_sizes(hostile / "declared.zip", "photo_22222222222.json", 1 << 30, 1 << 30)
    (json_folder / "photo_33333333333.json").write_text("[" * 200_000)
    (json_folder / "photo_44444444444.json").write_text(json.dumps(
        {"id": "44444444444", "name": ["twice"], "description": {"x": 1}, "date_taken": "２０２０-01-01 00:00:00",
         "geo": {"latitude": "1e999", "longitude": None}, "license": 7 ** 99, "privacy": "nobody",
         "original": "https://live.staticflickr.com/../../etc/passwd", "tags": [{"tag": "../../x"}, 5],
         "comments": [{"user": 5, "comment": None}, "x"], "count_views": [1]}))
    os.symlink("/etc/passwd", json_folder / "photo_55555555555.json")
    (json_folder / "albums.json").write_text(json.dumps({"albums": [
        {"id": "../../x", "title": "escape", "photos": [ids[0]]}, "not an album",
        {"id": "72157799999999999", "title": "../../etc/passwd", "photos": ["44444444444", "../x", 5]}]}))
    outside_before = sorted(os.listdir(tmp_path))
    target = tmp_path / "dir"
    result = run_cli(target, "--from-export", *(folder / n for n in names[:3]), hostile)
    print(result.stderr[-4000:])
    assert result.returncode == EXIT_INCOMPLETE
    assert sorted(os.listdir(tmp_path)) == sorted(outside_before + ["dir"])
    assert not (tmp_path / "escaped").exists() and not (target.parent.parent / "escaped").exists()
    lines = result.stderr.splitlines()

    def said(*words):
        return any(all(w in line for w in words) for line in lines if line.startswith("lacking"))
    assert said("'../../escaped'", "a name reaching outside its folder")
    assert said(f"'../../x_{ids[0]}_o.jpg'", "a name reaching outside its folder")
    assert said("'/etc/absolute.jpg'", "a name reaching outside its folder")
    assert said("directory.zip: its directory of entries is 4294967280 bytes, more than the")
    assert said(f"(refused): {ids[1]}:", f"more than {MAX_RATIO} to 1", "zip bomb")
    assert said(f"(refused): {ids[2]}:", f"longer_{ids[2]}_o.jpg")
    assert said(f"(refused): {ids[3]}:", f"liar_{ids[3]}_o.jpg")
    assert said("(unreadable-json): 11111111111:", f"more than the {MAX_JSON} read")
    assert said("(unreadable-json): 22222222222:", f"more than the {MAX_JSON} read")
    assert said("(unreadable-json): 33333333333:", "not JSON")
    assert said("photo_55555555555.json", "a link: not followed")
    for item in ids:
        assert f"pending: {item} " in result.stderr
    # Albums: one whose id is no id is reported and left out; a hostile title makes a safe folder.
    assert said("an entry of albums that is none (id '../../x')") and said("(id 'not an album')")
    assert (target / "albums" / "72157799999999999_etc-passwd").is_dir()
    album = json.loads((target / "albums" / "72157799999999999_etc-passwd" / "album.json").read_text())
    assert [i["id"] for i in album["items"]] == ["44444444444", "5"]
    assert said("albums 72157799999999999: 1 member(s) that are no photo id left out ('../x')")
    # The odd values are dropped, one by one, and the item is kept.
    odd = json.loads(next(target.glob("undated/44444444444_*.json")).read_text())
    assert odd["title"] == "" and odd["location"] is None and odd["license"]["id"] == ""
    assert [t["raw"] for t in odd["tags"]] == ["../../x"] and odd["comments"][0]["text"] == ""
    assert len(odd["problems"]) >= 4
    # Every other item is in place; no temporary file is left in the cache.
    media = state(target, "SELECT COUNT(*) FROM files WHERE kind='media'")[0][0]
    with zipfile.ZipFile(folder / names[1]) as first, zipfile.ZipFile(folder / names[2]) as second:
        assert media == len(first.namelist()) + len(second.namelist())
    assert [p for p in target.rglob("*.part")] == []


def test_folders_twice_and_a_later_export(exported, from_zips, tmp_path):
    folder, names = exported
    made, _ = from_zips
    # The zips unpacked into folders (named as the zips): the same archive.
    unpacked = []
    for name in names:
        where = tmp_path / "unpacked" / name.removesuffix(".zip")
        with zipfile.ZipFile(folder / name) as archive:
            archive.extractall(where)
        unpacked.append(where)
    from_folders = tmp_path / "from-folders"
    report = flickr.backup.from_export(from_folders, unpacked + [folder])  # the zips and their folders
    assert report.failed == [] and report.fetched == 129 and len(report.lacking) == 1, report.lacking
    assert report.listed == 130
    assert paths(from_folders) == paths(made) and digests(from_folders) == digests(made)
    # Twice: nothing new, no file rewritten.
    again = tmp_path / "again"
    shutil.copytree(made, again, symlinks=True)
    before = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in again.rglob("*") if p.is_file()
              and ".flickr-backup" not in p.parts and p.name not in ("index.json", "index.html")}
    left = again / ".flickr-backup" / "cache" / ".export-52600000000.0123456789abcdef.part"
    left.write_bytes(b"a copy a killed run left")
    report = flickr.backup.from_export(again, [folder / n for n in names])
    assert (report.new, report.changed, report.fetched) == (0, 0, 0), report.summary()
    assert not left.exists()
    media = {p: v for p, v in before.items() if p.suffix == ".jpg" or p.suffix == ".mp4"}
    assert all((p.stat().st_ino, p.stat().st_mtime_ns) == v for p, v in media.items())
    # A later export with more items adds only those: an earlier one made of the same without 5 items.
    with zipfile.ZipFile(folder / names[0]) as meta:
        dropped = sorted(m for m in meta.namelist() if m.startswith("photo_"))[:5]
        earlier = tmp_path / names[0]
        with zipfile.ZipFile(earlier, "w", zipfile.ZIP_DEFLATED) as out:
            for member in meta.namelist():
                if member not in dropped:
                    out.writestr(member, meta.read(member))
    grown = tmp_path / "grown"
    first = flickr.backup.from_export(grown, [earlier] + [folder / n for n in names[1:]])
    assert first.listed == 125 and sum(lack["kind"] == "no-json" for lack in first.lacking) == 5
    kept = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in grown.rglob("*")
            if p.is_file() and p.suffix in (".jpg", ".mp4")}
    later = flickr.backup.from_export(grown, [folder / n for n in names])
    print(later.summary())
    assert (later.new, later.changed, later.fetched) == (5, 0, 5)
    assert all((p.stat().st_ino, p.stat().st_mtime_ns) == v for p, v in kept.items())
    assert paths(grown) == paths(made)
