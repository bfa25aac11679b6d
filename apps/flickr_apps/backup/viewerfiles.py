# SPDX-License-Identifier: MIT
"""Which of the viewer's names in DIR the backup may write: nothing overwritten that it did not
create (docs/backup.md, "Browsing the archive").

A file at one of the viewer's names (index.html, viewer/*, viewer/data/*) is the backup's when
the state records it: index.html and viewer/'s files by their SHA-256 as last written (`RECORD`),
the data files by name (viewerdata's `viewer_files`). Also the backup's: a file that already holds
what would be written; and, in a DIR whose state has no record yet (written before it existed),
every viewer file when an earlier run wrote the viewer's data (that version wrote them all,
whatever stood there), and an index.html that is the single page written before the viewer.
Anything else (a user's file, a folder, a link) makes the viewer not installed this run: its
files are left as they are and the report says which; the rest of the run is not affected.
A FIFO, socket or device at a name is replaced, as everywhere in DIR (SafeDir notes it).
"""
from __future__ import annotations

import hashlib
import json
import stat
from typing import TYPE_CHECKING, Optional

from .safedir import SafeDir

if TYPE_CHECKING:
    from .state import State

RECORD = "viewer_written"  # the state's meta key: {path: sha256} of the viewer's files last written
DATA_RECORD = "viewer_files"  # viewerdata's: the data files' names the last run wrote
# What index.html began with before the viewer (every run wrote it whatever stood there).
_OLD_PAGE = b'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Flickr backup of '
_SHOWN = 5


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def not_ours(root: SafeDir, state: "State", files: list[tuple[str, bytes]], data: list[str]) -> list[str]:
    """The paths, from DIR, among the viewer's `files` (path, content) and `data` (names in
    viewer/data/) where something stands that the backup did not write."""
    record = json.loads(state.meta(RECORD) or "{}")
    written = state.meta(DATA_RECORD)
    earlier_viewer = not record and written is not None
    data_written = set(json.loads(written or "[]"))
    found: list[str] = []
    for path, content in files:
        kind, value = look(root, path)
        if kind == "file" and not (value in (record.get(path), sha256(content)) or earlier_viewer
                                   or (not record and path == "index.html" and _old_page(root))):
            found.append(path)
        elif kind == "in the way" and value:
            found.append(value)
    for name in data:
        path = f"viewer/data/{name}"
        kind, value = look(root, path, digest=False)
        if kind == "file" and name not in data_written:
            found.append(path)
        elif kind == "in the way" and value:
            found.append(value)
    return sorted(set(found))


def remember(state: "State", files: list[tuple[str, bytes]]) -> None:
    """Records `files` as the backup's, as just written; the record's other files stay recorded
    (Leaflet's, written by a run when it was installed, are still the backup's when it is not)."""
    record = json.loads(state.meta(RECORD) or "{}")
    record.update({path: sha256(content) for path, content in files})
    state.set_meta(RECORD, json.dumps(record, sort_keys=True))


def note(paths: list[str]) -> str:
    """The report's line: why the viewer was not installed, and what to do."""
    shown = ", ".join(paths[:_SHOWN]) + (f" and {len(paths) - _SHOWN} more" if len(paths) > _SHOWN else "")
    one = len(paths) == 1
    return (f"the viewer was not installed: {shown} {'is' if one else 'are'} not the backup's (left as "
            f"{'it is' if one else 'they are'}); move {'it' if one else 'them'} away and the next run installs it")


def look(root: SafeDir, path: str, digest: bool = True) -> tuple[str, Optional[str]]:
    """What stands at `path` below root, never through a link: ("absent", None), ("file",
    its sha256, or None when not `digest`), ("odd", None) for a FIFO, socket or device, or ("in
    the way", its path) for a link, a folder, or a file where a folder goes."""
    *folders, name = path.split("/")
    opened: list[SafeDir] = []
    here = root
    try:
        for n, part in enumerate(folders):
            found = here.lstat(part)
            if found is None:
                return "absent", None
            if not stat.S_ISDIR(found.st_mode):
                return "in the way", "/".join(folders[:n + 1])
            try:
                here = here.subdir(part, create=False)
            except OSError:  # replaced by a link since: in the way
                return "in the way", "/".join(folders[:n + 1])
            opened.append(here)
        found = here.lstat(name)
        if found is None:
            return "absent", None
        if stat.S_ISREG(found.st_mode):
            whole = here.digest(name) if digest else None
            return "file", whole[1] if whole else None
        if stat.S_ISLNK(found.st_mode) or stat.S_ISDIR(found.st_mode):
            return "in the way", path
        return "odd", None
    finally:
        for folder in opened:
            folder.close()


def _old_page(root: SafeDir) -> bool:
    try:
        return root.read("index.html").startswith(_OLD_PAGE)
    except OSError:
        return False
