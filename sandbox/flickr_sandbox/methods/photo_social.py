# SPDX-License-Identifier: MIT
"""A photo's social facts where other answers show them: photos.getInfo's ``isfavorite``,
``<comments>``, ``<notes>`` and ``<people haspeople>``; the counts the ``count_faves`` and
``count_comments`` extras give."""

from __future__ import annotations

from ..envelope import Node
from ..store import Store


def is_favorite(store: Store, photo_id: int, nsid: str | None) -> int:
    return int(nsid is not None and store.one("SELECT 1 FROM faves WHERE photo_id=? AND nsid=?",
                                              (photo_id, nsid)) is not None)


def count_comments(store: Store, photo_id: int) -> int:
    return int(store.row("SELECT COUNT(*) AS n FROM comments WHERE photo_id=?", (photo_id,))["n"])


def count_faves(store: Store, photo_id: int) -> int:
    return int(store.row("SELECT COUNT(*) AS n FROM faves WHERE photo_id=?", (photo_id,))["n"])


def has_people(store: Store, photo_id: int) -> int:
    return int(store.one("SELECT 1 FROM photo_people WHERE photo_id=?", (photo_id,)) is not None)


def notes_node(store: Store, photo_id: int) -> Node:
    """``<notes>`` as Flickr's getInfo writes it: ``<note id author authorname x y w h>text``."""
    node = Node("notes", list_of="note")
    for row in store.all("SELECT n.*, u.username FROM notes n LEFT JOIN users u ON u.nsid = n.author"
                         " WHERE n.photo_id = ? ORDER BY n.id", (photo_id,)):
        node.add("note", {"id": str(row["id"]), "author": row["author"], "authorname": row["username"] or "",
                          "x": str(row["x"]), "y": str(row["y"]), "w": str(row["w"]), "h": str(row["h"])}, text=row["text"])
    return node
