# SPDX-License-Identifier: MIT
"""Where a photo sits: flickr.photos.getContext (photostream), flickr.photosets.getContext and
flickr.photos.getAllContexts (its albums and group pools)."""

from __future__ import annotations

import sqlite3

from ..envelope import Node
from ..errors import ApiError
from ..params import parse_unsigned
from .common import find_photo, person_path, visible
from .photolist import size_url
from .registry import Call, method


def _neighbour(call: Call, name: str, photo: sqlite3.Row | None, context: str) -> Node:
    """``<prevphoto>``/``<nextphoto>`` as Flickr writes them; ``id="0"`` at either end."""
    if photo is None:
        return Node(name, {"id": "0"})
    owner = call.store.owner(photo["owner"])
    faved = call.store.one("SELECT 1 FROM faves WHERE photo_id=? AND nsid=?",
                           (photo["id"], call.caller.nsid or ""))
    return Node(name, {
        "id": str(photo["id"]), "owner": photo["owner"], "secret": photo["secret"], "server": str(photo["server"]),
        "farm": int(photo["farm"]), "title": photo["title"],
        "url": f"/photos/{person_path(owner)}/{photo['id']}/in/{context}/",
        "thumb": size_url(call.base_url, photo, "s"), "license": str(photo["license"]), "media": photo["media"],
        "is_faved": int(faved is not None)})


@method("flickr.photos.getContext")
def get_context(call: Call) -> list[Node]:
    """The photos before (older) and after (newer) in the owner's photostream, as the caller
    sees it; ``count`` is the length of that stream (fixture: Flickr4Java's recording)."""
    photo = find_photo(call)
    stream = f"FROM photos p WHERE p.owner = ? AND {visible()}"
    args = (photo["owner"], call.caller.nsid or "")
    count = call.store.row(f"SELECT COUNT(*) AS n {stream}", args)["n"]
    key = (photo["dateupload"], photo["dateupload"], photo["id"])
    prev = call.store.one(f"SELECT p.* {stream} AND (p.dateupload < ? OR (p.dateupload = ? AND p.id < ?))"
                          " ORDER BY p.dateupload DESC, p.id DESC LIMIT 1", args + key)
    nxt = call.store.one(f"SELECT p.* {stream} AND (p.dateupload > ? OR (p.dateupload = ? AND p.id > ?))"
                         " ORDER BY p.dateupload ASC, p.id ASC LIMIT 1", args + key)
    return [Node("count", text=count), _neighbour(call, "prevphoto", prev, "photostream"),
            _neighbour(call, "nextphoto", nxt, "photostream")]


@method("flickr.photosets.getContext")
def get_set_context(call: Call) -> list[Node]:
    """The photos before and after in an album's order; error 2 when the photo is not in it."""
    photo = find_photo(call)
    set_id = parse_unsigned(call.arg("photoset_id"))
    members = call.store.all(
        f"SELECT p.* FROM photoset_photos sp JOIN photos p ON p.id = sp.photo_id WHERE sp.set_id = ?"
        f" AND {visible()} ORDER BY sp.position", (set_id if set_id is not None else -1, call.caller.nsid or ""))
    ids = [m["id"] for m in members]
    if photo["id"] not in ids:
        raise ApiError(2, "Photo not in set")
    at = ids.index(photo["id"])
    context = f"set-{set_id}"
    return [Node("count", text=len(ids)),
            _neighbour(call, "prevphoto", members[at - 1] if at > 0 else None, context),
            _neighbour(call, "nextphoto", members[at + 1] if at + 1 < len(ids) else None, context)]


@method("flickr.photos.getAllContexts")
def get_all_contexts(call: Call) -> list[Node]:
    """The albums and group pools that hold a photo, with the attributes Flickr gives them
    today (recorded JSON: title, id, primary, secret, server, farm, counts)."""
    photo = find_photo(call)
    out: list[Node] = []
    for row in call.store.all("SELECT s.* FROM photoset_photos sp JOIN photosets s ON s.id = sp.set_id"
                              " WHERE sp.photo_id = ? ORDER BY s.id", (photo["id"],)):
        counts = call.store.row(
            f"SELECT COUNT(*) AS n, COALESCE(SUM(p.media = 'video'), 0) AS videos FROM photoset_photos sp"
            f" JOIN photos p ON p.id = sp.photo_id WHERE sp.set_id = ? AND {visible()}",
            (row["id"], call.caller.nsid or ""))
        primary = call.store.photo(row["primary_photo"])
        out.append(Node("set", {
            "title": row["title"], "id": str(row["id"]), "primary": str(row["primary_photo"]),
            "secret": primary["secret"] if primary else "", "server": str(primary["server"]) if primary else "",
            "farm": int(primary["farm"]) if primary else "", "view_count": 0, "comment_count": 0,
            "count_photo": counts["n"] - counts["videos"], "count_video": counts["videos"]}))
    for group in call.store.all("SELECT g.*, (SELECT COUNT(*) FROM group_photos c WHERE c.group_id = g.nsid)"
                                " AS pool_count FROM group_photos gp JOIN groups g ON g.nsid = gp.group_id"
                                " WHERE gp.photo_id = ? ORDER BY g.nsid", (photo["id"],)):
        out.append(Node("pool", {
            "title": group["name"], "url": f"/groups/{group['path_alias'] or group['nsid']}/pool/",
            "id": str(group["nsid"]), "iconserver": str(group["iconserver"]), "iconfarm": int(group["iconfarm"]),
            "members": group["members"], "pool_count": group["pool_count"]}))
    return out
