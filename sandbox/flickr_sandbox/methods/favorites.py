# SPDX-License-Identifier: MIT
"""Favourites: flickr.photos.getFavorites (who faved a photo), flickr.favorites.getList and
flickr.favorites.getPublicList (what a member faved)."""

from __future__ import annotations

import math
import sqlite3

from ..envelope import Node
from .common import find_photo, find_user, photo_page, visible
from .criteria import unix_time
from .registry import Call, method


@method("flickr.photos.getFavorites")
def get_favorites(call: Call) -> list[Node]:
    """The members who faved a photo, latest first: 10 a page by default, 50 at most."""
    photo = find_photo(call)
    page, per_page = call.page_args(10, 50)
    total = call.store.row("SELECT COUNT(*) AS n FROM faves WHERE photo_id=?", (photo["id"],))["n"]
    node = Node("photo", {"id": str(photo["id"]), "secret": photo["secret"], "server": str(photo["server"]),
                          "farm": int(photo["farm"]), "page": page, "pages": math.ceil(total / per_page),
                          "perpage": per_page, "total": total})
    for row in call.store.all("SELECT f.nsid, f.favedate, u.username FROM faves f JOIN users u ON u.nsid = f.nsid"
                              " WHERE f.photo_id = ? ORDER BY f.favedate DESC, f.nsid LIMIT ? OFFSET ?",
                              (photo["id"], per_page, (page - 1) * per_page)):
        node.add("person", {"nsid": row["nsid"], "username": row["username"], "favedate": row["favedate"]})
    return [node]


def _faves(call: Call, user: sqlite3.Row, public_only: bool) -> list[Node]:
    where = ["f.nsid = ?", "p.ispublic = 1" if public_only else visible()]
    args: list[object] = [user["nsid"]] + ([] if public_only else [call.caller.nsid or ""])
    for name, op in (("min_fave_date", ">="), ("max_fave_date", "<=")):
        stamp = unix_time(call.arg(name)) if call.arg(name) else None
        if stamp is not None:
            where.append(f"f.favedate {op} ?")
            args.append(stamp)
    return photo_page(call, "FROM faves f JOIN photos p ON p.id = f.photo_id WHERE " + " AND ".join(where),
                      tuple(args), "f.favedate DESC, p.id DESC",
                      lambda row: {"date_faved": row["x_faved"]}, columns=", f.favedate AS x_faved")


@method("flickr.favorites.getList")
def get_list(call: Call) -> list[Node]:
    """A member's (by default the caller's) faves the caller may see, latest fave first."""
    return _faves(call, find_user(call), public_only=False)


@method("flickr.favorites.getPublicList")
def get_public_list(call: Call) -> list[Node]:
    """A member's faves of public photos, whoever asks."""
    return _faves(call, find_user(call, default_caller=False), public_only=True)
