# SPDX-License-Identifier: MIT
"""SQLite state of the sandbox: users, photos, tags, photosets, places,
tokens, frobs, upload tickets and OAuth nonces; comments, notes, people, faves, EXIF,
groups, galleries and collections.

One connection shared by all request threads, serialised by a lock: every
statement is short, and it keeps multi-statement updates atomic without
per-thread connection bookkeeping.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import contextmanager
from typing import Iterable, Iterator

from .params import parse_unsigned

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    nsid TEXT PRIMARY KEY, username TEXT UNIQUE NOT NULL, realname TEXT NOT NULL,
    path_alias TEXT, location TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
    iconserver TEXT NOT NULL DEFAULT '0', iconfarm TEXT NOT NULL DEFAULT '0',
    ispro INTEGER NOT NULL DEFAULT 0, date_joined INTEGER NOT NULL DEFAULT 0,
    download INTEGER NOT NULL DEFAULT 4
);
CREATE TABLE IF NOT EXISTS places (
    place_id TEXT PRIMARY KEY, woeid TEXT NOT NULL, name TEXT NOT NULL, woe_name TEXT NOT NULL,
    place_type TEXT NOT NULL, place_type_id INTEGER NOT NULL, place_url TEXT NOT NULL,
    latitude REAL NOT NULL, longitude REAL NOT NULL, parent_id TEXT
);
CREATE TABLE IF NOT EXISTS photos (
    id INTEGER PRIMARY KEY, owner TEXT NOT NULL REFERENCES users(nsid),
    secret TEXT NOT NULL, originalsecret TEXT NOT NULL, server TEXT NOT NULL, farm TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
    ispublic INTEGER NOT NULL DEFAULT 1, isfriend INTEGER NOT NULL DEFAULT 0,
    isfamily INTEGER NOT NULL DEFAULT 0, license INTEGER NOT NULL DEFAULT 0,
    safety_level INTEGER NOT NULL DEFAULT 0, content_type INTEGER NOT NULL DEFAULT 1,
    hidden INTEGER NOT NULL DEFAULT 1, dateupload INTEGER NOT NULL, lastupdate INTEGER NOT NULL,
    datetaken TEXT NOT NULL, views INTEGER NOT NULL DEFAULT 0, media TEXT NOT NULL DEFAULT 'photo',
    originalformat TEXT NOT NULL DEFAULT 'jpg', width INTEGER NOT NULL, height INTEGER NOT NULL,
    latitude REAL, longitude REAL, accuracy INTEGER, place_id TEXT REFERENCES places(place_id),
    file_path TEXT, file_size INTEGER, file_sha256 TEXT, ticket_ready REAL, file_name TEXT,
    media_status TEXT NOT NULL DEFAULT 'ready', duration INTEGER,
    datetakengranularity INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS photos_owner ON photos(owner);
CREATE INDEX IF NOT EXISTS photos_upload ON photos(dateupload);
CREATE TABLE IF NOT EXISTS tags (
    photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL, author TEXT NOT NULL, raw TEXT NOT NULL, tag TEXT NOT NULL,
    machine_tag INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (photo_id, seq)
);
CREATE INDEX IF NOT EXISTS tags_tag ON tags(tag);
CREATE TABLE IF NOT EXISTS photosets (
    id INTEGER PRIMARY KEY, owner TEXT NOT NULL, title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '', primary_photo INTEGER NOT NULL,
    date_create INTEGER NOT NULL, date_update INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS photoset_photos (
    set_id INTEGER NOT NULL REFERENCES photosets(id) ON DELETE CASCADE,
    photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
    position INTEGER NOT NULL, PRIMARY KEY (set_id, photo_id)
);
-- kind: request (OAuth request token), access (OAuth access token), legacy (auth_token)
CREATE TABLE IF NOT EXISTS tokens (
    token TEXT PRIMARY KEY, secret TEXT NOT NULL, kind TEXT NOT NULL, nsid TEXT,
    perms INTEGER NOT NULL DEFAULT 0, callback TEXT, verifier TEXT,
    created REAL NOT NULL, used INTEGER NOT NULL DEFAULT 0, denied INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS frobs (
    frob TEXT PRIMARY KEY, nsid TEXT, perms INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS tickets (
    id TEXT PRIMARY KEY, photo_id INTEGER, complete_at REAL NOT NULL, failed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS nonces (
    consumer TEXT NOT NULL, nonce TEXT NOT NULL, timestamp INTEGER NOT NULL,
    PRIMARY KEY (consumer, nonce, timestamp)
);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
-- Social and organising data (seed_extras.py seeds it): comments, notes, people in photos,
-- favourites, EXIF, owners' EXIF privacy, groups and their pools, galleries, collections.
CREATE TABLE IF NOT EXISTS comments (
    id TEXT PRIMARY KEY, photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
    author TEXT NOT NULL, datecreate INTEGER NOT NULL, text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS comments_photo ON comments(photo_id, datecreate);
CREATE INDEX IF NOT EXISTS comments_author ON comments(author);  -- its bound per author (limits.py)
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY, photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
    author TEXT NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL, w INTEGER NOT NULL,
    h INTEGER NOT NULL, text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS notes_photo ON notes(photo_id);
CREATE INDEX IF NOT EXISTS notes_author ON notes(author);
CREATE TABLE IF NOT EXISTS photo_people (
    photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE, nsid TEXT NOT NULL,
    added_by TEXT NOT NULL, x INTEGER, y INTEGER, w INTEGER, h INTEGER, PRIMARY KEY (photo_id, nsid)
);
CREATE TABLE IF NOT EXISTS faves (
    photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE, nsid TEXT NOT NULL,
    favedate INTEGER NOT NULL, PRIMARY KEY (photo_id, nsid)
);
CREATE INDEX IF NOT EXISTS faves_user ON faves(nsid, favedate);
CREATE TABLE IF NOT EXISTS exif (
    photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
    tagspace TEXT NOT NULL, tag TEXT NOT NULL, label TEXT NOT NULL, raw TEXT NOT NULL, clean TEXT,
    PRIMARY KEY (photo_id, seq)
);
CREATE TABLE IF NOT EXISTS user_prefs (nsid TEXT PRIMARY KEY, hide_exif INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS groups (
    nsid TEXT PRIMARY KEY, name TEXT NOT NULL, path_alias TEXT, iconserver TEXT NOT NULL,
    iconfarm TEXT NOT NULL, members INTEGER NOT NULL, members_only INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS group_photos (
    group_id TEXT NOT NULL REFERENCES groups(nsid) ON DELETE CASCADE,
    photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
    dateadded INTEGER NOT NULL, PRIMARY KEY (group_id, photo_id)
);
CREATE TABLE IF NOT EXISTS galleries (
    id TEXT PRIMARY KEY, owner TEXT NOT NULL, title TEXT NOT NULL, description TEXT NOT NULL DEFAULT '',
    primary_photo INTEGER, date_create INTEGER NOT NULL, date_update INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS gallery_photos (
    gallery_id TEXT NOT NULL REFERENCES galleries(id) ON DELETE CASCADE,
    photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
    position INTEGER NOT NULL, comment TEXT NOT NULL DEFAULT '', PRIMARY KEY (gallery_id, photo_id)
);
-- A collection holds either collections (children: parent set) or sets, as on Flickr.
CREATE TABLE IF NOT EXISTS collections (
    id TEXT PRIMARY KEY, owner TEXT NOT NULL, title TEXT NOT NULL, description TEXT NOT NULL DEFAULT '',
    parent TEXT REFERENCES collections(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    date_create INTEGER NOT NULL
);
-- Lookups by photo where the key starts with the album or group: getNotInSet, getAllContexts.
CREATE INDEX IF NOT EXISTS photoset_photos_photo ON photoset_photos(photo_id);
CREATE INDEX IF NOT EXISTS group_photos_photo ON group_photos(photo_id);
CREATE TABLE IF NOT EXISTS collection_sets (
    collection_id TEXT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    set_id INTEGER NOT NULL REFERENCES photosets(id) ON DELETE CASCADE,
    position INTEGER NOT NULL, PRIMARY KEY (collection_id, set_id)
);
"""

# (table, column, definition) of the columns added after the first release of SCHEMA.
_ADDED_COLUMNS = (
    ("photos", "file_name", "TEXT"),
    ("photos", "media_status", "TEXT NOT NULL DEFAULT 'ready'"),
    ("photos", "duration", "INTEGER"),
    ("photos", "datetakengranularity", "INTEGER NOT NULL DEFAULT 0"),
    ("users", "download", "INTEGER NOT NULL DEFAULT 4"),
)


class Store:
    """Thread-safe access to the sandbox database in ``data_dir``."""

    def __init__(self, data_dir: str):
        self.data_dir = data_dir
        self.photo_dir = os.path.join(data_dir, "photos")
        os.makedirs(self.photo_dir, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(os.path.join(data_dir, "sandbox.sqlite3"),
                                   check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        # Unicode-aware lower() for case-insensitive text search (SQLite's is ASCII-only).
        self._db.create_function("pylower", 1, lambda s: s.lower() if isinstance(s, str) else s,
                                 deterministic=True)
        self._db.execute("PRAGMA foreign_keys = ON")
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.executescript(SCHEMA)
        # A data directory from an older sandbox lacks the columns added since.
        for table, column, definition in _ADDED_COLUMNS:
            columns = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in columns:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")

    @contextmanager
    def transaction(self) -> Iterator[Store]:
        """Hold the lock and run the enclosed statements as one transaction."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def all(self, sql: str, args: tuple[object, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def one(self, sql: str, args: tuple[object, ...] = ()) -> sqlite3.Row | None:
        with self._lock:
            row: sqlite3.Row | None = self._db.execute(sql, args).fetchone()
            return row

    def row(self, sql: str, args: tuple[object, ...] = ()) -> sqlite3.Row:
        """The first row of a query that always has one: an aggregate, a row this request has
        just written, a user that a foreign key names. Its absence is a sandbox bug, which the
        server answers with HTTP 500 (LookupError), never a silent None.
        """
        found = self.one(sql, args)
        if found is None:
            raise LookupError(f"no row where one must be: {sql}")
        return found

    def run(self, sql: str, args: tuple[object, ...] = ()) -> sqlite3.Cursor:
        with self._lock:
            return self._db.execute(sql, args)

    def trim(self, table: str, where: str, args: tuple[object, ...], keep: int, newest: str) -> None:
        """Delete the rows of ``table`` matching ``where`` but the ``keep`` newest by ``newest``
        (the bounds of what clients can make the sandbox keep, limits.py)."""
        self.run(f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} WHERE {where}"
                 f" ORDER BY {newest} DESC LIMIT -1 OFFSET ?)", args + (max(0, keep),))

    def many(self, sql: str, rows: Iterable[tuple[object, ...]]) -> None:
        with self._lock:
            self._db.executemany(sql, rows)

    def next_value(self, name: str, start: int) -> int:
        """Atomically increment a named counter (photo ids, set ids, tickets)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM counters WHERE name=?", (name,)).fetchone()
            value = (row["value"] if row else start) + 1
            self._db.execute("INSERT OR REPLACE INTO counters(name, value) VALUES (?, ?)", (name, value))
            return value

    # -- lookups shared by several modules ---------------------------------

    def user(self, nsid: str) -> sqlite3.Row | None:
        return self.one("SELECT * FROM users WHERE nsid=?", (nsid,))

    def owner(self, nsid: str) -> sqlite3.Row:
        """The user of an NSID the database itself holds (a photo's, a set's or a token's)."""
        return self.row("SELECT * FROM users WHERE nsid=?", (nsid,))

    def find_user(self, ident: str) -> sqlite3.Row | None:
        """A user by NSID, username or path alias (as Flickr URLs accept)."""
        return self.one("SELECT * FROM users WHERE nsid=? OR username=? OR path_alias=?",
                        (ident, ident, ident))

    def photo(self, photo_id: str | int) -> sqlite3.Row | None:
        """The photo with this id; None for an id that is not a number SQLite can hold."""
        number = parse_unsigned(photo_id)
        if number is None:
            return None
        return self.one("SELECT * FROM photos WHERE id=?", (number,))

    def tags(self, photo_id: int) -> list[sqlite3.Row]:
        return self.all("SELECT * FROM tags WHERE photo_id=? ORDER BY seq", (photo_id,))

    def place(self, place_id: str) -> sqlite3.Row | None:
        return self.one("SELECT * FROM places WHERE place_id=?", (place_id,))

    def place_chain(self, place_id: str | None) -> list[sqlite3.Row]:
        """The place and its ancestors (locality, region, country...)."""
        chain = []
        while place_id:
            row = self.place(place_id)
            if row is None:
                break
            chain.append(row)
            place_id = row["parent_id"]
        return chain

    def close(self) -> None:
        with self._lock:
            self._db.close()
