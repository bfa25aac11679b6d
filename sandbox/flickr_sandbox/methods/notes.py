# SPDX-License-Identifier: MIT
"""flickr.photos.notes.add, edit and delete: boxes in the 500-pixel view of a photo."""

from __future__ import annotations

import sqlite3
import time

from ..envelope import Node
from ..errors import ApiError
from ..limits import NOTE_CHARS, NOTES_PER_AUTHOR, NOTES_PER_PHOTO, clip
from ..params import parse_int, parse_unsigned
from ..seed_extras import FIRST_NOTE_ID
from .common import find_photo
from .registry import Call, method

_BOX = ("note_x", "note_y", "note_w", "note_h")


def _box(call: Call) -> tuple[int, int, int, int, str]:
    """The note's box and text; error 3 when any is missing or a coordinate is no number."""
    values = [parse_int(call.arg(name), 0, 100000) for name in _BOX]
    text = clip(call.arg("note_text"), NOTE_CHARS)
    if any(v is None for v in values) or not text:
        raise ApiError(3, "Missing required arguments")
    x, y, w, h = (int(v or 0) for v in values)
    return x, y, w, h, text


def _note(call: Call, action: str) -> tuple[sqlite3.Row, sqlite3.Row]:
    """The note ``note_id`` names and its photo; the caller must be its author or the photo's owner."""
    number = parse_unsigned(call.arg("note_id"))
    note = call.store.one("SELECT * FROM notes WHERE id=?", (number,)) if number is not None else None
    photo = call.store.photo(note["photo_id"]) if note is not None else None
    if note is None or photo is None:
        raise ApiError(1, "Note not found")
    if call.caller.nsid not in (note["author"], photo["owner"]):
        raise ApiError(2, f"User cannot {action} note")
    return note, photo


def _touch(call: Call, photo_id: int) -> None:
    call.store.run("UPDATE photos SET lastupdate=? WHERE id=?", (int(time.time()), photo_id))


@method("flickr.photos.notes.add", perms=2)
def add(call: Call) -> list[Node]:
    """A note on a photo the caller may see; only its owner may add one (no contacts exist in
    the sandbox to whom the owner's "add notes" permission could extend)."""
    photo = find_photo(call)
    box = _box(call)
    if photo["owner"] != call.caller.nsid:
        raise ApiError(2, "User cannot add notes")
    with call.store.transaction():
        # Flickr documents both errors without their numbers: the bounds are limits.py's.
        if call.store.row("SELECT COUNT(*) AS n FROM notes WHERE photo_id=?", (photo["id"],))["n"] >= NOTES_PER_PHOTO:
            raise ApiError(4, "Maximum number of notes reached")
        if call.store.row("SELECT COUNT(*) AS n FROM notes WHERE author=?",
                          (call.caller.nsid,))["n"] >= NOTES_PER_AUTHOR:
            raise ApiError(6, "User is posting notes too fast.")
        note_id = call.store.next_value("note", FIRST_NOTE_ID)
        call.store.run("INSERT INTO notes VALUES (?,?,?,?,?,?,?,?)",
                       (note_id, photo["id"], call.caller.require_user()) + box)
        _touch(call, photo["id"])
    return [Node("note", {"id": note_id})]


@method("flickr.photos.notes.edit", perms=2)
def edit(call: Call) -> list[Node]:
    note, photo = _note(call, "edit")
    x, y, w, h, text = _box(call)
    with call.store.transaction():
        call.store.run("UPDATE notes SET x=?, y=?, w=?, h=?, text=? WHERE id=?", (x, y, w, h, text, note["id"]))
        _touch(call, photo["id"])
    return []


@method("flickr.photos.notes.delete", perms=2)
def delete(call: Call) -> list[Node]:
    note, photo = _note(call, "delete")
    with call.store.transaction():
        call.store.run("DELETE FROM notes WHERE id=?", (note["id"],))
        _touch(call, photo["id"])
    return []
