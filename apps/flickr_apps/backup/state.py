# SPDX-License-Identifier: MIT
"""`State`: what the backup knows, in SQLite inside DIR (.flickr-backup/state.sqlite3).

The state machine of an item (docs/backup.md, "State"): `need` says what is left to do,

    media    fetch its media file (new, replaced, or never finished), then write its sidecars
    check    it changed on Flickr and nothing in the listing says what: fetch the file again and
             keep it only if its bytes differ (a replace), then write its sidecars
    sidecar  its files are right; write its sidecars again (metadata changed, album membership...)
    ""       done: every file recorded in `files` is in place with that size and checksum

A media file is recorded in `placing` (name, size, sha256) before it is renamed into place, and
the item becomes done only after its sidecars are written too; a run killed in between finds the
file by its checksum and does not fetch it again. `error` holds the last failure (the item keeps
its `need` and is retried by the next run). Every change is committed at once (WAL: cheap).
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import stat
import time
import urllib.parse
from typing import Any, Iterator, Optional

from flickr.files import CREATE, kind_of
from .safedir import PlantedLink, SafeDir

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS items (
    id TEXT PRIMARY KEY,
    need TEXT NOT NULL,
    listed TEXT NOT NULL,            -- the photo as the last listing gave it (JSON)
    details TEXT NOT NULL DEFAULT '{}', -- per-item calls' answers kept for the sidecar (JSON)
    lastupdate INTEGER NOT NULL DEFAULT 0,
    folder TEXT,                     -- "2023/05": given once, then kept
    base TEXT,                       -- "{id}_{slug}": given once, then kept
    media TEXT,                      -- the media file's name in folder
    size_label TEXT,                 -- which size the media file is ("Original", "Large 2048"...)
    why TEXT,                        -- why not the original, when it is not
    albums TEXT NOT NULL DEFAULT '[]',
    placing TEXT,                    -- JSON [name, size, sha256] of a media file being put in place
    error TEXT,
    deleted INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS files (
    item TEXT NOT NULL,
    kind TEXT NOT NULL,              -- media, json, xmp
    path TEXT NOT NULL,              -- relative to DIR
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    PRIMARY KEY (item, kind)
);
CREATE TABLE IF NOT EXISTS albums (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,              -- album, collection
    folder TEXT NOT NULL,
    updated TEXT NOT NULL DEFAULT '',
    info TEXT NOT NULL,              -- JSON: as getList / getTree gave it
    members TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS runs (
    started REAL NOT NULL, ended REAL, report TEXT
);
"""


# The database and the files SQLite keeps beside it: each must be a file of the folder's own.
STATE_FILE = "state.sqlite3"
_COMPANIONS = ("-wal", "-shm", "-journal")


class State:
    """The state database; one per DIR, used by one run at a time (the lock sees to that).

    `open` follows the state folder's rules: the folder was opened without following a link, and
    the database and its companions (-wal, -shm, -journal) must each be absent or a regular file of
    the folder's own (no link, no other hard link, no FIFO): SQLite would follow a link and write its
    tables (and WAL) into whatever file it names. SQLite is given the path through the folder's
    descriptor (/proc/self/fd/N/state.sqlite3), so a folder swapped after it was checked is not used."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)  # autocommit: every change at once
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # WAL: a crash loses no committed change but the last
        self.db.executescript(_SCHEMA)
        found = self.meta("schema")
        if found is None:
            self.set_meta("schema", str(SCHEMA_VERSION))
        elif found != str(SCHEMA_VERSION):
            raise ValueError(f"the state database is of version {found}; this flickr knows {SCHEMA_VERSION}")

    @classmethod
    def open(cls, state_dir: SafeDir) -> "State":
        """The state in `state_dir` (created when missing), checked as the class doc says."""
        _check_files(state_dir)
        if state_dir.lstat(STATE_FILE) is None:
            with contextlib.suppress(FileExistsError):  # an empty file is an empty database
                os.close(os.open(STATE_FILE, CREATE, 0o644, dir_fd=state_dir.fd))
        identity = _own_file(state_dir, STATE_FILE)
        state = cls(_through(state_dir))
        try:
            _check_files(state_dir)  # the WAL and its index SQLite made, and the database still the one checked
            if identity != _own_file(state_dir, STATE_FILE):
                raise PlantedLink(errno.EEXIST, "replaced while it was opened; it is not used",
                                  state_dir.shown(STATE_FILE))
        except BaseException:
            state.close()
            raise
        return state

    @classmethod
    def read_only(cls, state_dir: SafeDir) -> "State":
        """For --verify: no write, no schema change (the database must exist)."""
        _check_files(state_dir)
        if state_dir.lstat(STATE_FILE) is None:
            raise FileNotFoundError(errno.ENOENT, "no backup here (its state database is missing)",
                                    state_dir.shown(STATE_FILE))
        state = cls.__new__(cls)
        state.db = sqlite3.connect(f"file:{urllib.parse.quote(_through(state_dir))}?mode=ro", uri=True)
        state.db.row_factory = sqlite3.Row
        return state

    def close(self) -> None:
        self.db.close()

    # -- meta -----------------------------------------------------------

    def meta(self, key: str) -> Optional[str]:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?,?)", (key, value))

    # -- items ----------------------------------------------------------

    def item(self, item_id: str) -> Optional[sqlite3.Row]:
        row: Optional[sqlite3.Row] = self.db.execute("SELECT * FROM items WHERE id=?", (item_id,)).fetchone()
        return row

    def add(self, item_id: str, listed: dict[str, Any], lastupdate: int) -> None:
        self.db.execute("INSERT INTO items(id, need, listed, lastupdate) VALUES (?,?,?,?)",
                        (item_id, "media", json.dumps(listed), lastupdate))

    def relist(self, item_id: str, listed: dict[str, Any], lastupdate: int, need: Optional[str]) -> None:
        """The listing's fresh copy; `need` raised when given."""
        self.db.execute("UPDATE items SET listed=?, lastupdate=?, deleted=0 WHERE id=?",
                        (json.dumps(listed), lastupdate, item_id))
        if need is not None:
            self.raise_need(item_id, need)

    def raise_need(self, item_id: str, need: str) -> None:
        """Asks for `need` unless the item already needs more (media > check > sidecar > "")."""
        row = self.item(item_id)
        current = row["need"] if row is not None else ""
        order = ["", "sidecar", "check", "media"]
        if order.index(need) > order.index(current):
            self.db.execute("UPDATE items SET need=? WHERE id=?", (need, item_id))

    def set_albums(self, item_id: str, albums: list[str]) -> None:
        self.db.execute("UPDATE items SET albums=? WHERE id=?", (json.dumps(albums), item_id))

    def names(self, item_id: str, folder: str, base: str) -> None:
        self.db.execute("UPDATE items SET folder=?, base=? WHERE id=? AND base IS NULL", (folder, base, item_id))

    def placing(self, item_id: str, name: str, size: int, sha256: str, size_label: str, why: str) -> None:
        self.db.execute("UPDATE items SET placing=?, size_label=?, why=? WHERE id=?",
                        (json.dumps([name, size, sha256]), size_label, why, item_id))

    def placed(self, item_id: str, name: str, path: str, size: int, sha256: str) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("UPDATE items SET media=?, placing=NULL, need='sidecar' WHERE id=?", (name, item_id))
            self.file(item_id, "media", path, size, sha256)

    def file(self, item_id: str, kind: str, path: str, size: int, sha256: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?)", (item_id, kind, path, size, sha256))

    def drop_file(self, item_id: str, kind: str) -> None:
        self.db.execute("DELETE FROM files WHERE item=? AND kind=?", (item_id, kind))

    def details(self, item_id: str, details: dict[str, Any]) -> None:
        self.db.execute("UPDATE items SET details=? WHERE id=?", (json.dumps(details), item_id))

    def done(self, item_id: str, files: list[tuple[str, str, int, str]]) -> None:
        """The sidecars are in place: records them, and the item is done."""
        with self.db:
            self.db.execute("BEGIN")
            for kind, path, size, sha256 in files:
                self.file(item_id, kind, path, size, sha256)
            self.db.execute("UPDATE items SET need='', error=NULL WHERE id=?", (item_id,))

    def need(self, item_id: str, need: str) -> None:
        self.db.execute("UPDATE items SET need=? WHERE id=?", (need, item_id))

    def failed(self, item_id: str, error: str) -> None:
        self.db.execute("UPDATE items SET error=? WHERE id=?", (error, item_id))

    def mark_deleted(self, ids: list[str]) -> None:
        self.db.executemany("UPDATE items SET deleted=1 WHERE id=?", [(i,) for i in ids])

    def forget(self, item_id: str) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("DELETE FROM files WHERE item=?", (item_id,))
            self.db.execute("DELETE FROM items WHERE id=?", (item_id,))

    def ids(self) -> set[str]:
        return {str(row[0]) for row in self.db.execute("SELECT id FROM items WHERE deleted=0")}

    def deleted_ids(self) -> list[str]:
        return [str(row[0]) for row in self.db.execute("SELECT id FROM items WHERE deleted=1 ORDER BY id")]

    def items(self) -> Iterator[sqlite3.Row]:
        yield from self.db.execute("SELECT * FROM items ORDER BY id")

    def to_do(self) -> list[sqlite3.Row]:
        return list(self.db.execute("SELECT * FROM items WHERE need != '' AND deleted=0 ORDER BY id DESC"))

    def files(self, item_id: Optional[str] = None) -> list[sqlite3.Row]:
        if item_id is None:
            return list(self.db.execute("SELECT * FROM files ORDER BY path"))
        return list(self.db.execute("SELECT * FROM files WHERE item=?", (item_id,)))

    # -- albums ---------------------------------------------------------

    def album(self, album_id: str) -> Optional[sqlite3.Row]:
        row: Optional[sqlite3.Row] = self.db.execute("SELECT * FROM albums WHERE id=?", (album_id,)).fetchone()
        return row

    def put_album(self, album_id: str, kind: str, folder: str, updated: str, info: dict[str, Any],
                  members: list[str]) -> None:
        self.db.execute("INSERT OR REPLACE INTO albums VALUES (?,?,?,?,?,?)",
                        (album_id, kind, folder, updated, json.dumps(info), json.dumps(members)))

    def albums(self, kind: str) -> list[sqlite3.Row]:
        return list(self.db.execute("SELECT * FROM albums WHERE kind=? ORDER BY id", (kind,)))

    def drop_album(self, album_id: str) -> None:
        self.db.execute("DELETE FROM albums WHERE id=?", (album_id,))

    # -- runs -----------------------------------------------------------

    def run_started(self) -> int:
        cursor = self.db.execute("INSERT INTO runs(started) VALUES (?)", (time.time(),))
        return int(cursor.lastrowid or 0)

    def run_ended(self, run: int, report: dict[str, Any]) -> None:
        self.db.execute("UPDATE runs SET ended=?, report=? WHERE rowid=?", (time.time(), json.dumps(report), run))


def _through(state_dir: SafeDir) -> str:
    """The database's path through the folder's open descriptor (Linux's /proc), else its path."""
    proc = f"/proc/self/fd/{state_dir.fd}"
    return f"{proc}/{STATE_FILE}" if os.path.isdir(proc) else state_dir.shown(STATE_FILE)


def _own_file(state_dir: SafeDir, name: str) -> tuple[int, int]:
    """(device, inode) of the regular file `name`, which has no other link; PlantedLink otherwise.
    By lstat alone: closing a descriptor of a file SQLite has open would drop its locks."""
    found = state_dir.lstat(name)
    if found is None:
        raise FileNotFoundError(errno.ENOENT, "missing", state_dir.shown(name))
    if stat.S_ISLNK(found.st_mode):
        raise PlantedLink(errno.ELOOP, "a link stands where the backup keeps its state; it is not followed"
                          " (move it away)", state_dir.shown(name))
    if not stat.S_ISREG(found.st_mode) or found.st_nlink != 1:
        raise PlantedLink(errno.EEXIST, f"{kind_of(found)} stands where the backup keeps its state; it is not used"
                          " (move it away)", state_dir.shown(name))
    return found.st_dev, found.st_ino


def _check_files(state_dir: SafeDir) -> None:
    for name in (STATE_FILE, *(STATE_FILE + companion for companion in _COMPANIONS)):
        if state_dir.lstat(name) is not None:
            _own_file(state_dir, name)
