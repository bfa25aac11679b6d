# SPDX-License-Identifier: MIT
"""The most recently viewed photos, newest first, kept in a JSON file across restarts."""

from __future__ import annotations

import dataclasses
import json
import threading
from pathlib import Path

from .files import write_atomically
from .photos import Photo

LIMIT = 20


def add_recent(recents: list[Photo], photo: Photo, limit: int = LIMIT) -> list[Photo]:
    """`photo` first, its older entry removed, at most `limit` photos."""
    return ([photo] + [p for p in recents if p.id != photo.id])[:limit]


class Recents:
    """Thread-safe: Flask serves requests on several threads."""

    def __init__(self, path: Path, limit: int = LIMIT):
        self.path = path
        self.limit = limit
        self._lock = threading.Lock()

    def list(self) -> list[Photo]:
        with self._lock:
            return self._load()

    def add(self, photo: Photo) -> None:
        with self._lock:
            self._save(add_recent(self._load(), photo, self.limit))

    def _load(self) -> list[Photo]:
        try:
            entries = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError):
            return []  # an unreadable file loses the history, never the app
        fields = {f.name for f in dataclasses.fields(Photo)}
        photos = []
        for entry in entries if isinstance(entries, list) else []:
            try:
                photos.append(Photo(**{k: v for k, v in entry.items() if k in fields}))
            except (TypeError, AttributeError):
                continue  # not a photo entry: skip it
        return photos[:self.limit]

    def _save(self, photos: list[Photo]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(self.path, json.dumps([dataclasses.asdict(p) for p in photos], ensure_ascii=False, indent=1))
