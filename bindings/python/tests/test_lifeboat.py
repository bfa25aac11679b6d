# SPDX-License-Identifier: MIT
"""`flickr lifeboat DIR OUT` on sandbox backups, read back by the independent reader
(lifeboat_reader.py, written from docs/lifeboat.md only): the whole archive and an album, the
licence rule on another member's archive, hostile titles, a planted link, kill -9 at fixed
moments then a rerun, and bad arguments."""
import hashlib
import html
import json
import os
import pathlib
import sqlite3
import subprocess
import sys
from typing import NamedTuple

import pytest

import flickr.backup
import flickr_apps.lifeboat
import lifeboat_reader
from backuptest import client, environ_without_flickr, jpeg, media_files, small_account, upload
from flickr_sandbox import pictures
from libtest import running_sandbox

HOSTILE = '<script>alert("x")</script> & </script><img src=x onerror=alert(1)>'
USER_NSID = "12037949@N00"
OTHER_NSID = "35034346050@N01"
THIRD_NSID = "48600090482@N01"
# Another member's photos, by licence id: what the rule does with each (docs/lifeboat.md).
OTHERS = {"0": False, "4": True, "9": True, "14": True, "99": False}


def picture(width: int = 320, height: int = 240) -> bytes:
    """A real JPEG (the sandbox's encoder), a gradient: what the viewer's screenshots show."""
    pixels = bytearray()
    for y in range(height):
        for x in range(width):
            pixels += bytes((40 + x // 3, 90 + y // 3, 160))
    return pictures.jpeg.encode(width, height, bytes(pixels))


def read_back(out: pathlib.Path) -> lifeboat_reader.Lifeboat:
    found = lifeboat_reader.load(str(out))
    counts = {name: len(value) for name, value in found.indexes.items() if name != "lifeboat"}
    print(f"{out.name}: {len(found.photos)} photos, indexes {counts}, problems {len(found.problems)}")
    assert found.problems == [], "\n".join(map(str, found.problems))
    return found


def tree(out: pathlib.Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


class Archives(NamedTuple):
    own: pathlib.Path  # the sandbox user's archive: 5 photos and a video, an album
    album: str
    ids: list[str]
    other: pathlib.Path  # another member's (flickr backup --user), a photo under each licence of OTHERS
    others: dict[str, str]  # licence id -> photo id
    third: pathlib.Path  # a third member's, who lets nobody download: one CC BY photo
    third_id: str


@pytest.fixture(scope="module")
def archives(library_path, tmp_path_factory):
    own_dir = tmp_path_factory.mktemp("own")
    other_dir = tmp_path_factory.mktemp("other")
    third_dir = tmp_path_factory.mktemp("third")
    with running_sandbox() as server, client(server) as api:
        items = small_account(api, 5, videos=1)
        ids = list(items)
        api.call("flickr.photos.setMeta", photo_id=ids[0], title=HOSTILE, description="a <b>bold</b> & line\nnext")
        api.call("flickr.photos.comments.addComment", photo_id=ids[2], comment_text="</script> nice")
        api.replace(picture(), ids[2])  # a JPEG a browser draws: the viewer's large view shows it
        album = api.call("flickr.photosets.create", title="Harbour <i>", primary_photo_id=ids[0])["photoset"]["id"]
        api.call("flickr.photosets.addPhoto", photoset_id=album, photo_id=ids[2])
        with sqlite3.connect(os.path.join(server.settings.data_dir, "sandbox.sqlite3")) as db:
            db.execute("UPDATE photos SET ispublic = 0, isfriend = 1 WHERE id = ?", (ids[1],))
            # CC BY and geotagged: the viewer's licence link and map pin (what the sandbox has no method for).
            db.execute("UPDATE photos SET license = 4, latitude = 50.8, longitude = -1.1, accuracy = 16 WHERE id = ?",
                       (ids[2],))
        report = flickr.backup.run(api, own_dir, info=True, comments=True)
        assert report.ok, report.failed
        # Other members' archives: small uploads handed to them in the sandbox's own store, each under
        # one licence; their seeded photos handed to the sandbox user (whose archive is made), so the
        # backups stay small. The third member lets nobody download (getInfo's usage.candownload 0).
        others = {licence: upload(api, jpeg(100 + n), title=f"other {licence}", tags="shared")
                  for n, licence in enumerate(OTHERS)}
        third_id = upload(api, jpeg(200), title="third")
        with sqlite3.connect(os.path.join(server.settings.data_dir, "sandbox.sqlite3")) as db:
            db.execute("UPDATE photos SET owner = ? WHERE owner IN (?, ?)", (USER_NSID, OTHER_NSID, THIRD_NSID))
            for licence, photo_id in others.items():
                db.execute("UPDATE photos SET owner = ?, license = ? WHERE id = ?", (OTHER_NSID, int(licence), photo_id))
            db.execute("UPDATE photos SET owner = ?, license = 4 WHERE id = ?", (THIRD_NSID, third_id))
            db.execute("UPDATE users SET download = 0 WHERE nsid = ?", (THIRD_NSID,))
        for where, who in ((other_dir, OTHER_NSID), (third_dir, THIRD_NSID)):
            report = flickr.backup.run(api, where, user=who, info=True)
            assert report.ok, report.failed
    yield Archives(own_dir, album, ids, other_dir, others, third_dir, third_id)


def test_the_whole_archive_reads_back(archives, tmp_path):
    own_dir, album, ids = archives.own, archives.album, archives.ids
    readme = tmp_path / "note.txt"
    readme.write_text(f"Kept for the club.\n\n{HOSTILE}\n", encoding="utf-8")
    out = tmp_path / "WHOLE"
    done = run_cli_lifeboat(own_dir, out, "--readme", readme, "--name", f"Club {HOSTILE}")
    print(done.stdout, done.stderr)
    assert done.returncode == 0 and done.stderr == ""
    found = read_back(out)
    # Own photos always go in: All Rights Reserved and private ones included.
    assert sorted(found.photos) == sorted(ids)
    assert found.photos[ids[1]]["visibility"] == "friends only" and found.photos[ids[0]]["licenseId"] == "0"
    assert found.photos[ids[0]]["title"] == HOSTILE
    assert found.photos[ids[2]]["comments"][0]["text"] == "</script> nice"
    assert found.indexes["albumIndex"][album]["photoIds"] == sorted([ids[0], ids[2]], key=ids.index)
    assert found.indexes["tagIndex"]["common"] == 5
    # Media byte for byte, copied (not linked): the archive's file and the Lifeboat's are two files.
    archive_files = media_files(own_dir)
    for photo_id, photo in found.photos.items():
        copy = out / photo["files"]["original"]
        assert copy.read_bytes() == archive_files[photo_id].read_bytes()
        assert copy.stat().st_ino != archive_files[photo_id].stat().st_ino and copy.stat().st_nlink == 1
    # Hostile texts escaped: README.html holds them as text; no metadata file can close a script.
    page = (out / "README.html").read_text("utf-8")
    assert HOSTILE not in page and html.escape(HOSTILE) in page and "<script" not in page
    for path in (out / "metadata").rglob("*.js"):
        assert "</script" not in path.read_text("utf-8").lower(), path
    assert 'data-kind="lifeboat"' in (out / "viewer" / "index.html").read_text("utf-8")
    assert f"Lifeboat {out}: 6 photos (6 yours, 0 of other members)" in done.stdout


def test_an_album_reads_back(archives, tmp_path):
    own_dir, album, ids = archives.own, archives.album, archives.ids
    out = tmp_path / "ALBUM"
    report = flickr_apps.lifeboat.make(own_dir, out, albums=[album])
    found = read_back(out)
    assert sorted(found.photos) == sorted([ids[0], ids[2]]) and report["photos"] == 2
    assert list(found.indexes["albumIndex"]) == [album]
    # A tag and an ids file: the union.
    out = tmp_path / "UNION"
    report = flickr_apps.lifeboat.make(own_dir, out, albums=[album], tags=["TAG4"], ids=[ids[5], "999"])
    assert sorted(read_back(out).photos) == sorted([ids[0], ids[2], ids[4], ids[5]])
    assert report["not_in_archive"] == ["999"]


def test_other_members_photos_follow_their_licence(archives, tmp_path):
    other_dir, others = archives.other, archives.others
    out = tmp_path / "OTHERS"
    done = run_cli_lifeboat(other_dir, out, "--creator", USER_NSID)
    print(done.stdout)
    assert done.returncode == 0, done.stderr
    found = read_back(out)
    allowed = {others[licence] for licence, ok in OTHERS.items() if ok}
    assert set(found.photos) == allowed
    left = {item["id"]: item["why"] for item in found.indexes["lifeboat"]["leftOut"]}
    assert set(left) == set(others.values()) - allowed
    assert "All Rights Reserved" in left[others["0"]] and "does not name (99)" in left[others["99"]]
    for photo_id in left:
        assert f"left out {photo_id}" in done.stdout and photo_id in (out / "README.html").read_text("utf-8")
        assert not any(photo_id in name for name in os.listdir(out / "media" / "originals"))
    # The same archive made by its own account: every photo is theirs, all go in.
    mine = flickr_apps.lifeboat.make(other_dir, tmp_path / "THEIRS")
    assert mine["photos"] == len(others) and mine["left_out"] == []
    # A member who lets nobody download: their CC BY photo stays out, and says why.
    report = flickr_apps.lifeboat.make(archives.third, tmp_path / "THIRD", creator=USER_NSID)
    assert report["photos"] == 0 and [i["id"] for i in report["left_out"]] == [archives.third_id]
    assert "disabled downloads" in report["left_out"][0]["why"], report["left_out"]


def test_a_link_planted_in_the_archive_is_not_followed(archives, tmp_path):
    own_dir, ids = archives.own, archives.ids
    copy = tmp_path / "archive"
    subprocess.run(["cp", "-a", str(own_dir), str(copy)], check=True)
    secret = tmp_path / "secret.jpg"
    secret.write_bytes(b"\xff\xd8\xff\xe0 not for the Lifeboat")
    target = media_files(copy)[ids[3]]
    target.unlink()
    target.symlink_to(secret)
    # A FIFO where another item's sidecar is: never waited on (the run would hang).
    fifo = media_files(copy)[ids[4]].with_suffix(".json")
    fifo.unlink()
    os.mkfifo(fifo)
    out = tmp_path / "LINKED"
    done = run_cli_lifeboat(copy, out)
    print(done.stdout, done.stderr)
    assert done.returncode == 1 and "symbolic link in the archive: not followed" in done.stderr
    assert "a FIFO, not a regular file" in done.stderr and len(done.stderr.splitlines()) == 2
    found = read_back(out)  # the rest is a whole Lifeboat
    assert ids[3] not in found.photos and ids[4] not in found.photos and len(found.photos) == 4
    assert all(b"not for the Lifeboat" not in data for data in tree(out).values())


def test_kill_nine_then_a_rerun_completes_it(archives, tmp_path):
    own_dir = archives.own
    reference = tmp_path / "clean" / "SAME"
    flickr_apps.lifeboat.make(own_dir, reference, name="same")
    expected = tree(reference)
    out = tmp_path / "killed" / "SAME"
    # SIGKILL at a run's Nth fsync, each run going on from the last: a media copy before its rename,
    # between the photo files, amid the indexes; never as far as lifeboat.js (written last).
    killer = ("import os, signal, sys, flickr_apps.lifeboat\n"
              "n = [int(sys.argv[3])]\nreal = os.fsync\n"
              "def fsync(fd):\n    n[0] -= 1\n    if n[0] == 0: os.kill(os.getpid(), signal.SIGKILL)\n    real(fd)\n"
              "os.fsync = fsync\nflickr_apps.lifeboat.make(sys.argv[1], sys.argv[2], name='same')\n")
    kills, stages = 0, []
    for moment in (2, 4, 6, 6, 8, 4, 4):  # each new item: its record line, then its media
        run = subprocess.run([sys.executable, "-c", killer, str(own_dir), str(out), str(moment)],
                             env=environ_without_flickr(), capture_output=True, text=True)
        kills += run.returncode == -9
        files = [str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()]
        stages.append((sum(f.startswith("media/originals/") and ".part" not in f for f in files),
                       sum(f.startswith("metadata/photos/") and ".part" not in f for f in files),
                       sum(f.startswith("metadata/") and f.count("/") == 1 for f in files),
                       sum(".part" in f for f in files)))
    print(f"{kills} runs killed; after each (media, photo files, indexes, temporaries): {stages}")
    assert kills == 7
    assert any(s[3] for s in stages), "no kill left a temporary"
    assert any(0 < s[1] < 6 for s in stages) and any(0 < s[2] < 8 for s in stages), "no kill between metadata files"
    assert not lifeboat_reader.check(str(out)) == []  # killed before lifeboat.js: not yet whole
    report = flickr_apps.lifeboat.make(own_dir, out, name="same")
    read_back(out)
    assert report["kept"] > 0  # files a killed run renamed whole are not copied again
    got = tree(out)
    assert {k for k in got if ".part" in k} == set()
    # The same Lifeboat as a run never killed, but for the date it was made (the first run's).
    for files in (got, expected):
        del files[".flickr-lifeboat"]
        made = lifeboat_reader.parse_js(files.pop("metadata/lifeboat.js").decode(), "lifeboat")
        files["made"] = json.dumps({k: v for k, v in made.items() if k != "dateCreated"}).encode()
        files["README.html"] = files["README.html"].replace(made["dateCreated"].encode(), b"DATE")
    assert got == expected


def test_bad_arguments_exit_with_their_code_and_one_line(archives, tmp_path):
    own_dir = archives.own
    ids = tmp_path / "ids.txt"
    ids.write_text("123\n../etc\n")
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("mine")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cases = [
        ((own_dir, tmp_path / "A", "--album", "72157799999999999"), 2, "has no album"),
        ((own_dir, tmp_path / "B", "--ids", ids), 2, "line 2"),
        ((own_dir, tmp_path / "C", "--ids", tmp_path / "missing.txt"), 2, "--ids"),
        ((own_dir, tmp_path / "D", "--readme", tmp_path / "missing.txt"), 2, "--readme"),
        # A FIFO blocked the open for ever before (the test's timeout), a device is not read.
        ((own_dir, tmp_path / "D2", "--ids", fifo), 2, "--ids"),
        ((own_dir, tmp_path / "D3", "--readme", fifo), 2, "a FIFO, not a regular file"),
        ((own_dir, tmp_path / "D4", "--readme", "/dev/zero"), 2, "a device, not a regular file"),
        ((own_dir, tmp_path / "E", "--tag", "no-such-tag"), 2, "matches no item"),
        ((own_dir, own_dir / "inside"), 2, "one inside the other"),
        ((foreign, tmp_path / "F"), 1, "holds no flickr backup archive"),
        ((own_dir, foreign), 1, "not a Lifeboat flickr lifeboat wrote"),
    ]
    for argv, code, words in cases:
        done = run_cli_lifeboat(*argv)
        print(code, done.returncode, done.stderr.strip())
        assert done.returncode == code and words in done.stderr, (argv, done.stderr)
        assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert (foreign / "keep.txt").read_text() == "mine" and sorted(os.listdir(foreign)) == ["keep.txt"]
    assert not (own_dir / "inside").exists()
    # A link inside OUT is not followed: the run stops, nothing is written through it.
    out = tmp_path / "G"
    flickr_apps.lifeboat.make(own_dir, out)
    outside = tmp_path / "outside"
    outside.mkdir()
    for entry in (out / "media" / "originals").iterdir():
        entry.unlink()
    (out / "media" / "originals").rmdir()
    (out / "media" / "originals").symlink_to(outside)
    done = run_cli_lifeboat(own_dir, out)
    assert done.returncode == 1 and "not followed" in done.stderr and os.listdir(outside) == []


def run_cli_lifeboat(*argv) -> subprocess.CompletedProcess:
    """`flickr lifeboat ARGV`, with no key and no token: it needs neither."""
    return subprocess.run([sys.executable, "-m", "flickr", "lifeboat", *map(str, argv)], capture_output=True,
                          text=True, env=environ_without_flickr(), timeout=120)


def test_the_viewer_shows_an_album_lifeboat_in_chromium_from_disk(archives, tmp_path):
    """The archive's viewer in a `flickr lifeboat --album ID` Lifeboat, opened from file:// (no
    server; any other request fails the test, as does a script or console error): the album's
    photos listed, a search by a word of a description and by a tag, the large view with the
    licence's link and the comment, the geotagged photo on the map, the hostile title as text; a
    rerun rewrites nothing."""
    from playwright.sync_api import expect, sync_playwright

    from browsertest import launch, offline_page

    own_dir, album, ids = archives.own, archives.album, archives.ids
    out = tmp_path / "ALBUM_VIEWED"
    done = run_cli_lifeboat(own_dir, out, "--album", album, "--name", "Harbour album")
    assert done.returncode == 0, done.stderr
    viewer = sorted(p.name for p in (out / "viewer").iterdir())
    print(f"viewer/: {viewer}")
    assert {"index.html", "app.js", "style.css", "basemap.js", "photo-loader.js", "leaflet.js"} <= set(viewer)
    assert not {"photo.html", "viewer.js", "viewer.css"} & set(viewer)  # the minimal viewer is gone
    assert 'data-data="../metadata/"' in (out / "viewer" / "index.html").read_text("utf-8")
    dialogs: list[str] = []
    expect.set_options(timeout=10_000)
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            with offline_page(browser) as page:
                page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
                page.goto((out / "viewer" / "index.html").as_uri())
                expect(page.locator("html[data-ready=true]")).to_have_count(1)
                expect(page.locator("#title")).to_have_text("Harbour album")
                captions = page.locator("#grid .cell .caption")
                expect(captions).to_have_count(2)
                assert sorted(captions.all_text_contents()) == sorted([HOSTILE, "Photo 2"])
                assert page.locator("img[src=x]").count() == 0  # the title's <img onerror> is text
                page.fill("#q", "bold")  # a word of a description: in the photo's file only
                expect(captions).to_have_text([HOSTILE])
                page.fill("#q", "tag2")
                expect(captions).to_have_text(["Photo 2"])
                page.locator("#grid .cell").click()
                expect(page.locator("#large-title")).to_have_text("Photo 2")
                shown = page.locator("#large-media img")
                expect(shown).to_have_js_property("complete", True)
                assert shown.evaluate("img => img.naturalWidth") == 320  # the original, from ../media/
                licence = page.locator("#large a.licence")
                expect(licence).to_have_text("Attribution License")
                assert licence.get_attribute("href").startswith("https://creativecommons.org/licenses/by/")
                # Flickr's comments are HTML: the viewer shows their text, the markup taken out.
                expect(page.locator("#large .comments li")).to_have_count(1)
                expect(page.locator("#large .comments li .author")).to_have_text("sandbox")
                expect(page.locator("#large .comments li")).to_contain_text(" nice")
                page.screenshot(path=str(screenshot("lifeboat-album-large")))
                page.keyboard.press("Escape")
                page.fill("#q", "")
                page.click("#nav-map")
                expect(page.locator("#map path.pin")).to_have_count(1)
                page.screenshot(path=str(screenshot("lifeboat-album-map")))
                page.goto((out / "viewer" / "index.html").as_uri() + f"#/item/{ids[0]}")
                expect(page.locator("#large-title")).to_have_text(HOSTILE)
                assert page.locator("img[src=x]").count() == 0 and page.evaluate("typeof window.pwned") == "undefined"
        finally:
            browser.close()
    print(f"2 photos shown, {len(dialogs)} dialogs; no request but file://, no console error")
    assert dialogs == []
    before = {path: (out / path).stat().st_mtime_ns for path in tree(out)}
    files = tree(out)
    again = run_cli_lifeboat(own_dir, out, "--album", album, "--name", "Harbour album")
    assert again.returncode == 0, again.stderr
    assert tree(out) == files and {path: (out / path).stat().st_mtime_ns for path in tree(out)} == before


def test_the_viewer_folder_follows_outs_rules(archives, tmp_path):
    """viewer/ is OUT's like the rest: written only in a folder marked as this command's (a foreign
    OUT is refused before anything is written), never through a link planted at viewer/, and a
    rerun removes nothing of it but its own temporaries."""
    foreign = tmp_path / "foreign"
    (foreign / "viewer").mkdir(parents=True)
    (foreign / "viewer" / "app.js").write_text("// mine")
    done = run_cli_lifeboat(archives.own, foreign)
    assert done.returncode == 1 and "not a Lifeboat flickr lifeboat wrote" in done.stderr
    assert (foreign / "viewer" / "app.js").read_text() == "// mine" and os.listdir(foreign / "viewer") == ["app.js"]
    out = tmp_path / "OUT"
    flickr_apps.lifeboat.make(archives.own, out)
    (out / "viewer" / "notes.txt").write_text("the user's")
    (out / "viewer" / ".app.js.0123456789abcdef.part").write_text("left by a killed run")
    flickr_apps.lifeboat.make(archives.own, out)
    assert sorted(os.listdir(out / "viewer")) == sorted(
        ["app.js", "basemap.js", "index.html", "leaflet.css", "leaflet.js", "notes.txt", "photo-loader.js", "style.css"])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for entry in (out / "viewer").iterdir():
        entry.unlink()
    (out / "viewer").rmdir()
    (out / "viewer").symlink_to(elsewhere)
    done = run_cli_lifeboat(archives.own, out)
    print(done.stderr.strip())
    assert done.returncode == 1 and "not followed" in done.stderr and os.listdir(elsewhere) == []


def screenshot(name: str) -> pathlib.Path:
    """Where a screenshot goes: $VIEWER_SCREENSHOTS (default build/archive-viewer-screenshots), as
    test_backup_viewer.py's; docs/screenshots/ holds copies."""
    from libtest import REPO

    folder = pathlib.Path(os.environ.get("VIEWER_SCREENSHOTS", REPO / "build" / "archive-viewer-screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}.png"


def test_an_archive_made_from_flickrs_export(tmp_path):
    """The same command on an archive made from Flickr's account export (no key at either step)."""
    zips = tmp_path / "zips"
    subprocess.run([sys.executable, "-m", "flickr_sandbox", "--write-export", str(zips)], check=True,
                   cwd=pathlib.Path(__file__).resolve().parents[3] / "sandbox", capture_output=True, timeout=600)
    archive = tmp_path / "archive"
    made = flickr.backup.from_export(archive, sorted(zips.iterdir()))
    out = tmp_path / "FROM_EXPORT"
    report = flickr_apps.lifeboat.make(archive, out)
    found = read_back(out)
    print(f"export: {made.done} items in the archive, {report['photos']} in the Lifeboat")
    assert report["ok"] and report["photos"] == len(media_files(archive)) > 50
    machine = [t for p in found.photos.values() for t in p["tags"] if t["rawValue"] == "camera:make=canon"]
    assert machine and all(t["isMachineTag"] for t in machine)
    assert any(c["text"] for p in found.photos.values() for c in p["comments"])  # the export's comments


def test_a_large_file_is_streamed_in_constant_memory(archives, tmp_path):
    """A 256 MiB media file is copied 1 MiB at a time: the run's peak memory grows by far less than
    the file (measured in the child that makes the Lifeboat, against the same run on a small file)."""
    own_dir, ids = archives.own, archives.ids
    copy = tmp_path / "archive"
    subprocess.run(["cp", "-a", str(own_dir), str(copy)], check=True)
    media = media_files(copy)[ids[3]]
    block = bytes(range(256)) * 4096  # 1 MiB
    hasher = hashlib.sha256()
    with open(media, "wb") as file:
        file.write(b"\xff\xd8\xff\xe0")
        hasher.update(b"\xff\xd8\xff\xe0")
        for _ in range(256):
            file.write(block)
            hasher.update(block)
    sidecar_path = media.with_suffix(".json")
    sidecar = json.loads(sidecar_path.read_text("utf-8"))
    sidecar["file"].update(sha256=hasher.hexdigest(), bytes=media.stat().st_size)
    sidecar_path.write_text(json.dumps(sidecar), "utf-8")
    # VmHWM, not ru_maxrss: the latter carries the forking pytest process's peak across exec.
    measure = ("import sys, flickr_apps.lifeboat\n"
               "report = flickr_apps.lifeboat.make(sys.argv[1], sys.argv[2], ids=[sys.argv[3]])\n"
               "status = open('/proc/self/status').read().split('VmHWM:')[1].split()[0]\n"
               "print(report['bytes'], status)\n")
    peaks = {}
    for name, archive in (("small", own_dir), ("large", copy)):
        run = subprocess.run([sys.executable, "-c", measure, str(archive), str(tmp_path / name), ids[3]],
                             env=environ_without_flickr(), capture_output=True, text=True, check=True)
        copied, peak_kib = map(int, run.stdout.split())
        peaks[name] = (copied, peak_kib)
    print(f"peak RSS: {peaks['small'][1]} KiB copying {peaks['small'][0]} bytes, "
          f"{peaks['large'][1]} KiB copying {peaks['large'][0]} bytes")
    assert peaks["large"][0] > 256 << 20
    assert peaks["large"][1] - peaks["small"][1] < 32 << 10  # KiB: the file is 256 MiB
    assert lifeboat_reader.check(str(tmp_path / "large")) == []


def test_a_rerun_copies_a_file_the_backup_replaced_at_the_same_size(archives, tmp_path):
    """A photo replaced on Flickr keeps its date taken, the backup's file time: a rerun compares the
    Lifeboat's copy with the backup's SHA-256, not with the size and time alone."""
    own_dir, ids = archives.own, archives.ids
    copy = tmp_path / "archive"
    subprocess.run(["cp", "-a", str(own_dir), str(copy)], check=True)
    out = tmp_path / "RERUN"
    first = flickr_apps.lifeboat.make(copy, out)
    media = media_files(copy)[ids[3]]
    before = media.stat()
    data = bytearray(media.read_bytes())
    data[-1] ^= 0xFF  # the backup's next run: new bytes, same size, same time
    media.write_bytes(bytes(data))
    os.utime(media, ns=(before.st_atime_ns, before.st_mtime_ns))
    sidecar_path = media.with_suffix(".json")
    sidecar = json.loads(sidecar_path.read_text("utf-8"))
    sidecar["file"]["sha256"] = hashlib.sha256(data).hexdigest()
    sidecar_path.write_text(json.dumps(sidecar), "utf-8")
    second = flickr_apps.lifeboat.make(copy, out)
    print(f"first run: {first['copied']} copied; second: {second['copied']} copied, {second['kept']} kept")
    assert (second["copied"], second["kept"]) == (1, 5)
    assert (out / read_back(out).photos[ids[3]]["files"]["original"]).read_bytes() == bytes(data)


# A child that runs `flickr lifeboat ARGV...` with one system call made to fail at its Nth use:
# Ctrl-C (SIGINT to itself) at the 3rd fsync, or the disk full (ENOSPC) at the 3rd write of a copy.
FAULTY = """import errno, os, signal, sys
from flickr_apps.cli import main
fault, n = sys.argv[1], [3]
real = {"fsync": os.fsync, "write": os.write}[fault]
def faulty(*args):
    n[0] -= 1
    if n[0] == 0:
        if fault == "fsync":
            os.kill(os.getpid(), signal.SIGINT)
        else:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return real(*args)
setattr(os, fault, faulty)
sys.exit(main(["lifeboat", *sys.argv[2:]]))
"""


def test_ctrl_c_and_a_full_disk_stop_with_their_code_and_one_line(archives, tmp_path):
    own_dir = archives.own
    for fault, code, words in (("fsync", 130, "interrupted"), ("write", 7, "is full: the Lifeboat is not finished")):
        out = tmp_path / fault
        done = subprocess.run([sys.executable, "-c", FAULTY, fault, str(own_dir), str(out)], capture_output=True,
                              text=True, env=environ_without_flickr(), timeout=120)
        print(fault, done.returncode, done.stderr.strip())
        assert done.returncode == code and words in done.stderr and len(done.stderr.splitlines()) == 1
        assert [p for p in out.rglob("*") if ".part" in p.name] == []  # its temporary removed
        assert run_cli_lifeboat(own_dir, out).returncode == 0  # run again: it goes on from there
        read_back(out)


def test_an_index_naming_a_path_outside_the_archive(archives, tmp_path):
    """index.json is a file like any other: a path with `..` in it names nothing outside DIR."""
    copy = tmp_path / "archive"
    subprocess.run(["cp", "-a", str(archives.own), str(copy)], check=True)
    (tmp_path / "outside.jpg").write_bytes(b"\xff\xd8\xff\xe0 OUTSIDE-7f3a")
    index = json.loads((copy / "index.json").read_text("utf-8"))
    index["items"][0]["path"] = "../outside.jpg"
    index["items"][1]["id"] = "../1"
    (copy / "index.json").write_text(json.dumps(index), "utf-8")
    out = tmp_path / "OUT"
    done = run_cli_lifeboat(copy, out)
    print(done.stderr.strip())
    assert done.returncode == 1 and "not a path inside it" in done.stderr and "not a Flickr photo id" in done.stderr
    assert len(read_back(out).photos) == 4
    assert all(b"OUTSIDE-7f3a" not in data for data in tree(out).values())


def test_a_photo_deleted_on_flickr_is_marked(archives, tmp_path):
    copy = tmp_path / "archive"
    subprocess.run(["cp", "-a", str(archives.own), str(copy)], check=True)
    index = json.loads((copy / "index.json").read_text("utf-8"))
    index["items"][0]["deleted_on_flickr"] = True  # what a later backup run writes when it is gone
    (copy / "index.json").write_text(json.dumps(index), "utf-8")
    assert flickr_apps.lifeboat.make(copy, tmp_path / "OUT")["ok"]
    found = read_back(tmp_path / "OUT")
    marked = sorted(i for i, p in found.photos.items() if p.get("deletedOnFlickr"))
    assert marked == [index["items"][0]["id"]] and len(found.photos) == 6
