# SPDX-License-Identifier: MIT
"""flickr backup's later runs: a new title, a replace, a deletion (kept, then pruned), a new upload,
an album change; each fetching only what changed, with its API calls counted."""
import json
import struct

import pytest

import flickr.backup
from backuptest import client, jpeg, media_files, sidecar, small_account, upload
from libtest import running_sandbox


@pytest.fixture(scope="module")
def server(library_path):
    with running_sandbox() as server:
        yield server


def test_incremental_runs(server, tmp_path):
    with client(server) as api:
        items = small_account(api, 6)
        a, b, c, d = sorted(items)[:4]
        first = flickr.backup.run(api, tmp_path)
        assert first.ok and first.fetched == 6
        files = media_files(tmp_path)
        identity = {i: (p.stat().st_ino, p.stat().st_mtime_ns) for i, p in files.items()}

        def again(step, **options):
            report = flickr.backup.run(api, tmp_path, **options)
            print(f"{step}: {report.summary()} {report.api_calls_by_method}")
            assert report.ok, report.failed
            # Never a call per item: the listing, the account, the albums' list, the tree.
            assert set(report.api_calls_by_method) <= {
                "flickr.test.login", "flickr.people.getInfo", "flickr.photos.licenses.getInfo",
                "flickr.photos.recentlyUpdated", "flickr.people.getPhotos", "flickr.photosets.getList",
                "flickr.photosets.getPhotos", "flickr.collections.getTree"}
            assert report.api_calls_by_method["flickr.people.getPhotos"] == 1
            return report

        # A new title: the sidecars are written again, the file is neither fetched nor touched.
        api.call("flickr.photos.setMeta", photo_id=a, title="A new title")
        report = again("title")
        assert (report.changed, report.fetched, report.sidecars) == (1, 0, 1)
        path = media_files(tmp_path)[a]
        assert (path.stat().st_ino, path.stat().st_mtime_ns) == identity[a]
        assert sidecar(path)["title"] == "A new title" and path.name.endswith("_photo-0.jpg")  # names are kept

        # A replace keeps every URL: the file is fetched again and, its bytes new, put in place.
        api.replace(jpeg(100), b)
        report = again("replace")
        assert (report.changed, report.fetched, report.replaced) == (1, 1, 1)
        assert media_files(tmp_path)[b].read_bytes() == jpeg(100)
        assert sidecar(media_files(tmp_path)[b])["file"]["bytes"] == len(jpeg(100))

        # Deleted on Flickr: reported and kept (marked in index.json), until --prune.
        api.call("flickr.photos.delete", photo_id=c)
        report = again("delete")
        assert report.deleted == [c] and report.fetched == 0 and c in media_files(tmp_path)
        index = {i["id"]: i for i in json.loads((tmp_path / "index.json").read_text())["items"]}
        assert index[c]["deleted_on_flickr"] and not index[a]["deleted_on_flickr"]
        report = again("prune", prune=True)
        assert report.pruned == [c] and c not in media_files(tmp_path)
        assert not list(tmp_path.rglob(f"{c}_*"))

        # A new upload: fetched, nothing else.
        new = upload(api, jpeg(200), title="New one")
        report = again("upload")
        assert (report.new, report.fetched, report.changed) == (1, 1, 0)
        assert media_files(tmp_path)[new].read_bytes() == jpeg(200)

        # An album gains a photo: its folder gets the link, the photo's sidecar the album.
        album = api.call("flickr.photosets.create", title="Later", primary_photo_id=d)["photoset"]["id"]
        report = again("album")
        assert report.fetched == 0 and report.api_calls_by_method["flickr.photosets.getPhotos"] == 1
        assert [x["id"] for x in sidecar(media_files(tmp_path)[d])["albums"]] == [album]
        assert (tmp_path / "albums" / f"{album}_later" / media_files(tmp_path)[d].name).resolve() == \
            media_files(tmp_path)[d].resolve()
        unchanged = media_files(tmp_path)[d]
        assert (unchanged.stat().st_ino, unchanged.stat().st_mtime_ns) == identity[d]

        # An edit and a replace between two runs: by default the edit alone is seen (the replace kept
        # format and size); recheck fetches every changed item again and keeps the new bytes.
        api.call("flickr.photos.setMeta", photo_id=a, title="Edited and replaced")
        api.replace(jpeg(300), a)
        report = again("edit and replace", recheck=True)
        assert (report.changed, report.fetched, report.replaced) == (1, 1, 1)
        assert media_files(tmp_path)[a].read_bytes() == jpeg(300)
        assert sidecar(media_files(tmp_path)[a])["title"] == "Edited and replaced"

        # A replace with another format: the new file under the new extension, the old file and its
        # XMP sidecar gone, the names' stem kept.
        old = media_files(tmp_path)[d]
        png = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 10, 10) + bytes(9) + jpeg(7)
        api.replace(png, d)
        report = again("replace with a PNG")
        assert (report.changed, report.fetched, report.replaced) == (1, 1, 1)
        new_file = media_files(tmp_path)[d]
        assert new_file == old.with_suffix(".png") and new_file.read_bytes() == png
        assert not old.exists() and not old.with_suffix(".jpg.xmp").exists() and new_file.with_suffix(".png.xmp").exists()
        assert (tmp_path / "albums" / f"{album}_later" / new_file.name).resolve() == new_file.resolve()
        assert flickr.backup.verify(tmp_path)["ok"]
