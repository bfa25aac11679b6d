# SPDX-License-Identifier: MIT
"""A synthetic backup of N items, made in its state database directly (no server): what the
viewer's data writer reads. For the data writer's tests (test_backup_viewer.py) and the viewer's
bench (bench/viewer.py), where a sandbox would take minutes to make 10,000 items.

Every item's media file is a hard link to one small JPEG (the grid decodes real pictures); a third
are geotagged, one in 97 is a video, one in 50 has a comment, and twenty albums share them out.
"""
import hashlib
import json
import os
import pathlib

from flickr_apps.backup.layout import STATE_DIR
from flickr_apps.backup.licences import Licences
from flickr_apps.backup.safedir import SafeDir
from flickr_apps.backup.state import State
from flickr_sandbox.pictures import jpeg

WORDS = ("harbour", "market", "mountain", "river", "snow", "bridge", "garden", "station", "beach", "forest")
OWNER = "12345678@N00"


class Archive:
    """What ViewerData uses of a run (RunContext: state, root, licences, account, albums_of)."""

    def __init__(self, folder: pathlib.Path) -> None:
        self.root = SafeDir.open_root(str(folder))
        self._state_dir = self.root.subdir(STATE_DIR)
        self.state = State.open(self._state_dir)
        self.licences = Licences()
        self.account = {"nsid": OWNER, "username": "ada", "realname": "Ada Example", "path_alias": "ada"}
        self.memberships: dict[str, list[dict[str, str]]] = {}

    def albums_of(self, item_id: str) -> list[dict[str, str]]:
        return self.memberships.get(item_id, [])

    def close(self) -> None:
        self.state.close()
        self._state_dir.close()
        self.root.close()


def item_id(n: int) -> str:
    return str(50_000_000_000 + n)


def make(folder: pathlib.Path, count: int, albums: int = 20) -> Archive:
    """`count` items in `folder` (made), newest taken first by number; item n's description holds
    the word `unique{n}`."""
    archive = Archive(folder)
    picture = folder / ".picture.jpg"
    pixels = bytes(v for i in range(64 * 48) for v in ((i * 7) % 256, (i * 3) % 256, 160))
    picture.write_bytes(jpeg.encode(64, 48, pixels))
    digest = hashlib.sha256(picture.read_bytes()).hexdigest()
    db = archive.state.db
    db.execute("BEGIN")
    for n in range(count):
        pid = item_id(n)
        year, month = 2024 - (n // 1200), 12 - (n // 100) % 12
        listed = {"id": pid, "owner": OWNER, "title": f"{WORDS[n % 10].title()} {n}",
                  "description": f"A {WORDS[(n // 10) % 10]} seen on walk {n // 7}, unique{n}.",
                  "tags": f"{WORDS[n % 10]} walk{n % 13}", "license": str(n % 11), "ispublic": 1,
                  "datetaken": f"{year:04d}-{month:02d}-{28 - n % 28:02d} 12:00:00", "media": "video" if n % 97 == 0 else "photo",
                  "lastupdate": "1700000000", "dateupload": "1700000000", "pathalias": "ada"}
        if n % 3 == 0:
            listed.update(latitude=f"{(n * 7) % 140 - 60}.5", longitude=f"{(n * 13) % 340 - 170}.25", accuracy="16")
        details = {}
        if n % 50 == 0:
            details["comments"] = {"comments": {"comment": [
                {"id": f"c{n}", "author": "87654321@N01", "authorname": "bo", "datecreate": "1700000100",
                 "_text": f"Comment on {n}."}]}}
        archive.state.add(pid, listed, 1700000000)
        db.execute("UPDATE items SET need='', details=? WHERE id=?", (json.dumps(details), pid))
        folder_path = f"{year:04d}/{month:02d}"
        name = f"{pid}_{WORDS[n % 10]}-{n}.{'mp4' if n % 97 == 0 else 'jpg'}"
        (folder / folder_path).mkdir(parents=True, exist_ok=True)
        if n % 50_000 == 0 and n:  # a file system's limit of links to one file (ext4: 65,000)
            picture = folder / f".picture-{n}.jpg"
            picture.write_bytes((folder / ".picture.jpg").read_bytes())
        os.link(picture, folder / folder_path / name)
        archive.state.file(pid, "media", f"{folder_path}/{name}", picture.stat().st_size, digest)
    for a in range(albums):
        album = str(72157700000000000 + a)
        members = [item_id(n) for n in range(a, count, albums)]
        archive.state.put_album(album, "album", f"{album}_album-{a}", "", {"id": album, "title": f"Album {a}"}, members)
        for member in members:
            archive.memberships.setdefault(member, []).append({"id": album, "title": f"Album {a}", "folder": f"{album}_album-{a}"})
    db.execute("COMMIT")
    return archive
