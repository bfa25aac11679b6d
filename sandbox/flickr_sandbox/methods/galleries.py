# SPDX-License-Identifier: MIT
"""flickr.galleries.getList and flickr.galleries.getPhotos."""

from __future__ import annotations

import math
import sqlite3

from ..envelope import Node
from ..errors import ApiError
from .common import find_user, person_path, photo_page, visible
from .registry import Call, method


def _gallery(call: Call) -> sqlite3.Row:
    """A gallery by its ``gallery_id`` or its full id (``{user number}-{gallery_id}``)."""
    wanted = call.arg("gallery_id").rsplit("-", 1)[-1]
    row = call.store.one("SELECT * FROM galleries WHERE id=?", (wanted,)) if wanted else None
    if row is None:
        raise ApiError(1, "Gallery not found")
    return row


@method("flickr.galleries.getList")
def get_list(call: Call) -> list[Node]:
    """A member's galleries, newest first, with the attributes of Flickr4Java's recording."""
    user = find_user(call)
    page, per_page = call.page_args(100)
    rows = call.store.all("SELECT * FROM galleries WHERE owner=? ORDER BY date_create DESC, id DESC",
                          (user["nsid"],))
    node = Node("galleries", {"total": len(rows), "per_page": per_page, "user_id": user["nsid"], "page": page,
                              "pages": math.ceil(len(rows) / per_page)})
    number = str(user["nsid"]).split("@", 1)[0]
    for row in rows[(page - 1) * per_page: page * per_page]:
        counts = call.store.row(
            f"SELECT COUNT(*) AS n, COALESCE(SUM(p.media = 'video'), 0) AS videos FROM gallery_photos gp"
            f" JOIN photos p ON p.id = gp.photo_id WHERE gp.gallery_id = ? AND {visible()}",
            (row["id"], call.caller.nsid or ""))
        primary = call.store.photo(row["primary_photo"]) if row["primary_photo"] else None
        item = node.add("gallery", {
            "id": f"{number}-{row['id']}", "gallery_id": row["id"],
            "url": f"{call.base_url}/photos/{person_path(user)}/galleries/{row['id']}",
            "owner": user["nsid"], "username": user["username"], "iconserver": str(user["iconserver"]),
            "iconfarm": int(user["iconfarm"]), "primary_photo_id": row["primary_photo"] or 0,
            "date_create": str(row["date_create"]), "date_update": str(row["date_update"]),
            "count_photos": counts["n"] - counts["videos"], "count_videos": counts["videos"],
            "count_views": 0, "count_comments": 0, "sort_group": "",
            "primary_photo_server": primary["server"] if primary else 0,
            "primary_photo_farm": primary["farm"] if primary else 0,
            "primary_photo_secret": primary["secret"] if primary else ""})
        item.add("title", text=row["title"])
        item.add("description", text=row["description"])
    return [node]


@method("flickr.galleries.getPhotos")
def get_photos(call: Call) -> list[Node]:
    """A gallery's photos in its order, as a standard photo list: ``is_primary`` and
    ``has_comment`` on each, and the curator's ``<comment>`` where there is one."""
    gallery = _gallery(call)
    page = photo_page(call, f"FROM gallery_photos gp JOIN photos p ON p.id = gp.photo_id"
                            f" WHERE gp.gallery_id = ? AND {visible()}", (gallery["id"], call.caller.nsid or ""),
                      "gp.position", lambda row: {"is_primary": int(row["id"] == gallery["primary_photo"]),
                                                  "has_comment": int(bool(row["x_comment"]))},
                      columns=", gp.comment AS x_comment")
    comments = {row["photo_id"]: row["comment"] for row in call.store.all(
        "SELECT photo_id, comment FROM gallery_photos WHERE gallery_id=? AND comment != ''", (gallery["id"],))}
    for node in page[0].children:
        text = comments.get(int(node.attrs["id"]))
        if text:
            node.children.insert(0, Node("comment", text=text))
    return page
