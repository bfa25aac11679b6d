# SPDX-License-Identifier: MIT
"""flickr.collections.getTree and flickr.collections.getInfo: a member's albums, nested."""

from __future__ import annotations

import hashlib
import sqlite3

from ..envelope import Node
from ..errors import ApiError
from .common import find_user, visible
from .registry import Call, method

MAX_ICON_PHOTOS = 12  # Flickr's collection mosaic (Flickr4Java's recording shows twelve)


def _icons(call: Call, collection: sqlite3.Row) -> dict[str, object]:
    """Flickr's URLs for a collection without an icon of its own: the default picture."""
    return {"iconlarge": f"{call.base_url}/images/collection_default_l.gif",
            "iconsmall": f"{call.base_url}/images/collection_default_s.gif"}


def _tree(call: Call, collection: sqlite3.Row) -> Node:
    node = Node("collection", {"id": str(collection["id"]), "title": collection["title"],
                               "description": collection["description"]} | _icons(call, collection))
    for child in call.store.all("SELECT * FROM collections WHERE parent=? ORDER BY position, id",
                                (collection["id"],)):
        node.children.append(_tree(call, child))
    for row in call.store.all("SELECT s.* FROM collection_sets cs JOIN photosets s ON s.id = cs.set_id"
                              " WHERE cs.collection_id = ? ORDER BY cs.position", (collection["id"],)):
        node.add("set", {"id": str(row["id"]), "title": row["title"], "description": row["description"]})
    return node


@method("flickr.collections.getTree")
def get_tree(call: Call) -> list[Node]:
    """The tree under ``collection_id`` (0 or absent: the root) of ``user_id`` (by default the
    caller); error 1 for an unknown member, 2 for a collection that is not theirs."""
    user = find_user(call)
    wanted = call.arg("collection_id")
    node = Node("collections")
    if wanted and wanted != "0":
        collection = call.store.one("SELECT * FROM collections WHERE id=? AND owner=?", (wanted, user["nsid"]))
        if collection is None:
            raise ApiError(2, "Collection not found")
        node.children.append(_tree(call, collection))
        return [node]
    for top in call.store.all("SELECT * FROM collections WHERE owner=? AND parent IS NULL ORDER BY position, id",
                              (user["nsid"],)):
        node.children.append(_tree(call, top))
    return [node]


def _member_sets(call: Call, collection_id: str) -> list[int]:
    """The albums in a collection and in the collections below it."""
    sets = [row["set_id"] for row in call.store.all(
        "SELECT set_id FROM collection_sets WHERE collection_id=? ORDER BY position", (collection_id,))]
    for child in call.store.all("SELECT id FROM collections WHERE parent=? ORDER BY position, id", (collection_id,)):
        sets += _member_sets(call, child["id"])
    return sets


@method("flickr.collections.getInfo", perms=1)
def get_info(call: Call) -> list[Node]:
    """One of the caller's collections (Flickr: "currently can only be called by the collection
    owner"): its child count, dates and the album covers of its mosaic."""
    collection = call.store.one("SELECT * FROM collections WHERE id=? AND owner=?",
                                (call.arg("collection_id"), call.caller.require_user()))
    if collection is None:
        raise ApiError(1, "Collection not found")
    children = call.store.row(
        "SELECT (SELECT COUNT(*) FROM collections WHERE parent=?) + (SELECT COUNT(*) FROM collection_sets"
        " WHERE collection_id=?) AS n", (collection["id"], collection["id"]))["n"]
    secret = hashlib.sha1(f"collection-{collection['id']}".encode()).hexdigest()[:10]
    node = Node("collection", {"id": str(collection["id"]), "child_count": children,
                               "datecreate": str(collection["date_create"])} | _icons(call, collection)
                | {"server": 0, "secret": secret})
    node.add("title", text=collection["title"])
    node.add("description", text=collection["description"])
    icons = node.add("iconphotos")
    for set_id in _member_sets(call, collection["id"])[:MAX_ICON_PHOTOS]:
        photo = call.store.one(f"SELECT p.* FROM photosets s JOIN photos p ON p.id = s.primary_photo"
                               f" WHERE s.id = ? AND {visible()}", (set_id, call.caller.nsid or ""))
        if photo is not None:
            icons.add("photo", {"id": str(photo["id"]), "owner": photo["owner"], "secret": photo["secret"],
                                "server": str(photo["server"]), "farm": int(photo["farm"]), "title": photo["title"],
                                "ispublic": photo["ispublic"], "isfriend": photo["isfriend"],
                                "isfamily": photo["isfamily"]})
    return [node]
