# SPDX-License-Identifier: MIT
"""flickr backup and a hostile world: titles made to escape DIR or drive a terminal, links planted in DIR."""
import os
import re

import pytest

import flickr.backup
from backuptest import client, jpeg, media_files, sidecar, small_account, upload
from libtest import running_sandbox

HOSTILE = ["../../../../escape", "a/b\\c", "\x1b]0;pwned\x07\x1b[2J title", ".", "..", "x" * 400, "名前" * 120,
           "\u202egpj.exe", "", "  .hidden", "new\nline\ttab", "con", "%2e%2e%2fx", "\x7f\x85\x9b[31m"]


@pytest.fixture(scope="module")
def server(library_path):
    with running_sandbox() as server:
        yield server


def test_hostile_titles_stay_inside(server, tmp_path):
    root = tmp_path / "backup"
    with client(server) as api:
        small_account(api, 0)
        ids = [upload(api, jpeg(n), title=title) for n, title in enumerate(HOSTILE)]
        report = flickr.backup.run(api, root)
    assert report.ok, report.failed
    assert sorted(os.listdir(tmp_path)) == ["backup"]  # nothing outside DIR
    files = media_files(root)
    assert sorted(files) == sorted(ids)
    for item_id, path in files.items():
        name = path.name
        print(repr(name))
        assert path.resolve().is_relative_to(root.resolve())
        assert re.fullmatch(rf"{item_id}_[^/\x00-\x1f\x7f-\x9f\u202a-\u202e]+\.jpg", name), name
        assert len(name.encode()) <= 100 and not name.startswith(".")
        assert path.read_bytes() == jpeg(ids.index(item_id))
        # The listing's title is an XML attribute: its parser reads tab and newline as spaces there.
        assert sidecar(path)["title"] == re.sub(r"[\t\n]", " ", flickr.text(api_title(server, item_id)))


def api_title(server, item_id):
    with client(server) as api:
        return api.call("flickr.photos.getInfo", photo_id=item_id)["photo"]["title"]


def test_planted_links_are_never_followed(server, tmp_path):
    root, victim = tmp_path / "backup", tmp_path / "victim"
    victim.mkdir()
    (victim / "precious").write_text("keep me")
    with client(server) as api:
        items = small_account(api, 3)
        year = api.call("flickr.photos.getInfo", photo_id=sorted(items)[0])["photo"]["dates"]["taken"][:4]
        root.mkdir()
        os.symlink(victim, root / year)  # the year's folder, pointing outside DIR
        report = flickr.backup.run(api, root)
        print(report.failed)
        assert len(report.failed) == 3 and all("not followed" in f["error"] for f in report.failed)
        assert os.listdir(victim) == ["precious"] and (victim / "precious").read_text() == "keep me"

        os.unlink(root / year)  # the next run retries what failed
        report = flickr.backup.run(api, root)
        assert report.ok and report.fetched == 3

        # A link planted at a sidecar's and at a media file's final names: replaced, their targets untouched.
        first = media_files(root)[sorted(items)[0]]
        json_path = first.with_name(first.name.rsplit(".", 1)[0] + ".json")
        json_path.unlink()
        os.symlink(victim / "precious", json_path)
        second = media_files(root)[sorted(items)[1]]
        second.unlink()
        os.symlink(victim / "precious", second)
        api.call("flickr.photos.setMeta", photo_id=sorted(items)[0], title="changed")
        api.replace(jpeg(50), sorted(items)[1])
        report = flickr.backup.run(api, root)
        assert report.ok, report.failed
    assert (victim / "precious").read_text() == "keep me"
    assert not json_path.is_symlink() and sidecar(first)["title"] == "changed"
    assert not second.is_symlink() and second.read_bytes() == jpeg(50)

    # The state folder itself as a link: refused before anything is written.
    other = tmp_path / "other"
    other.mkdir()
    os.symlink(victim, other / ".flickr-backup")
    with client(server) as api, pytest.raises(flickr.backup.PlantedLink, match="not followed"):
        flickr.backup.run(api, other)
    assert os.listdir(victim) == ["precious"]


def test_text_utf8_cannot_hold_still_makes_json_and_xmp():
    """A lone surrogate (a server's broken "\\ud800" in a JSON answer decodes to one): the sidecar is
    the same JSON value all the same, the XMP leaves the character out, the slug too."""
    import json
    import xml.dom.minidom

    from flickr_apps.backup.layout import slug
    from flickr_apps.backup.sidecar import json_file
    from flickr_apps.backup.xmp import xmp_document

    title = "broken \ud800 title"
    assert json.loads(json_file({"title": title}))["title"] == title
    document = xmp_document({"title": title, "description": "", "tags": [], "dates": {}, "license": {}})
    assert "broken  title" in xml.dom.minidom.parseString(document).toxml()
    assert slug(title) == "broken-title"
