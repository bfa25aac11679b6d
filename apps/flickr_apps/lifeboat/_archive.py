# SPDX-License-Identifier: MIT
"""Reading a `flickr backup` archive through its files only (docs/backup.md: index.json, the
JSON sidecars, albums/*/album.json): no API call, no key, no state database written.

Every name is reached from DIR's descriptor one component at a time without following a link
(the backup's own `SafeDir`), and every file is opened non-blocking as a regular file: a link or
a FIFO planted in the archive fails the item that needs it, and is said, never followed.
"""
from __future__ import annotations

import json
import os
import re
from typing import Any

from flickr.files import open_regular
from ..backup.safedir import SafeDir, check_name
from ._metadata import _list

INDEX_FORMAT = "flickr-backup index 1"
PHOTO_ID = re.compile(r"[0-9]{1,20}")  # a Flickr photo id: it names files, so nothing else is taken
_LARGEST_JSON = 256 * 1024 * 1024  # index.json of a few hundred thousand items stays far below


def _finite(text: str) -> float:
    value = float(text)  # 1e999 is inf: no JSON a Lifeboat can write again (allow_nan=False)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:40]} is not a finite number")
    return value


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(data: bytes) -> Any:
    """JSON as RFC 8259 has it: NaN, Infinity and numbers beyond a float refused (Python's json
    takes them, and a Lifeboat's metadata files could not be written), and nesting too deep for
    the parser (RecursionError) a ValueError like any other text that is not JSON."""
    try:
        return json.loads(data, parse_float=_finite, parse_constant=_refuse)
    except RecursionError:
        raise ValueError("nested too deeply") from None


class NotAnArchive(OSError):
    """DIR is not a `flickr backup` archive (no index.json of its format)."""


class ItemError(OSError):
    """One item cannot be read or copied: the item is left out of this run and said."""


def _parts(relative: Any) -> list[str]:
    if not isinstance(relative, str) or not relative:
        raise ItemError("the archive's index names no file for it")
    try:
        return [check_name(part) for part in relative.split("/")]
    except ValueError:
        raise ItemError(f"the archive's index names {relative[:80]!r}, not a path inside it") from None


def _explain(error: OSError, relative: str) -> ItemError:
    if isinstance(error, ItemError):
        return error
    if error.errno == 40:  # ELOOP: a link at the file's own name
        return ItemError(f"{relative} is a symbolic link in the archive: not followed")
    if isinstance(error, FileNotFoundError):
        return ItemError(f"{relative} is missing from the archive (flickr backup fetches it again)")
    return ItemError(f"{relative}: {error.strerror or error}")


class Archive:
    def __init__(self, path: str) -> None:
        self.path = path
        try:
            self.root = SafeDir.open_root(path, create=False)
        except (FileNotFoundError, NotADirectoryError):
            raise NotAnArchive(f"{path} is not a folder") from None
        try:
            index = loads(self.read("index.json"))
        except (OSError, ValueError):
            self.root.close()
            raise NotAnArchive(f"{path} holds no flickr backup archive (its index.json is missing or unreadable: "
                               "make it with flickr backup)") from None
        if not isinstance(index, dict) or index.get("format") != INDEX_FORMAT:
            self.root.close()
            raise NotAnArchive(f"{path}/index.json is not a flickr backup index ({INDEX_FORMAT!r})")
        self.index: dict[str, Any] = index

    def close(self) -> None:
        self.root.close()

    @property
    def user(self) -> str:
        return str(self.index.get("user") or "")

    def items(self) -> list[dict[str, Any]]:
        """The index's items (an id that is not a Flickr id is the writer's to refuse, and say)."""
        return [item for item in _list(self.index.get("items")) if isinstance(item, dict)
                and isinstance(item.get("id"), str)]

    def albums(self) -> list[dict[str, Any]]:
        return [album for album in _list(self.index.get("albums")) if isinstance(album, dict)
                and isinstance(album.get("id"), str)]

    def licences(self) -> dict[str, Any]:
        found = self.index.get("licenses")
        return found if isinstance(found, dict) else {}

    def read(self, relative: Any) -> bytes:
        """A file of the archive, whole (JSON files: index, sidecars, album.json)."""
        parts = _parts(relative)
        try:
            with self.root.subdir(*parts[:-1], create=False) as folder:
                fd = open_regular(parts[-1], folder.fd, shown=relative)
        except OSError as error:
            raise _explain(error, str(relative)) from None
        with os.fdopen(fd, "rb") as file:
            # Its size first: a 1 GB (sparse) file was read to the limit, 256 MB held, then refused.
            too_large = os.fstat(fd).st_size > _LARGEST_JSON
            data = b"" if too_large else file.read(_LARGEST_JSON + 1)  # the cap too: it may grow
        if too_large or len(data) > _LARGEST_JSON:
            raise ItemError(f"{relative} is over {_LARGEST_JSON} bytes")
        return data

    def json(self, relative: Any) -> dict[str, Any]:
        try:
            found = loads(self.read(relative))
        except ValueError:
            raise ItemError(f"{relative} is not JSON") from None
        if not isinstance(found, dict):
            raise ItemError(f"{relative} is not a JSON object")
        return found

    def open_media(self, relative: Any) -> int:
        """A descriptor on the item's media file, to stream (the caller closes it)."""
        parts = _parts(relative)
        try:
            with self.root.subdir(*parts[:-1], create=False) as folder:
                return open_regular(parts[-1], folder.fd, shown=relative)
        except OSError as error:
            raise _explain(error, str(relative)) from None
