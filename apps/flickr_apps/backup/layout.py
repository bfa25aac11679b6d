# SPDX-License-Identifier: MIT
"""`Layout`: where an item's files go in DIR (docs/backup.md, "Layout"; stable across versions).

    YYYY/MM/{id}_{slug}.{ext}        the media file, by date taken ("undated/" when Flickr has none)
    YYYY/MM/{id}_{slug}.json         its JSON sidecar
    YYYY/MM/{id}_{slug}.{ext}.xmp    its XMP sidecar (darktable's naming; digiKam and exiftool read it)
    albums/{id}_{slug}/              an album: relative links to the media files, album.json
    collections/{id}_{slug}/         a collection: links to its albums' folders, collection.json
    index.json, index.html           the account index, and the viewer's page (browse it offline)
    viewer/, viewer/data/            the viewer's scripts and its data (viewer/, viewerdata.py)
    .flickr-backup/                  the state database, the lock, the download cache

An item's names are given when it is first backed up and then kept (a later title change updates
the sidecars, not the names), so links and bookmarks into the backup stay valid.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any

from flickr.files import temporary_final
from .fields import one_text

SLUG_BYTES = 60  # a slug's longest, in UTF-8 bytes: names stay far below 255 bytes
UNDATED = "undated"
STATE_DIR = ".flickr-backup"
ALBUMS = "albums"
COLLECTIONS = "collections"
VIEWER = "viewer"
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-[0-9]{2}")  # ASCII digits only: \d takes every script's
# Every name the backup writes in DIR and its folders: an item's files and album links ({id}_...),
# album and collection folders ({id}[-{id}]_...), the index and album files, the viewer's files.
_OWN = re.compile(r"[0-9]{1,20}(-[0-9]{1,20})?_.*|index\.json|index\.html|album\.json|collection\.json"
                  r"|index\.js|(items|search)-[0-9]{4,}\.js|app\.js|photo-loader\.js|style\.css|basemap\.js|leaflet\.(js|css)", re.DOTALL)
# What a slug keeps: letters and digits of any script, and - _ . (joined runs of anything else
# become one "-"). No separator, no control or format character, no leading dot.
_UNSAFE = re.compile(r"[^\w.\-]+|_+")


def slug(title: str, limit: int = SLUG_BYTES) -> str:
    """A safe file-name part from a title: NFC, word characters kept (any script), runs of the rest
    as "-", trimmed of "-" and ".", at most `limit` UTF-8 bytes; "untitled" when nothing is left."""
    cleaned = _UNSAFE.sub("-", unicodedata.normalize("NFC", title))
    cleaned = "".join(c for c in cleaned if unicodedata.category(c)[0] not in "CZ")
    cleaned = re.sub(r"-{2,}", "-", cleaned).strip("-.")
    encoded = cleaned.encode("utf-8")[:limit].decode("utf-8", "ignore").strip("-.")
    return encoded.lower() or "untitled"


def check_id(value: Any) -> str:
    """A Flickr id as it may appear in a file name: digits (photos, albums) or digits-digits
    (collections); ValueError for anything else from the server."""
    found = str(value)
    if not re.fullmatch(r"[0-9]{1,20}(-[0-9]{1,20})?", found):
        raise ValueError(f"{found[:40]!r} is not a Flickr id; no file is named after it")
    return found


def own_temporary(name: str) -> bool:
    """Whether `name` is a temporary file the backup made (`flickr.files.temporary_name`) for one of its
    own names: what the next run removes when a run was killed."""
    final = temporary_final(name)
    return final is not None and _OWN.fullmatch(final) is not None


class Layout:
    """Names and folders of items, albums and collections."""

    @staticmethod
    def folder(date_taken: str) -> tuple[str, ...]:
        """("YYYY", "MM") from Flickr's "YYYY-MM-DD hh:mm:ss", or ("undated",)."""
        found = _DATE.match(date_taken or "")
        if not found or found.group(1) == "0000" or not "01" <= found.group(2) <= "12":
            return (UNDATED,)
        return (found.group(1), found.group(2))

    @staticmethod
    def base(photo_id: str, title: str) -> str:
        """"{id}_{slug}": the stem of every file of the item."""
        return f"{check_id(photo_id)}_{slug(title)}"

    @staticmethod
    def album_folder(album_id: str, title: Any) -> str:
        return f"{check_id(album_id)}_{slug(one_text(title))}"

    @staticmethod
    def sidecar(base: str) -> str:
        return base + ".json"

    @staticmethod
    def xmp(media_name: str) -> str:
        return media_name + ".xmp"
