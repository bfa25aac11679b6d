# SPDX-License-Identifier: MIT
"""``--write-export``: the sandbox user's account export in Flickr's form (docs/export.md).

Its structure, every quirk real exports have, and its JSON against the API's view of the same
account: what a later `flickr backup --from-export` is compared with."""
from __future__ import annotations

import collections
import hashlib
import json
import os
import re
import subprocess
import sys
import time
import zipfile

import pytest
from sbclient import Client

from flickr_sandbox import Sandbox
from flickr_sandbox import constants as C
from flickr_sandbox import export

SEED_PHOTOS = 30  # the default seed's 100 items of the sandbox user, and 30 more (a video among them)
SANDBOX_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# photo_<id>.json's members, in the order of the real files docs/export.md quotes.
PHOTO_KEYS = ("id", "name", "description", "count_views", "count_faves", "count_comments", "date_taken",
              "count_tags", "count_notes", "rotation", "date_imported", "photopage", "original", "license", "geo",
              "groups", "albums", "tags", "people", "notes", "privacy", "comment_permissions",
              "tagging_permissions", "safety", "comments")
OLD_NAME = re.compile(r"^(\d+)_[0-9a-f]+_o\.\w+$")
NEW_NAME = re.compile(r"^([0-9a-z-]+)_(\d+)_o\.\w+$")


def _id(member: str, ids: set[str]) -> str:
    """The item a file is of. A title that slugs to digits makes a newer name look like an older
    one (``2019_<id>_o.jpg``): the id is the candidate that names an item of the export."""
    old, new = OLD_NAME.match(member), NEW_NAME.match(member)
    found = {m.groups()[-1] for m in (old, new) if m} & ids
    assert len(found) == 1, (member, found)
    return found.pop()


class Export:
    def __init__(self, folder: str, names: list[str]):
        self.folder, self.names = folder, names
        self.meta = zipfile.ZipFile(os.path.join(folder, names[0]))
        self.ids = {m[len("photo_"):-len(".json")] for m in self.meta.namelist() if m.startswith("photo_")}
        self.files: dict[str, tuple[str, str]] = {}  # photo id -> (zip, member)
        for name in names[1:]:
            for member in zipfile.ZipFile(os.path.join(folder, name)).namelist():
                self.files[_id(member, self.ids)] = (name, member)

    def json(self, member: str):
        return json.loads(self.meta.read(member))

    def file(self, photo_id: str) -> bytes:
        name, member = self.files[photo_id]
        return zipfile.ZipFile(os.path.join(self.folder, name)).read(member)


@pytest.fixture(scope="module")
def account(tmp_path_factory):
    with Sandbox(seed_photos=SEED_PHOTOS) as sb:
        folder = str(tmp_path_factory.mktemp("export"))
        yield sb, Client(sb), Export(folder, export.write_export(sb.store, folder))


def _own_ids(sandbox) -> list[str]:
    return [str(r[0]) for r in sandbox.store.all("SELECT id FROM photos WHERE owner=? ORDER BY id", (C.USER_NSID,))]


def test_export_has_flickrs_structure(account):
    sandbox, _, exp = account
    ids = _own_ids(sandbox)
    print(f"{exp.names}; {len(exp.meta.namelist())} metadata files, {len(exp.files)} files for {len(ids)} items")
    assert re.fullmatch(r"\d{17}_[0-9a-f]{12}_part1\.zip", exp.names[0])
    assert exp.names[1:] == [f"data-download-{n}.zip" for n in range(1, len(exp.names))]
    assert sorted(exp.meta.namelist()) == sorted(
        [f"photo_{i}.json" for i in ids] + ["albums.json", "galleries.json", "account_profile.json",
                                            "photos_comments_part001.json", "faves_part001.json"])
    for pid in ids:
        assert tuple(exp.json(f"photo_{pid}.json")) == PHOTO_KEYS
    albums = exp.json("albums.json")["albums"]
    assert albums and set(albums[0]) == {"photo_count", "id", "url", "title", "description", "view_count",
                                         "created", "last_updated", "cover_photo", "photos"}
    assert exp.json("account_profile.json")["nsid"] == C.USER_NSID
    assert exp.json("galleries.json")["galleries"]


def test_export_has_the_quirks_of_real_ones(account):
    sandbox, _, exp = account
    ids = _own_ids(sandbox)
    members = [member for _, member in exp.files.values()]
    slugs = collections.Counter(NEW_NAME.match(m).group(1) for m in members if NEW_NAME.match(m))
    privacy = collections.Counter()
    for row in sandbox.store.all("SELECT id, ispublic, isfriend, isfamily FROM photos WHERE owner=?", (C.USER_NSID,)):
        if not row["ispublic"] and row["isfriend"] != row["isfamily"]:
            privacy[exp.json(f"photo_{row['id']}.json")["privacy"]] += 1
    geo = [exp.json(f"photo_{i}.json")["geo"] for i in ids]
    videos = [m for m in members if m.endswith(".mp4")]
    print(f"{len(exp.names) - 1} file zips; missing {sorted(set(ids) - set(exp.files))}; old names "
          f"{sum(bool(OLD_NAME.match(m)) for m in members)}, new {sum(bool(NEW_NAME.match(m)) for m in members)}; "
          f"shared slugs {[s for s, n in slugs.items() if n > 1][:3]}; friends-only/family-only as {dict(privacy)}; "
          f"videos {videos}")
    assert len(exp.names) - 1 >= 2
    assert len(set(ids) - set(exp.files)) == 1  # one item's JSON without its file
    assert any(OLD_NAME.match(m) for m in members) and any(NEW_NAME.match(m) for m in members)
    assert any(n > 1 for n in slugs.values())  # two titles that slug alike, kept apart by the id alone
    assert all(len(i) >= 11 for i in ids)
    assert privacy and set(privacy) == {"friend & family"}
    assert all(not exp.json(f"photo_{i}.json")["albums"] for i in ids) and exp.json("albums.json")["albums"]
    assert any(g and g["longitude"].startswith("-") for g in geo)  # the western hemisphere, by its sign
    assert videos and exp.file(_id(videos[0], exp.ids))[4:8] == b"ftyp"  # an MP4


def _info(client, pid: str) -> dict:
    reply = client.rest("flickr.photos.getInfo", auth="oauth", photo_id=pid, format="json", nojsoncallback=1)
    return json.loads(reply.body)["photo"]


def test_export_json_is_the_apis_view(account):
    """Every item: title, description, tags, dates, geo, licence, privacy and comments as the API
    answers them; album membership from albums.json as photosets.getPhotos answers it."""
    sandbox, client, exp = account
    licences = {str(lic["id"]): lic["name"] for lic in json.loads(client.rest(
        "flickr.photos.licenses.getInfo", format="json", nojsoncallback=1).body)["licenses"]["license"]}
    checked = 0
    for pid in _own_ids(sandbox):
        item, info = exp.json(f"photo_{pid}.json"), _info(client, pid)
        vis = info["visibility"]
        assert item["name"] == info["title"]["_content"] and item["description"] == info["description"]["_content"]
        assert [t["tag"] for t in item["tags"]] == [t["raw"] for t in info["tags"]["tag"]]
        assert item["date_taken"] == info["dates"]["taken"]
        assert item["date_imported"] == time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(int(info["dates"]["posted"])))
        assert item["license"] == licences[str(info["license"])]
        assert item["privacy"] == ("public" if vis["ispublic"] else
                                   "friend & family" if vis["isfriend"] or vis["isfamily"] else "private")
        location = info.get("location")
        assert (item["geo"] is None) == (location is None)
        if location:
            assert abs(int(item["geo"]["latitude"]) / 1e6 - float(location["latitude"])) < 1e-6
            assert abs(int(item["geo"]["longitude"]) / 1e6 - float(location["longitude"])) < 1e-6
        comments = json.loads(client.rest("flickr.photos.comments.getList", auth="oauth", photo_id=pid, format="json",
                                          nojsoncallback=1).body)["comments"].get("comment", [])
        assert [(c["comment"], c["id"]) for c in item["comments"]] == [(c["_content"], c["id"]) for c in comments]
        checked += 1
    albums = {a["id"]: a["photos"] for a in exp.json("albums.json")["albums"]}
    listed = json.loads(client.rest("flickr.photosets.getList", auth="oauth", format="json",
                                    nojsoncallback=1).body)["photosets"]["photoset"]
    for album in listed:
        photos = json.loads(client.rest("flickr.photosets.getPhotos", auth="oauth", photoset_id=album["id"],
                                        per_page=500, format="json", nojsoncallback=1).body)["photoset"]["photo"]
        assert albums[album["id"]] == [p["id"] for p in photos]
    print(f"{checked} items and {len(listed)} albums match the API")
    assert checked == len(_own_ids(sandbox)) and sorted(albums) == sorted(a["id"] for a in listed)


def test_export_files_are_what_the_hosts_serve(account):
    """An item's file is the original the image host (a photo) or the play URL (a video) serves.
    The owner's export holds every original: the account is made Pro while the API is asked, so
    that Flickr's 2025 rule for free accounts withholds none of them."""
    sandbox, client, exp = account
    compared = 0
    sandbox.store.run("UPDATE users SET ispro=1 WHERE nsid=?", (C.USER_NSID,))
    try:
        for pid in sorted(exp.files)[:3] + [m for m in exp.files if exp.files[m][1].endswith(".mp4")]:
            sizes = json.loads(client.rest("flickr.photos.getSizes", auth="oauth", photo_id=pid, format="json",
                                           nojsoncallback=1).body)["sizes"]["size"]
            labels = {s["label"]: s["source"] for s in sizes}  # a video has both: its poster's and its own
            source = labels.get("Video Original") or labels["Original"]
            served = client.raw("GET", source[len(sandbox.url):])
            assert served.status == 200 and served.body == exp.file(pid), (pid, source)
            compared += 1
    finally:
        sandbox.store.run("UPDATE users SET ispro=0 WHERE nsid=?", (C.USER_NSID,))
    print(f"{compared} files as served")
    assert compared == 4


def test_write_export_command_is_deterministic_and_overwrites_nothing(account, tmp_path):
    """``python -m flickr_sandbox --seed-photos N --write-export OUT`` writes the same bytes as the
    in-process export of the same account; a second run into OUT refuses and leaves it alone."""
    _, _, exp = account
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=SANDBOX_DIR)
    argv = [sys.executable, "-m", "flickr_sandbox", "--seed-photos", str(SEED_PHOTOS), "--write-export", str(out)]
    run = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert [os.path.basename(line) for line in run.stdout.split()] == exp.names
    digests = {name: hashlib.sha256((out / name).read_bytes()).hexdigest() for name in exp.names}
    assert digests == {name: hashlib.sha256(open(os.path.join(exp.folder, name), "rb").read()).hexdigest()
                       for name in exp.names}
    again = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
    print(f"second run: {again.returncode} {again.stderr.strip()!r}")
    assert again.returncode == 1 and "already holds" in again.stderr and "Traceback" not in again.stderr
    assert {name: hashlib.sha256((out / name).read_bytes()).hexdigest() for name in exp.names} == digests
    assert sorted(os.listdir(out)) == sorted(exp.names)
