# SPDX-License-Identifier: MIT
"""flickr.photosets.create, getList, getInfo, getPhotos, addPhoto."""

from __future__ import annotations

import math
import sqlite3
import time

from ..envelope import Node
from ..errors import ApiError
from ..limits import DESCRIPTION_CHARS, PHOTOSETS_PER_USER, TITLE_CHARS, clip
from ..params import parse_unsigned
from .limit_table import MAX_PER_PAGE
from .photolist import parse_extras, photo_element
from .registry import Call, method


def _set_or_fail(call: Call) -> sqlite3.Row:
    set_id = parse_unsigned(call.arg("photoset_id"))
    row = call.store.one("SELECT * FROM photosets WHERE id=?", (set_id,)) if set_id is not None else None
    if row is None:
        raise ApiError(1, "Photoset not found")
    return row


def _visible_members(call: Call, set_id: int) -> list[sqlite3.Row]:
    return call.store.all(
        "SELECT p.* FROM photoset_photos sp JOIN photos p ON p.id = sp.photo_id"
        " WHERE sp.set_id = ? AND (p.ispublic = 1 OR p.owner = ?) ORDER BY sp.position",
        (set_id, call.caller.nsid or ""))


@method("flickr.photosets.create", perms=2)
def create(call: Call) -> list[Node]:
    title = clip(call.arg("title"), TITLE_CHARS)
    if not title:
        raise ApiError(1, "No title specified")
    primary = call.store.photo(call.arg("primary_photo_id"))
    if primary is None or primary["owner"] != call.caller.nsid:
        raise ApiError(2, "Photo not found")
    now = int(time.time())
    with call.store.transaction():
        if call.store.row("SELECT COUNT(*) AS n FROM photosets WHERE owner=?",
                          (call.caller.nsid,))["n"] >= PHOTOSETS_PER_USER:
            raise ApiError(3, "Can't create any more sets")
        set_id = call.store.next_value("photoset", 72157700000000010)
        call.store.run("INSERT INTO photosets VALUES (?,?,?,?,?,?,?)",
                       (set_id, call.caller.nsid, title, clip(call.arg("description"), DESCRIPTION_CHARS),
                        primary["id"], now, now))
        call.store.run("INSERT INTO photoset_photos VALUES (?,?,0)", (set_id, primary["id"]))
    owner = call.store.owner(call.caller.require_user())
    return [Node("photoset", {"id": str(set_id), "url":
                              f"{call.base_url}/photos/{owner['path_alias'] or owner['nsid']}/sets/{set_id}/"})]


@method("flickr.photosets.getList")
def get_list(call: Call) -> list[Node]:
    ident = call.arg("user_id") or call.caller.nsid
    user = call.store.find_user(ident) if ident else None
    if user is None:
        raise ApiError(1, "User not found")
    page, per_page = call.page_args(MAX_PER_PAGE)
    sets = call.store.all("SELECT * FROM photosets WHERE owner=? ORDER BY date_create DESC, id DESC",
                          (user["nsid"],))
    node = Node("photosets", {"cancreate": int(call.caller.nsid == user["nsid"]), "page": page,
                              "pages": math.ceil(len(sets) / per_page), "perpage": per_page,
                              "total": len(sets)}, list_of="photoset")
    for row in sets[(page - 1) * per_page: page * per_page]:
        members = _visible_members(call, row["id"])
        primary = call.store.photo(row["primary_photo"])
        photos = sum(1 for m in members if m["media"] == "photo")
        videos = len(members) - photos
        item = node.add("photoset", {
            "id": str(row["id"]), "owner": user["nsid"], "username": user["username"],
            **_primary_attrs(primary, row), "count_views": "0", "count_comments": "0",
            "count_photos": photos, "count_videos": videos,
            "can_comment": int(call.caller.nsid is not None), "date_create": str(row["date_create"]),
            "date_update": str(row["date_update"]), "photos": photos, "videos": videos,
            "visibility_can_see_set": 1, "needs_interstitial": 0})
        item.add("title", text=row["title"])
        item.add("description", text=row["description"])
        item.add("primary_photo_extras", {"lastupdate": str(primary["lastupdate"] if primary else 0),
                                          "ownername": user["username"]})
    return [node]


@method("flickr.photosets.getInfo")
def get_info(call: Call) -> list[Node]:
    row = _set_or_fail(call)
    owner = call.store.owner(row["owner"])
    members = _visible_members(call, row["id"])
    primary = call.store.photo(row["primary_photo"])
    photos = sum(1 for m in members if m["media"] == "photo")
    # Flickr's attribute order (jinx's recorded photosets.getInfo): counts, title, then dates.
    node = Node("photoset", {
        "id": str(row["id"]), "owner": owner["nsid"], "username": owner["username"],
        **_primary_attrs(primary, row), "photos": photos, "count_views": "0", "count_comments": "0",
        "count_photos": photos, "count_videos": len(members) - photos,
        "can_comment": int(call.caller.nsid is not None), "date_create": str(row["date_create"]),
        "date_update": str(row["date_update"]), "coverphoto_server": 0, "coverphoto_farm": 0})
    node.add("title", text=row["title"])
    node.add("description", text=row["description"])
    return [node]


def _primary_attrs(primary: sqlite3.Row | None, row: sqlite3.Row) -> dict[str, object]:
    """primary, secret, server (strings) and farm (a number) of a set's cover photo."""
    return {"primary": str(row["primary_photo"]), "secret": primary["secret"] if primary else "",
            "server": str(primary["server"]) if primary else "", "farm": int(primary["farm"]) if primary else 0}


@method("flickr.photosets.getPhotos")
def get_photos(call: Call) -> list[Node]:
    row = _set_or_fail(call)
    owner = call.store.owner(row["owner"])
    user_id = call.arg("user_id")
    if user_id and user_id != owner["nsid"] and user_id != (owner["path_alias"] or None):
        raise ApiError(1, "Photoset not found")  # Flickr: the set must be the given user's
    page, per_page = call.page_args(MAX_PER_PAGE)
    members = _visible_members(call, row["id"])
    extras = parse_extras(call.arg("extras"))
    node = Node("photoset", {"id": str(row["id"]), "primary": str(row["primary_photo"]), "owner": owner["nsid"],
                             "ownername": owner["username"], "page": page, "per_page": per_page,
                             "perpage": per_page, "pages": math.ceil(len(members) / per_page),
                             "title": row["title"], "total": len(members)}, list_of="photo")
    for photo in members[(page - 1) * per_page: page * per_page]:
        # isprimary is a string in Flickr's JSON ("isprimary":"1"), unlike ispublic.
        node.children.append(photo_element(call.store, call.base_url, photo, extras,
                                           {"isprimary": str(int(photo["id"] == row["primary_photo"]))},
                                           with_owner=False, viewer=call.caller.nsid))
    return [node]


@method("flickr.photosets.addPhoto", perms=2)
def add_photo(call: Call) -> list[Node]:
    row = _set_or_fail(call)
    if row["owner"] != call.caller.nsid:
        raise ApiError(1, "Photoset not found")
    photo = call.store.photo(call.arg("photo_id"))
    if photo is None or photo["owner"] != call.caller.nsid:  # one's own photos are always visible
        raise ApiError(2, "Photo not found")
    with call.store.transaction():
        if call.store.one("SELECT 1 FROM photoset_photos WHERE set_id=? AND photo_id=?",
                          (row["id"], photo["id"])):
            raise ApiError(3, "Photo already in set")
        pos = call.store.row("SELECT COALESCE(MAX(position), -1) + 1 AS n FROM photoset_photos"
                             " WHERE set_id=?", (row["id"],))["n"]
        call.store.run("INSERT INTO photoset_photos VALUES (?,?,?)", (row["id"], photo["id"], pos))
        call.store.run("UPDATE photosets SET date_update=? WHERE id=?", (int(time.time()), row["id"]))
    return []
