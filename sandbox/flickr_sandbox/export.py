# SPDX-License-Identifier: MIT
"""``--write-export OUT``: the sandbox user's account export, in the form of Flickr's "Your Flickr
Data" (docs/export.md gives each fact's public source and what is assumed).

A metadata zip ``NNNNNNNNNNNNNNNNN_HHHHHHHHHHHH_part1.zip`` (``photo_<id>.json`` per item,
``albums.json``, ``galleries.json``, ``account_profile.json``, ``photos_comments_part001.json``,
``faves_part001.json``) and the files in ``data-download-1.zip``, ``-2``..., with the quirks real
exports have: the files split over several zips, one item missing from them, both file-name
forms (``slug_<id>_o.ext``, older ``<id>_<secret>_o.ext``), same-slug titles kept apart only by
the id, the per-photo ``albums`` always empty (albums.json has them), friends-only and
family-only both written ``"friend & family"``, geotags in millionths of a degree.

The same store gives the same bytes: items in id order, fixed zip times, no clock read.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import time
import zipfile
from typing import Any

from . import constants as C
from .methods.licenses import LICENSES
from .methods.photolist import SIZES, size_dims
from .pictures.cache import picture_bytes
from .store import Store
from .videos import video_bytes

FILES_PER_ZIP = 500  # what a real export's data-download zips held (docs/export.md)
OLD_NAME_EVERY = 4  # one file in 4 named the older way, <id>_<secret>_o.ext (assumed share)
ZIP_TIME = (2026, 1, 1, 0, 0, 0)  # fixed, so the same store gives the same bytes
SITE = "https://www.flickr.com"
_LICENCE_NAMES = {number: name for number, name, _ in LICENSES}
_SAFETY = {0: "safe", 1: "safe", 2: "moderate", 3: "restricted"}
_ORIGINAL = next(size for size in SIZES if size[1] == "o")


def slug(title: str) -> str:
    """A title as the newer file names carry it: lower case, runs of other characters as one
    hyphen (assumed from the examples, docs/export.md)."""
    return re.sub(r"[^0-9a-z]+", "-", title.lower()).strip("-")


def extension(photo: sqlite3.Row) -> str:
    """A seeded video's original is the MP4 its play URL serves; anything else keeps its format."""
    return "mp4" if photo["media"] == "video" and not photo["file_path"] else str(photo["originalformat"])


def file_name(index: int, photo: sqlite3.Row) -> str:
    """The name of an item's original in a data-download zip: both forms, by position."""
    name = slug(str(photo["title"]))
    if index % OLD_NAME_EVERY == OLD_NAME_EVERY - 1 or not name:
        return f"{photo['id']}_{photo['originalsecret']}_o.{extension(photo)}"
    return f"{name}_{photo['id']}_o.{extension(photo)}"


def _stamp(seconds: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(seconds))


def _privacy(photo: sqlite3.Row) -> str:
    """Flickr's export writes friends-only and family-only items alike (docs/export.md)."""
    if photo["ispublic"]:
        return "public"
    return "friend & family" if photo["isfriend"] or photo["isfamily"] else "private"


def _geo(photo: sqlite3.Row) -> dict[str, str] | None:
    if photo["latitude"] is None or photo["longitude"] is None:
        return None
    return {"latitude": str(round(photo["latitude"] * 1_000_000)),
            "longitude": str(round(photo["longitude"] * 1_000_000)), "accuracy": str(photo["accuracy"] or 0)}


def photo_json(store: Store, owner: sqlite3.Row, photo: sqlite3.Row) -> dict[str, Any]:
    """``photo_<id>.json``: the members and their order of the real files quoted in docs/export.md."""
    pid = photo["id"]
    alias = owner["path_alias"] or owner["nsid"]

    def count(sql: str) -> str:
        return str(store.row(sql, (pid,))[0])
    tags = store.tags(pid)
    comments = store.all("SELECT * FROM comments WHERE photo_id=? ORDER BY datecreate, id", (pid,))
    return {
        "id": str(pid), "name": photo["title"], "description": photo["description"],
        "count_views": str(photo["views"]), "count_faves": count("SELECT COUNT(*) FROM faves WHERE photo_id=?"),
        "count_comments": str(len(comments)), "date_taken": photo["datetaken"], "count_tags": str(len(tags)),
        "count_notes": count("SELECT COUNT(*) FROM notes WHERE photo_id=?"), "rotation": 0,
        "date_imported": _stamp(photo["dateupload"]), "photopage": f"{SITE}/photos/{alias}/{pid}/",
        "original": f"https://live.staticflickr.com/{photo['server']}/{pid}_{photo['originalsecret']}"
                    f"_o.{extension(photo)}",
        "license": _LICENCE_NAMES.get(photo["license"], "All Rights Reserved"), "geo": _geo(photo),
        "groups": [], "albums": [],  # always empty in real exports: albums.json has the albums
        "tags": [{"tag": t["raw"], "user": f"{SITE}/photos/{alias}/", "date_create": _stamp(photo["dateupload"])}
                 for t in tags],
        "people": [], "notes": [], "privacy": _privacy(photo), "comment_permissions": "any flickr member",
        "tagging_permissions": "people you follow", "safety": _SAFETY.get(photo["safety_level"], "safe"),
        "comments": [{"id": str(c["id"]), "date": _stamp(c["datecreate"]), "user": f"{SITE}/people/{c['author']}/",
                      "comment": c["text"]} for c in comments],
    }


def _albums(store: Store, alias: str, nsid: str) -> dict[str, Any]:
    albums = []
    for row in store.all("SELECT * FROM photosets WHERE owner=? ORDER BY id", (nsid,)):
        members = [str(r[0]) for r in store.all("SELECT photo_id FROM photoset_photos WHERE set_id=? ORDER BY position",
                                                (row["id"],))]
        albums.append({"photo_count": str(len(members)), "id": str(row["id"]),
                       "url": f"{SITE}/photos/{alias}/albums/{row['id']}", "title": row["title"],
                       "description": row["description"], "view_count": "0", "created": str(row["date_create"]),
                       "last_updated": str(row["date_update"]),
                       "cover_photo": f"{SITE}/photos/{alias}/{row['primary_photo']}", "photos": members})
    return {"albums": albums}


def _galleries(store: Store, alias: str, nsid: str) -> dict[str, Any]:
    galleries = []
    for row in store.all("SELECT * FROM galleries WHERE owner=? ORDER BY id", (nsid,)):
        members = [str(r[0]) for r in store.all("SELECT photo_id FROM gallery_photos WHERE gallery_id=?"
                                                " ORDER BY position", (row["id"],))]
        galleries.append({"id": str(row["id"]), "title": row["title"], "description": row["description"],
                          "url": f"{SITE}/photos/{alias}/galleries/{row['id']}/", "photo_count": str(len(members)),
                          "photos": members})
    return {"galleries": galleries}


def _profile(owner: sqlite3.Row) -> dict[str, Any]:
    alias = owner["path_alias"] or owner["nsid"]
    return {"real_name": owner["realname"], "nsid": owner["nsid"], "screen_name": owner["username"],
            "profile_url": f"{SITE}/people/{alias}/", "join_date": _stamp(owner["date_joined"]),
            "description": owner["description"], "pro_user": "yes" if owner["ispro"] else "no"}


def _original(store: Store, photo: sqlite3.Row) -> bytes:
    """The item's original: an upload's bytes, else what the image or video host serves for it."""
    if photo["file_path"]:
        with open(photo["file_path"], "rb") as f:
            return f.read()
    dims = (int(photo["width"]), int(photo["height"]))
    if photo["media"] == "video":
        return video_bytes(photo, dims)
    return picture_bytes(photo, "o", size_dims(photo, _ORIGINAL) or dims)


def _write_zip(path: str, members: list[tuple[str, bytes]]) -> None:
    """A zip written under a temporary name, then renamed: never a half-written export file."""
    part = path + ".part"
    with zipfile.ZipFile(part, "x", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            zf.writestr(zipfile.ZipInfo(name, ZIP_TIME), data, zipfile.ZIP_DEFLATED)
    os.replace(part, path)


def metadata_zip_name(nsid: str) -> str:
    digest = hashlib.sha256(nsid.encode()).hexdigest()
    return f"{72157700000000000 + int(digest[:12], 16) % 10 ** 11}_{digest[12:24]}_part1.zip"


def write_export(store: Store, out: str, nsid: str = C.USER_NSID) -> list[str]:
    """Write the account export of ``nsid`` into the folder ``out`` (made if missing, and it must
    hold none of the files written); return the zip names, metadata zip first."""
    owner = store.owner(nsid)
    alias = owner["path_alias"] or owner["nsid"]
    photos = store.all("SELECT * FROM photos WHERE owner=? ORDER BY id", (nsid,))
    meta: list[tuple[str, bytes]] = []
    for photo in photos:
        meta.append((f"photo_{photo['id']}.json", _json(photo_json(store, owner, photo))))
    meta.append(("albums.json", _json(_albums(store, alias, nsid))))
    meta.append(("galleries.json", _json(_galleries(store, alias, nsid))))
    meta.append(("account_profile.json", _json(_profile(owner))))
    mine = store.all("SELECT * FROM comments WHERE author=? ORDER BY datecreate, id", (nsid,))
    meta.append(("photos_comments_part001.json", _json({"comments": [
        {"photo_id": str(c["photo_id"]), "comment_id": str(c["id"]), "message": c["text"],
         "date_create": _stamp(c["datecreate"])} for c in mine]})))
    faves = store.all("SELECT * FROM faves WHERE nsid=? ORDER BY favedate, photo_id", (nsid,))
    meta.append(("faves_part001.json", _json({"favorites": [
        {"photo_id": str(f["photo_id"]), "photo_url": f"{SITE}/photos/{f['photo_id']}/",
         "date_faved": _stamp(f["favedate"])} for f in faves]})))
    # The files: every ready item but one (real exports miss some), split over several zips.
    kept = [p for p in photos if p["media_status"] == "ready"]
    missing = kept[len(kept) // 2]["id"] if kept else None
    files = [(file_name(i, p), p) for i, p in enumerate(kept) if p["id"] != missing]
    per_zip = max(1, min(FILES_PER_ZIP, -(-len(files) // 3)))  # a small account still gets three zips
    os.makedirs(out, exist_ok=True)
    names = [metadata_zip_name(nsid)] + [f"data-download-{n + 1}.zip" for n in range(-(-len(files) // per_zip))]
    taken = [n for n in names if os.path.lexists(os.path.join(out, n))]
    if taken:
        raise FileExistsError(f"{out} already holds {taken[0]}: the export writes into an empty place")
    _write_zip(os.path.join(out, names[0]), meta)
    for n, name in enumerate(names[1:]):
        chunk = files[n * per_zip:(n + 1) * per_zip]
        _write_zip(os.path.join(out, name), [(file, _original(store, p)) for file, p in chunk])
    return names


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, indent=1).encode("utf-8")
