# SPDX-License-Identifier: MIT
"""flickr.photos.comments.getList, addComment and deleteComment."""

from __future__ import annotations

import secrets
import sqlite3
import time

from ..envelope import Node
from ..errors import ApiError
from ..limits import COMMENT_CHARS, COMMENTS_PER_AUTHOR, COMMENTS_PER_PHOTO, clip
from .common import find_photo, person_path
from .criteria import unix_time
from .registry import Call, method


def _comment_node(call: Call, photo: sqlite3.Row, row: sqlite3.Row) -> Node:
    """A comment with the attributes of Flickr's recorded answer (fixture comments.getList)."""
    author = call.store.user(row["author"])
    owner = call.store.owner(photo["owner"])
    number = str(row["id"]).rsplit("-", 1)[-1]
    return Node("comment", {
        "id": str(row["id"]), "author": row["author"], "author_is_deleted": int(author is None),
        "authorname": author["username"] if author else "", "iconserver": str(author["iconserver"]) if author else 0,
        "iconfarm": int(author["iconfarm"]) if author else 0, "datecreate": str(row["datecreate"]),
        "permalink": f"{call.base_url}/photos/{person_path(owner)}/{photo['id']}/#comment{number}",
        "path_alias": (author["path_alias"] or "") if author else "",
        "realname": author["realname"] if author else ""}, text=row["text"])


@method("flickr.photos.comments.getList")
def get_list(call: Call) -> list[Node]:
    """A photo's comments, oldest first, within ``min_comment_date``/``max_comment_date``."""
    photo = find_photo(call)
    where, args = ["photo_id = ?"], [photo["id"]]
    for name, op in (("min_comment_date", ">="), ("max_comment_date", "<=")):
        stamp = unix_time(call.arg(name)) if call.arg(name) else None
        if stamp is not None:
            where.append(f"datecreate {op} ?")
            args.append(stamp)
    node = Node("comments", {"photo_id": str(photo["id"])})
    for row in call.store.all(f"SELECT * FROM comments WHERE {' AND '.join(where)} ORDER BY datecreate, id",
                              tuple(args)):
        node.children.append(_comment_node(call, photo, row))
    return [node]


def _count(call: Call, column: str, value: object) -> int:
    return int(call.store.row(f"SELECT COUNT(*) AS n FROM comments WHERE {column} = ?", (value,))["n"])


@method("flickr.photos.comments.addComment", perms=2)
def add_comment(call: Call) -> list[Node]:
    """A comment by the caller on a photo they may see; the photo's lastupdate moves, as
    Flickr's recentlyUpdated counts a comment as a change. The text is cut to COMMENT_CHARS; past
    COMMENTS_PER_PHOTO on the photo or COMMENTS_PER_AUTHOR by the caller, Flickr's error 9."""
    photo = find_photo(call, "Photo not found.")
    text = clip(call.arg("comment_text"), COMMENT_CHARS)
    if not text:
        raise ApiError(8, "Blank comment.")
    author = call.caller.require_user()
    now = int(time.time())
    owner_number = str(photo["owner"]).split("@", 1)[0]
    comment_id = f"{owner_number}-{photo['id']}-{72157720000000000 + secrets.randbelow(10 ** 12)}"
    with call.store.transaction():
        if _count(call, "photo_id", photo["id"]) >= COMMENTS_PER_PHOTO or \
                _count(call, "author", author) >= COMMENTS_PER_AUTHOR:
            raise ApiError(9, "User is posting comments too fast.")
        call.store.run("INSERT INTO comments VALUES (?,?,?,?,?)",
                       (comment_id, photo["id"], author, now, text))
        call.store.run("UPDATE photos SET lastupdate=? WHERE id=?", (now, photo["id"]))
    row = call.store.row("SELECT * FROM comments WHERE id=?", (comment_id,))
    node = _comment_node(call, photo, row)
    del node.attrs["author_is_deleted"], node.attrs["iconserver"], node.attrs["iconfarm"]
    return [node]


@method("flickr.photos.comments.deleteComment", perms=2)
def delete_comment(call: Call) -> list[Node]:
    """The comment's author or the photo's owner may delete it; anyone else gets error 2."""
    row = call.store.one("SELECT * FROM comments WHERE id=?", (call.arg("comment_id"),))
    photo = call.store.photo(row["photo_id"]) if row is not None else None
    if row is None or photo is None:
        raise ApiError(2, "Comment not found.")
    if call.caller.nsid not in (row["author"], photo["owner"]):
        raise ApiError(2, "Comment not found.")
    with call.store.transaction():
        call.store.run("DELETE FROM comments WHERE id=?", (row["id"],))
        call.store.run("UPDATE photos SET lastupdate=? WHERE id=?", (int(time.time()), photo["id"]))
    return []
