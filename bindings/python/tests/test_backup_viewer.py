# SPDX-License-Identifier: MIT
"""The archive's viewer (index.html, viewer/) in a real browser: a sandbox-made backup opened from
disk (file://) in Debian's Chromium through Playwright, as a person would use it: search by a word
of a description, the album, the large view with its licence and comments, the map's marker,
keyboard navigation, a hostile title, and no request to anything but the archive's own files.

One browser for the module; every wait is Playwright's auto-waiting `expect`, never a sleep.
Screenshots go to $VIEWER_SCREENSHOTS (default build/archive-viewer-screenshots); the ones in
docs/screenshots/ are copies of these.
"""
import concurrent.futures
import contextlib
import json
import os
import pathlib
import sqlite3

import pytest
from playwright.sync_api import expect, sync_playwright

import flickr
import flickr.backup
from backuptest import client, empty_account, mp4, upload
from browsertest import launch, offline_page
import viewerarchive
from flickr_apps.backup import viewerdata
from flickr_apps.backup.layout import own_temporary
from flickr_apps.backup.viewer import install_viewer
from flickr_apps.backup.viewerdata import CHUNK
from flickr_sandbox.pictures import jpeg
from libtest import REPO, running_sandbox

SCREENSHOTS = pathlib.Path(os.environ.get("VIEWER_SCREENSHOTS", REPO / "build" / "archive-viewer-screenshots"))
TIMEOUT_MS = 10_000
# 255 characters: markup that would run if it were parsed, right-to-left text, emoji, U+2028 and
# "</script>" (which would end a script holding the data, were it not escaped there).
HOSTILE = ("<img src=x onerror=\"window.pwned=1\"></script>\u2028 عنوان طويل جدا بالعربية 👩‍👩‍👧‍👦🏳️‍🌈 "
           + "שלום" * 60)[:255]


def off_the_browsers_thread(function, *args, **kwargs):
    """`function` run on a thread of its own: Playwright's sync API keeps an event loop running on
    this one, where a backup that runs its own (asyncio.run) would be refused."""
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        return worker.submit(function, *args, **kwargs).result()


def picture(n: int, width: int = 160, height: int = 120) -> bytes:
    """A real, small JPEG (the sandbox's encoder): a colour of its own, so screenshots show it."""
    colour = ((n * 70) % 256, (n * 130 + 60) % 256, (200 - n * 40) % 256)
    pixels = bytearray()
    for y in range(height):
        for x in range(width):
            shade = (x + y) // 4
            pixels += bytes(min(255, c + shade) for c in colour)
    return jpeg.encode(width, height, bytes(pixels))


@pytest.fixture(scope="module")
def archive(library_path, tmp_path_factory):
    """A backup of: a geotagged, licensed photo with a comment in an album in a collection; two
    more photos (one of them with the hostile title), a video, and a photo deleted on Flickr."""
    data = tmp_path_factory.mktemp("sandbox")
    folder = tmp_path_factory.mktemp("archive")
    with running_sandbox("--data", str(data)) as server, client(server) as api:
        empty_account(api)
        harbour = upload(api, picture(1), title="Harbour at dusk", description="From the north pier, by the lighthouse.",
                         tags="harbour night")
        market = upload(api, picture(2), title="Market", description="Fruit stalls", tags="market")
        hostile = upload(api, picture(3), title=HOSTILE, description="<script>window.pwned=2</script>")
        video = upload(api, mp4(1), title="Waves")
        gone = upload(api, picture(4), title="Gone soon", description="deleted later")
        api.call("flickr.photos.comments.addComment", photo_id=harbour, comment_text="Lovely light.")
        album = api.call("flickr.photosets.create", title="Sea ☕ 2024", description="By the sea",
                         primary_photo_id=harbour)["photoset"]["id"]
        api.call("flickr.photosets.addPhoto", photoset_id=album, photo_id=market)
        # What the sandbox has no method for: set in its store, as Flickr's web pages would.
        with sqlite3.connect(data / "sandbox.sqlite3") as db:
            db.execute("UPDATE photos SET latitude=50.8, longitude=-1.1, accuracy=16, license=4 WHERE id=?", (harbour,))
            for n, item in enumerate((harbour, market, hostile, video, gone)):
                db.execute("UPDATE photos SET datetaken=? WHERE id=?", (f"2024-0{5 - n}-01 10:00:00", item))
            owner = db.execute("SELECT owner FROM photos WHERE id=?", (harbour,)).fetchone()[0]
            db.execute("INSERT INTO collections VALUES ('123-456', ?, 'Coasts', 'Every coast', NULL, 0, 0)", (owner,))
            db.execute("INSERT INTO collection_sets VALUES ('123-456', ?, 0)", (album,))
            db.execute("INSERT INTO exif VALUES (?, 0, 'IFD0', 'Model', 'Model', 'NIKON D750', NULL)", (harbour,))
        report = off_the_browsers_thread(flickr.backup.run, api, folder, comments=True, exif=True)
        assert report.ok, report.failed
        api.call("flickr.photos.delete", photo_id=gone)
        report = off_the_browsers_thread(flickr.backup.run, api, folder)
        assert report.deleted == [gone] or gone in str(report.deleted), report.deleted
    ids = {"harbour": harbour, "market": market, "hostile": hostile, "video": video, "gone": gone, "album": album}
    print(f"archive of {len(ids) - 1} items at {folder}")
    return folder, ids


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A page that fails its test on any request other than a file:// one, and on a script error."""
    expect.set_options(timeout=TIMEOUT_MS)
    with offline_page(browser, TIMEOUT_MS) as page:
        yield page


def shot(page, name: str) -> pathlib.Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def open_archive(page, folder: pathlib.Path, hash_: str = "") -> None:
    page.goto((folder / "index.html").as_uri() + hash_)
    expect(page.locator("html[data-ready=true]")).to_have_count(1)


def synthetic(folder: pathlib.Path, count: int, albums: int = 1, change=None) -> None:
    """A synthetic archive of `count` items (viewerarchive.py) with its viewer data; `change(archive)`
    first, when given."""
    archive = viewerarchive.make(folder, count, albums=albums)
    try:
        if change:
            change(archive)
        viewerdata.ViewerData(archive).write(archive.account)
    finally:
        archive.close()


@contextlib.contextmanager
def viewing(browser, folder: pathlib.Path, hash_: str = ""):
    """An offline page (browsertest.offline_page) with the archive in `folder` open, ready."""
    expect.set_options(timeout=TIMEOUT_MS)
    with offline_page(browser, TIMEOUT_MS) as page:
        open_archive(page, folder, hash_)
        yield page


def test_find_by_description_open_its_album_see_it_large(archive, page):
    folder, ids = archive
    open_archive(page, folder)
    expect(page.locator("#status")).to_have_text("5 items")
    expect(page.locator("#grid .cell")).to_have_count(5)
    shot(page, "archive-grid")
    page.fill("#q", "lighthouse")
    expect(page.locator("#status")).to_have_text("1 of 5 items match")
    cell = page.locator("#grid .cell")
    expect(cell).to_have_count(1)
    expect(cell.locator(".caption")).to_have_text("Harbour at dusk")
    shot(page, "archive-search")
    cell.click()
    large = page.locator("#large")
    expect(large).to_be_visible()
    expect(page.locator("#large-title")).to_have_text("Harbour at dusk")
    expect(large.locator("a.licence")).to_have_text("Attribution License")
    expect(large.locator("a.licence")).to_have_attribute("href", "https://creativecommons.org/licenses/by/2.0/")
    expect(large.locator(".comments li")).to_have_count(1)
    expect(large.locator(".comments li p")).to_have_text("Lovely light.")
    expect(large.locator("dt", has_text="Camera").locator("xpath=following-sibling::dd[1]")).to_have_text("Nikon D750")
    expect(large.locator("dt", has_text="Place").locator("xpath=following-sibling::dd[1]")).to_have_text("50.8000, -1.1000")
    expect(large.locator("a.flickr-link")).to_have_attribute("href", f"https://www.flickr.com/photos/{_owner(folder)}/{ids['harbour']}/")
    expect(large.locator(".large-media img")).to_have_js_property("naturalWidth", 160)  # the file itself, decoded
    shot(page, "archive-large")
    large.locator("a.album-link").click()
    expect(large).to_be_hidden()
    expect(page.locator("#heading h2")).to_have_text("Sea ☕ 2024")
    expect(page.locator("#heading .crumbs a")).to_have_text("Coasts")
    expect(page.locator("#grid .cell .caption")).to_have_text(["Harbour at dusk", "Market"])
    shot(page, "archive-album")
    page.locator("#heading .crumbs a").click()
    expect(page.locator("#pages .card .caption")).to_have_text(["Sea ☕ 2024"])


def _owner(folder: pathlib.Path) -> str:
    account = json.loads((folder / "index.json").read_text())["account"]
    return flickr.text(account.get("path_alias")) or account["nsid"]  # Flickr's page address: the alias first


def test_map_shows_the_geotagged_item(archive, page):
    folder, ids = archive
    open_archive(page, folder, "#/map")
    expect(page.locator("#map[data-pins='1']")).to_have_count(1)
    expect(page.locator("#status")).to_have_text("1 of 5 items have a place")
    expect(page.locator("#map path.coast")).to_have_count(1)  # the offline world outline
    pin = page.locator("#map path.pin")
    expect(pin).to_have_count(1)
    shot(page, "archive-map")
    pin.click()
    link = page.locator(".leaflet-popup-content a")
    expect(link).to_have_text("Harbour at dusk")
    link.click()
    expect(page.locator("#large-title")).to_have_text("Harbour at dusk")


def test_keyboard_moves_through_the_list_and_escape_closes(archive, page):
    folder, ids = archive
    open_archive(page, folder)
    page.locator("#grid .cell").first.click()
    title = page.locator("#large-title")
    expect(title).to_have_text("Harbour at dusk")  # taken last: first
    page.keyboard.press("ArrowRight")
    expect(title).to_have_text("Market")
    page.keyboard.press("ArrowRight")
    expect(title).to_have_text(HOSTILE)
    page.keyboard.press("ArrowLeft")
    expect(title).to_have_text("Market")
    page.keyboard.press("Escape")
    expect(page.locator("#large")).to_be_hidden()
    expect(page.locator("#grid .cell")).to_have_count(5)
    # In the grid: arrows move the focus from cell to cell, End to the last, Enter opens it.
    page.locator("#grid .cell").first.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#grid .cell:focus")).to_have_attribute("data-id", ids["market"])
    page.keyboard.press("End")
    expect(page.locator("#grid .cell:focus")).to_have_attribute("data-id", ids["gone"])
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    expect(title).to_have_text("Waves")


def test_a_hostile_title_is_text_and_stays_in_its_box(archive, page):
    folder, ids = archive
    open_archive(page, folder)
    cell = page.locator(f"#grid .cell[data-id='{ids['hostile']}']")
    expect(cell.locator(".caption")).to_have_text(HOSTILE)
    assert page.evaluate("window.pwned") is None
    assert page.locator("img[src=x]").count() == 0
    box, caption = cell.bounding_box(), cell.locator(".caption").bounding_box()
    assert caption["x"] >= box["x"] and caption["x"] + caption["width"] <= box["x"] + box["width"] + 0.5, (box, caption)
    assert cell.locator(".caption").evaluate("e => e.scrollWidth > e.clientWidth")  # cut with an ellipsis, not spilled
    shot(page, "archive-hostile-grid")
    cell.click()
    title = page.locator("#large-title")
    expect(title).to_have_text(HOSTILE)
    expect(title).to_have_attribute("dir", "auto")
    panel = page.locator(".large-details")
    assert panel.evaluate("e => e.scrollWidth <= e.clientWidth"), "the title widens the details panel"
    shown, room = title.bounding_box(), panel.bounding_box()
    assert shown["x"] >= room["x"] and shown["x"] + shown["width"] <= room["x"] + room["width"] + 0.5, (shown, room)
    expect(page.locator("#large .description")).to_have_text("window.pwned=2")  # tags taken out, as text
    assert page.evaluate("window.pwned") is None
    shot(page, "archive-hostile-large")


def test_filters_deleted_items_and_the_video(archive, page):
    folder, ids = archive
    open_archive(page, folder)
    page.select_option("#license", "4")
    expect(page.locator("#status")).to_have_text("1 of 5 items match")
    page.select_option("#license", "")
    page.fill("#from", "2024-03-01")
    expect(page.locator("#status")).to_have_text("3 of 5 items match")
    page.fill("#to", "2024-04-15")
    expect(page.locator("#status")).to_have_text("2 of 5 items match")
    page.fill("#from", "")
    page.fill("#to", "")
    page.select_option("#album", ids["album"])
    expect(page.locator("#grid .cell .caption")).to_have_text(["Harbour at dusk", "Market"])
    page.select_option("#album", "")
    gone = page.locator(f"#grid .cell[data-id='{ids['gone']}']")
    expect(gone.locator(".deleted-badge")).to_have_text("deleted on Flickr")
    gone.click()
    expect(page.locator("#large .deleted-note")).to_be_visible()
    page.keyboard.press("ArrowLeft")
    video = page.locator("#large video")
    expect(video).to_have_count(1)
    source = video.evaluate("v => v.src")
    assert source.startswith(folder.as_uri()) and source.endswith(".mp4")
    assert pathlib.Path(source[len("file://"):]).is_file()


def index_of(folder: pathlib.Path) -> dict:
    """viewer/data/index.js's value: `archiveData("index",0,{...});`."""
    return json.loads((folder / "viewer" / "data" / "index.js").read_text().split(",", 2)[2].rsplit(")", 1)[0])


def test_data_files_are_chunks_rewritten_only_when_changed(archive, tmp_path):
    """The data: a script per chunk, written through temporaries; a run with nothing new rewrites
    none; the index names every item once; no temporary is left."""
    folder, ids = archive
    data = folder / "viewer" / "data"
    names = sorted(p.name for p in data.iterdir())
    assert names == ["index.js", "items-0001.js", "search-0001.js"], names
    assert not list(folder.rglob("*.part"))
    index = index_of(folder)
    assert sorted(index["ids"]) == sorted(v for k, v in ids.items() if k != "album") and index["chunk"] == CHUNK
    text = (data / "items-0001.js").read_text()
    assert text.isascii() and "</script>" not in text and "\u2028" not in text
    assert sorted(p.name for p in (folder / "viewer").iterdir()) == sorted(
        ["app.js", "basemap.js", "data", "leaflet.css", "leaflet.js", "photo-loader.js", "style.css"])


def test_a_lifeboat_is_read_by_the_same_viewer(browser, page, tmp_path):
    """The viewer copied into a Data Lifeboat reads its metadata/*.js (docs/lifeboat.md)."""
    from test_lifeboat_reader import build

    boat = build(tmp_path / "HARBOUR_LIGHTS")
    (boat / "viewer" / "index.html").unlink()
    written = install_viewer(boat, "lifeboat")
    assert "viewer/index.html" in written and "viewer/app.js" in written
    page.goto((boat / "viewer" / "index.html").as_uri())
    expect(page.locator("html[data-ready=true]")).to_have_count(1)
    expect(page.locator("#title")).to_have_text("Harbour lights")
    expect(page.locator("#grid .cell .caption")).to_have_text(["Pier", "Harbour at dusk"])
    page.fill("#q", "night")
    expect(page.locator("#grid .cell .caption")).to_have_text(["Harbour at dusk"])
    page.locator("#grid .cell").click()
    expect(page.locator("#large-title")).to_have_text("Harbour at dusk")
    expect(page.locator("#large a.licence")).to_have_text("CC BY 2.0")
    expect(page.locator("#large .comments li .author")).to_have_text("bo")
    page.keyboard.press("Escape")
    page.fill("#q", "")
    page.click("#nav-map")
    expect(page.locator("#map path.pin")).to_have_count(2)
    shot(page, "lifeboat-map")


def data_files(folder: pathlib.Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in (folder / "viewer" / "data").iterdir()}


def test_stale_chunks_go_but_only_the_ones_the_backup_wrote(tmp_path, monkeypatch):
    """Fewer chunks than the last run: the ones it no longer writes are removed; a file of the
    user's in the data folder stays, even one named like a chunk; a run with nothing new rewrites
    nothing."""
    archive = viewerarchive.make(tmp_path, 7, albums=2)
    try:
        monkeypatch.setattr(viewerdata, "CHUNK", 3)
        written = viewerdata.ViewerData(archive).write(archive.account)
        assert sorted(written) == sorted(f"viewer/data/{n}" for n in (
            "index.js", "items-0001.js", "items-0002.js", "items-0003.js", "search-0001.js", "search-0002.js",
            "search-0003.js"))
        (tmp_path / "viewer" / "data" / "notes.txt").write_text("mine")
        (tmp_path / "viewer" / "data" / "items-0009.js").write_text("// mine too")
        before = data_files(tmp_path)
        viewerdata.ViewerData(archive).write(archive.account)
        assert data_files(tmp_path) == before  # nothing new: nothing rewritten
        monkeypatch.setattr(viewerdata, "CHUNK", 500)
        viewerdata.ViewerData(archive).write(archive.account)
        left = sorted(data_files(tmp_path))
        print(f"left after the second layout: {left}")
        assert left == ["index.js", "items-0001.js", "items-0009.js", "notes.txt", "search-0001.js"]
        assert not list(tmp_path.rglob("*.part"))
    finally:
        archive.close()


def test_only_the_backups_own_viewer_files_are_rewritten(tmp_path):
    """The viewer's files are rewritten only where the backup wrote them (viewerfiles.py): an
    edit of the user's to viewer/style.css, or a link at viewer/, makes the viewer not installed
    (nothing written, the note says which, nothing followed); the record and a file that already
    holds the viewer's content are the backup's; a DIR written before the record existed has its
    files adopted (the single page before the viewer, or the first viewer's files)."""
    from flickr_apps.backup import viewerfiles

    def write(archive) -> viewerdata.ViewerData:
        viewer = viewerdata.ViewerData(archive)
        viewer.write(archive.account)
        return viewer

    archive = viewerarchive.make(tmp_path / "edited", 3)
    try:
        style = tmp_path / "edited" / "viewer" / "style.css"
        assert write(archive).note is None and style.read_bytes() == install_viewer_asset("style.css")
        style.write_bytes(b"body { background: pink }\n")
        before = {p: p.read_bytes() for p in (tmp_path / "edited").rglob("*") if p.is_file() and ".flickr" not in str(p)}
        viewer = write(archive)
        print(viewer.note)
        assert viewer.note is not None and "viewer/style.css" in viewer.note and "index.html" not in viewer.note
        assert {p: p.read_bytes() for p in before} == before
        style.write_bytes(install_viewer_asset("style.css"))  # the backup's content again: its own
        assert write(archive).note is None
    finally:
        archive.close()

    archive = viewerarchive.make(tmp_path / "linked", 3)
    try:
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        (tmp_path / "linked" / "viewer").symlink_to(elsewhere)
        viewer = write(archive)
        assert "installed: viewer is not the backup's" in (viewer.note or "") and os.listdir(elsewhere) == []
        assert not (tmp_path / "linked" / "index.html").exists()
    finally:
        archive.close()

    # Written before the record: the single page of old, and the first viewer's (its data recorded).
    for name, state_has_data in (("old-page", False), ("first-viewer", True)):
        folder = tmp_path / name
        archive = viewerarchive.make(folder, 3)
        try:
            (folder / "index.html").write_bytes(b'<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
                                                b"<title>Flickr backup of Ada</title></head></html>\n")
            if state_has_data:
                (folder / "viewer").mkdir()
                (folder / "viewer" / "app.js").write_text("// an earlier version of the viewer")
                archive.state.set_meta(viewerfiles.DATA_RECORD, "[]")
            viewer = write(archive)
            assert viewer.note is None, (name, viewer.note)
            assert 'src="viewer/app.js"' in (folder / "index.html").read_text()
            assert (folder / "viewer" / "app.js").read_bytes() == install_viewer_asset("app.js")
        finally:
            archive.close()
    # The same old page with a record in the state: the record says it is not the backup's.
    folder = tmp_path / "recorded"
    archive = viewerarchive.make(folder, 3)
    try:
        assert write(archive).note is None
        (folder / "index.html").write_bytes(b'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Flickr backup of')
        assert "index.html" in (write(archive).note or "")
    finally:
        archive.close()


def test_leaflet_written_once_stays_the_backups_while_it_is_not_installed(tmp_path, monkeypatch):
    """Leaflet copied by one run, not installed at the next, upgraded at the third: the copy in
    viewer/ is still the backup's (the record keeps it), so the third run updates it."""
    from flickr_apps.backup import viewer as viewer_module

    versions = {}
    for name, text in (("first", "// leaflet 1"), ("later", "// leaflet 2")):
        versions[name] = tmp_path / name
        versions[name].mkdir()
        (versions[name] / "leaflet.js").write_text(text)
        (versions[name] / "leaflet.css").write_text("/* leaflet */")
    archive = viewerarchive.make(tmp_path / "archive", 3)
    try:
        for leaflet in ("first", "missing", "later"):
            monkeypatch.setattr(viewerdata, "contents",
                                lambda kind, where=tmp_path / leaflet: viewer_module.contents(kind, str(where)))
            found = viewerdata.ViewerData(archive)
            found.write(archive.account)
            assert found.note is None, (leaflet, found.note)
        assert (tmp_path / "archive" / "viewer" / "leaflet.js").read_text() == "// leaflet 2"
    finally:
        archive.close()


def install_viewer_asset(name: str) -> bytes:
    from flickr_apps.backup.viewer import asset

    return asset(name)


def test_killed_runs_viewer_temporaries_are_the_backups_own():
    """The next run removes what a killed one left in viewer/ and viewer/data/ (engine's
    _remove_leftovers): only temporaries of the viewer's own names."""
    ours = [".items-0001.js.0123456789abcdef.part", ".index.js.0123456789abcdef.part", ".app.js.0123456789abcdef.part",
            ".leaflet.css.0123456789abcdef.part", ".search-0012.js.fedcba9876543210.part"]
    theirs = [".notes.js.0123456789abcdef.part", ".items-1.js.0123456789abcdef.part", ".items-0001.js.part"]
    assert [n for n in ours if not own_temporary(n)] == []
    assert [n for n in theirs if own_temporary(n)] == []


def test_a_licence_link_that_is_not_a_web_address_is_no_link(browser, tmp_path):
    """A licence URL from the server is a link only when it is http(s): `javascript:` is shown as
    the licence's name, never an href."""
    synthetic(tmp_path, 12, change=lambda a: a.licences.table.update({"4": ("Evil licence", "javascript:window.pwned=3")}))
    with viewing(browser, tmp_path, f"#/item/{viewerarchive.item_id(4)}") as page:
        expect(page.locator("#large-title")).to_have_text("Snow 4")
        expect(page.locator("#large .licence")).to_have_text("Evil licence")
        assert page.locator("#large a.licence").count() == 0
        assert page.locator("a[href^=javascript]").count() == 0


def test_an_item_whose_details_cannot_be_read_is_still_shown(tmp_path):
    """An item the sidecar builder refuses (its details not a JSON object) does not stop the data:
    it is listed with its file, untitled."""
    synthetic(tmp_path, 3, change=lambda a: a.state.db.execute("UPDATE items SET details='[1]' WHERE id=?",
                                                               (viewerarchive.item_id(1),)))
    text = (tmp_path / "viewer" / "data" / "items-0001.js").read_text()
    items = json.loads(text[text.index("[{"):text.rindex(")")])
    assert sorted(i["id"] for i in items) == [viewerarchive.item_id(n) for n in range(3)], items
    odd = [i for i in items if i["id"] == viewerarchive.item_id(1)][0]
    assert odd["title"] == "" and odd["path"].endswith(".jpg"), odd


def test_an_archive_made_from_the_export_has_the_same_viewer(browser, tmp_path):
    """`flickr backup DIR --from-export` writes the same viewer: its items, albums and its gallery
    (of other members' photos, not in the archive) are browsed the same way."""
    import subprocess
    import sys

    from libtest import SANDBOX_DIR

    out = tmp_path / "zips"
    subprocess.run([sys.executable, "-m", "flickr_sandbox", "--write-export", str(out)], check=True, cwd=SANDBOX_DIR,
                   capture_output=True, timeout=120)
    folder = tmp_path / "archive"
    report = off_the_browsers_thread(flickr.backup.from_export, folder, sorted(out.iterdir()))
    made = json.loads((folder / "index.json").read_text())
    with viewing(browser, folder) as page:
        expect(page.locator("#status")).to_have_text(f"{len(made['items'])} items")
        page.click("#nav-albums")
        gallery = page.locator("#pages .card", has_text="Other people's light")
        expect(gallery).to_have_count(1)
        gallery.click()
        expect(page.locator("#heading h2")).to_have_text("Other people's light")
        expect(page.locator("#heading .description")).to_have_text("Favourite photos by others, with light & shade.")
        mine = {i["id"] for i in made["items"]}
        others = len([m for m in made["galleries"][0]["items"] if m not in mine])
        expect(page.locator("#grid .cell")).to_have_count(len(made["galleries"][0]["items"]) - others)
        expect(page.locator("#heading .detail")).to_have_text(
            f"{others} of its photos are other members' and not in this archive.")
        page.click("#nav-photos")
        page.locator("#grid .cell").first.click()
        expect(page.locator("#large .licence")).not_to_have_text("")
    print(f"export: {len(made['items'])} items, {report.fetched} files; gallery: {others} others' photos")


def test_the_grid_draws_only_the_rows_on_screen(browser, tmp_path):
    """3,000 items: the page holds a screenful of cells wherever it is scrolled, and the last item
    is reached by scrolling (its chunk read then)."""
    count = 3_000
    synthetic(tmp_path, count, albums=2)
    with viewing(browser, tmp_path) as page:
        expect(page.locator("#status")).to_have_text(f"{count} items")
        order = index_of(tmp_path)["ids"]  # newest taken first
        expect(page.locator("#grid .cell").first).to_have_attribute("data-id", order[0])
        drawn = page.locator("#grid .cell").count()
        page.evaluate("scrollTo(0, document.body.scrollHeight)")
        last = page.locator(f"#grid .cell[data-id='{order[-1]}']")
        n = int(order[-1]) - int(viewerarchive.item_id(0))
        expect(last.locator(".caption")).to_have_text(f"{viewerarchive.WORDS[n % 10].title()} {n}")
        at_end = page.locator("#grid .cell").count()
        page.evaluate("scrollTo(0, 0)")
        page.locator(f"#grid .cell[data-id='{order[0]}']").focus()
        page.keyboard.press("End")  # the last row is drawn and its cell focused
        expect(page.locator("#grid .cell:focus")).to_have_attribute("data-id", order[-1])
        page.keyboard.press("Home")
        expect(page.locator("#grid .cell:focus")).to_have_attribute("data-id", order[0])
        scripts = page.evaluate("[...document.scripts].map((s) => s.src.split('/').pop())")
    print(f"{count} items: {drawn} cells at the top, {at_end} at the end; scripts {scripts}")
    assert 0 < drawn <= 60 and 0 < at_end <= 60, (drawn, at_end)
    assert "items-0001.js" in scripts and "items-0006.js" in scripts and "items-0003.js" not in scripts, scripts


def test_without_leaflet_the_map_says_so_and_the_rest_works(browser, tmp_path):
    synthetic(tmp_path, 4)
    install_viewer(tmp_path, "archive", leaflet_dir=str(tmp_path / "no-leaflet"))
    with viewing(browser, tmp_path, "#/map") as page:
        expect(page.locator("#map .note")).to_have_text(
            "The map needs Leaflet: install Debian's libjs-leaflet package and run the backup again.")
        page.click("#nav-photos")
        expect(page.locator("#grid .cell")).to_have_count(4)


@pytest.mark.parametrize("typed, title", [("cafe", "Café au lait"), ("CAFÉ", "cafe noir"), ("ｃａｆｅ", "Cafe"),
                                          ("straße", "Straße 5"), ("नमस्ते", "नमस्ते दुनिया")])
def test_search_folds_case_accents_and_widths_alike_on_both_sides(browser, tmp_path, typed, title):
    """The words typed and the text searched are folded the same way (viewerdata.folded, app.js's
    fold): a search finds "Café" by "cafe", and Devanagari's marks do not stop a match."""
    def retitle(archive):
        found = viewerarchive.item_id(2)
        listed = json.loads(archive.state.item(found)["listed"])
        archive.state.db.execute("UPDATE items SET listed=? WHERE id=?", (json.dumps({**listed, "title": title}), found))

    synthetic(tmp_path, 5, change=retitle)
    with viewing(browser, tmp_path) as page:
        page.fill("#q", typed)
        expect(page.locator("#grid .cell")).to_have_count(1)
        expect(page.locator("#grid .cell .caption")).to_have_text(title)


def test_hostile_text_stays_data_in_the_viewers_scripts(tmp_path):
    """A title, description and album title holding `</script>`, U+2028/2029, a lone surrogate,
    NUL, RTL and an emoji, 100,000 tags on one item and a 1 MB album title: every data file is
    ASCII (no line terminator JavaScript sees), has no `</`, and its value reads back the same."""
    hostile = "x\u2028y\u2029</script><!--<script>\ud800\U0001F600\u202e\x00"

    def change(archive):
        db = archive.state.db
        first = viewerarchive.item_id(0)
        listed = json.loads(db.execute("SELECT listed FROM items WHERE id=?", (first,)).fetchone()[0])
        listed.update(title=hostile, description=hostile * 100, tags=" ".join(f"t{i}" for i in range(100_000)))
        db.execute("UPDATE items SET listed=? WHERE id=?", (json.dumps(listed), first))
        album = db.execute("SELECT id FROM albums").fetchone()[0]
        db.execute("UPDATE albums SET info=? WHERE id=?", (json.dumps({"title": "A" * 10**6 + hostile}), album))
        db.commit()

    synthetic(tmp_path, 3, change=change)
    values = {}
    for path in sorted((tmp_path / "viewer" / "data").iterdir()):
        data = path.read_bytes()
        assert data.isascii() and b"</" not in data and data.startswith(b"archiveData(") and data.endswith(b");\n")
        values[path.name] = json.loads(data[data.index(b",", data.index(b",") + 1) + 1:-3])
        print(path.name, len(data))
    item = [i for i in values["items-0001.js"] if i["id"] == viewerarchive.item_id(0)][0]
    assert item["title"] == hostile and len(item["tags"]) == 100_000
    assert values["index.js"]["albums"][0]["title"].endswith(hostile)
