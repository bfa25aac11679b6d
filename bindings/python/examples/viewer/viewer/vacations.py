# SPDX-License-Identifier: MIT
"""Virtual vacations: each a SQLite database file in a directory, holding the visited photos."""

from __future__ import annotations

import re
import sqlite3
import time
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Iterator

from .files import write_atomically
from .photos import Photo

DEFAULT_NAME = "My Vacation"
UNKNOWN_PLACE = "Unknown place"
SUFFIX = ".sqlite3"
# Names become file names: letters, digits and a little punctuation, no leading dot or slash.
_NAME = re.compile(r"\w[\w '&(),.-]{0,59}")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS visits (
    visit INTEGER PRIMARY KEY AUTOINCREMENT,  -- the order of visits
    id TEXT NOT NULL UNIQUE, secret TEXT NOT NULL, server TEXT NOT NULL,
    title TEXT NOT NULL, description TEXT NOT NULL, latitude REAL, longitude REAL,
    tags TEXT NOT NULL, place_name TEXT NOT NULL, owner TEXT NOT NULL,
    visited_at REAL NOT NULL
)
"""
_PHOTO_COLUMNS = ("id", "secret", "server", "title", "description", "latitude", "longitude",
                  "tags", "place_name", "owner")


class VacationError(ValueError):
    """A vacation name that cannot be used."""


class NoSuchVacation(VacationError):
    pass


def check_name(name: str) -> str:
    name = name.strip()
    if not _NAME.fullmatch(name):
        raise VacationError("A vacation name has 1 to 60 letters, digits, spaces or - _ ' & ( ) , . "
                            "and starts with a letter or digit.")
    return name


def itinerary(photos: list[Photo]) -> list[tuple[str, list[Photo]]]:
    """Places by name with their photos, given photos in visit order: the first visited first."""
    by_place: dict[str, list[Photo]] = {}
    for photo in photos:
        by_place.setdefault(photo.place_name or UNKNOWN_PLACE, []).append(photo)
    return list(by_place.items())


class Vacation:
    def __init__(self, path: Path):
        self.path = path
        self.name = path.name[:-len(SUFFIX)]
        with self._db():
            pass  # create the file and its table now, so the vacation is listed at once

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        # A connection per operation: simple, and safe from any of Flask's threads.
        with closing(sqlite3.connect(self.path)) as db, db:
            db.row_factory = sqlite3.Row
            db.execute(_SCHEMA)
            yield db

    def photos(self, limit: int = -1) -> list[Photo]:
        """The visited photos, the first visited first; at most `limit` (SQLite's -1: all)."""
        with self._db() as db:
            rows = db.execute(f"SELECT {', '.join(_PHOTO_COLUMNS)} FROM visits ORDER BY visit LIMIT ?",
                              (limit,)).fetchall()
        return [Photo(**dict(row)) for row in rows]

    def count(self) -> int:
        with self._db() as db:
            return db.execute("SELECT COUNT(*) FROM visits").fetchone()[0]

    def contains(self, photo_id: str) -> bool:
        with self._db() as db:
            return db.execute("SELECT 1 FROM visits WHERE id = ?", (photo_id,)).fetchone() is not None

    def visit(self, photo: Photo) -> None:
        """Adds the photo; visiting it again keeps its first visit."""
        values = [getattr(photo, column) for column in _PHOTO_COLUMNS]
        with self._db() as db:
            db.execute(f"INSERT OR IGNORE INTO visits ({', '.join(_PHOTO_COLUMNS)}, visited_at)"
                       f" VALUES ({', '.join('?' * len(values))}, ?)", (*values, time.time()))

    def unvisit(self, photo_id: str) -> None:
        with self._db() as db:
            db.execute("DELETE FROM visits WHERE id = ?", (photo_id,))


class Vacations:
    """The vacations of a directory, and which one is current (named in the file ``.current``)."""

    def __init__(self, directory: Path):
        self.directory = directory

    def names(self) -> list[str]:
        if not self.directory.is_dir():
            return []
        return sorted((p.name[:-len(SUFFIX)] for p in self.directory.glob("*" + SUFFIX)), key=str.casefold)

    def _path(self, name: str) -> Path:
        return self.directory / (check_name(name) + SUFFIX)

    def create(self, name: str) -> Vacation:
        """The vacation of that name, created when missing."""
        self.directory.mkdir(parents=True, exist_ok=True)
        return Vacation(self._path(name))

    def find(self, name: str) -> Vacation | None:
        path = self._path(name)
        return Vacation(path) if path.is_file() else None

    def get(self, name: str) -> Vacation:
        vacation = self.find(name)
        if vacation is None:
            raise NoSuchVacation(f"There is no vacation named “{name}”: it may have been deleted.")
        return vacation

    def delete(self, name: str) -> None:
        """Removes the vacation's file. When it was the current one, "My Vacation" is current again
        (created on the next Visit), as on first use."""
        vacation = self.get(name)
        if self.current_name() == vacation.name:
            (self.directory / ".current").unlink(missing_ok=True)
        vacation.path.unlink()

    def current_name(self) -> str:
        """The chosen vacation, else "My Vacation" (which may not exist yet)."""
        try:
            name = (self.directory / ".current").read_text(encoding="utf-8").strip()
            if self.find(name):
                return name
        except (OSError, VacationError):
            pass
        return DEFAULT_NAME

    def current(self) -> Vacation:
        """The current vacation, created on first use."""
        return self.create(self.current_name())

    def choose(self, name: str) -> Vacation:
        vacation = self.get(name)
        write_atomically(self.directory / ".current", vacation.name)
        return vacation
