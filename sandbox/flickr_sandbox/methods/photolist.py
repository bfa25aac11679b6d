# SPDX-License-Identifier: MIT
"""Shared photo rendering: visibility, size table, URLs, standard photo lists."""

from __future__ import annotations

import hashlib
import math
import sqlite3
from decimal import Decimal

from ..downloads import RESTRICTED, may_download
from ..envelope import Node
from ..store import Store
# Flickr's sizes, generated from data/flickr-sizes.json (scripts/gen-sizes.py); SIZES and Size re-exported.
from .size_table import OWN_SECRET, SIZES as SIZES, SQUARES, Size as Size

# url_* extras in the order the interestingness fixture shows them, others slotted in.
URL_EXTRAS = ["t", "s", "sq", "q", "w", "n", "z", "c", "o", "l", "h", "k", "3k", "4k", "5k", "6k", "m"]
_BY_EXTRA = {s[4]: s for s in SIZES if s[4]}


def size_secret(photo: sqlite3.Row, suffix: str) -> str:
    """The secret in a size's URL: shared, per-size (h and up) or original."""
    if suffix == "o":
        return str(photo["originalsecret"])
    if suffix in OWN_SECRET:
        return hashlib.sha1(f"{suffix}-{photo['id']}-{photo['secret']}".encode()).hexdigest()[:10]
    return str(photo["secret"])


def size_dims(photo: sqlite3.Row, size: Size) -> tuple[int, int] | None:
    """(width, height) of a size, or None if the original is too small for it."""
    width, height, longest = photo["width"], photo["height"], size[3]
    if longest is None:
        return width, height
    if size[1] in SQUARES:
        return longest, longest
    edge = max(width, height)
    if longest >= edge:
        return None
    scale = longest / edge
    return max(1, math.floor(width * scale + 0.5)), max(1, math.floor(height * scale + 0.5))


def size_url(base_url: str, photo: sqlite3.Row, suffix: str) -> str:
    secret = size_secret(photo, suffix)
    if suffix == "o":
        return f"{base_url}/photos/{photo['server']}/{photo['id']}_{secret}_o.{photo['originalformat']}"
    tail = f"_{suffix}" if suffix else ""
    return f"{base_url}/photos/{photo['server']}/{photo['id']}_{secret}{tail}.jpg"


def can_see(photo: sqlite3.Row, nsid: str | None) -> bool:
    return bool(photo["ispublic"]) or photo["owner"] == nsid


def fmt_coord(value: float, fixed: bool) -> Decimal:
    """Coordinates, a JSON number: getInfo's XML prints six decimals, photo lists trim zeros."""
    text = f"{value:.6f}"
    return Decimal(text if fixed else (text.rstrip("0").rstrip(".") or "0"))


def paginate(total: int, page: int, per_page: int) -> dict[str, int]:
    """Paging attributes: numbers in Flickr's JSON (``"pages":3``; gallery-dl compares them)."""
    return {"page": page, "pages": math.ceil(total / per_page), "perpage": per_page, "total": total}


def column(photo: sqlite3.Row, name: str, default: object) -> object:
    """A photo column that a data directory may not have yet (read with a default)."""
    return photo[name] if name in photo.keys() else default


def _table_exists(store: Store, name: str) -> bool:
    return store.one("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)) is not None


def photo_count(store: Store, table: str, photo_id: int) -> int:
    """Rows of a per-photo table (comments, faves); 0 where the data directory has no such table."""
    if not _table_exists(store, table):
        return 0
    return int(store.row(f"SELECT COUNT(*) AS n FROM {table} WHERE photo_id=?", (photo_id,))["n"])


def photo_core(photo: sqlite3.Row) -> dict[str, object]:
    """id, owner, secret, server, farm, title: strings but ``farm``, a number, as Flickr's JSON."""
    return {"id": str(photo["id"]), "owner": photo["owner"], "secret": photo["secret"],
            "server": str(photo["server"]), "farm": int(photo["farm"]), "title": photo["title"]}


def parse_extras(value: str) -> set[str]:
    return {e.strip() for e in value.split(",") if e.strip()}


# Extras whose answer depends on whether the viewer may download the large sizes.
_DOWNLOAD_EXTRAS = {"original_format", "usage", "url_o", "url_h", "url_k"}


def photo_element(store: Store, base_url: str, photo: sqlite3.Row, extras: set[str],
                  leading: dict[str, object] | None = None, with_owner: bool = True,
                  viewer: str | None = None) -> Node:
    """A ``<photo>`` of a standard photo list with the requested extras, typed as Flickr's JSON,
    as ``viewer`` (an NSID, None: not logged in) sees it.

    Attribute order follows fixtures/flickr.interestingness.getList.xml and favorites.getList.
    ``leading`` holds list-specific attributes placed after ``title`` (isprimary). An album's
    photos have no ``owner`` (the ``<photoset>`` names it), so ``with_owner=False`` leaves it out.
    """
    downloadable = may_download(store, photo, viewer) if extras & _DOWNLOAD_EXTRAS else True
    attrs = photo_core(photo)
    if not with_owner:
        del attrs["owner"]
    attrs.update(leading or {})
    attrs.update(ispublic=int(photo["ispublic"]), isfriend=int(photo["isfriend"]),
                 isfamily=int(photo["isfamily"]))
    # Read only when an extra needs it (None otherwise, so each use below checks both).
    owner = store.owner(photo["owner"]) if extras & {"owner_name", "icon_server", "path_alias"} else None
    if "license" in extras:
        attrs["license"] = str(photo["license"])
    if "o_dims" in extras:
        attrs.update(o_width=str(photo["width"]), o_height=str(photo["height"]))
    if "date_upload" in extras:
        attrs["dateupload"] = str(photo["dateupload"])
    if "last_update" in extras:
        attrs["lastupdate"] = str(photo["lastupdate"])
    if "date_taken" in extras:
        attrs.update(datetaken=photo["datetaken"],
                     datetakengranularity=str(column(photo, "datetakengranularity", 0)),
                     datetakenunknown=str(column(photo, "datetakenunknown", 0)))
    if owner is not None and "owner_name" in extras:
        attrs["ownername"] = owner["username"]  # the username, as Flickr (not the real name)
    if owner is not None and "icon_server" in extras:
        attrs.update(iconserver=str(owner["iconserver"]), iconfarm=int(owner["iconfarm"]))
    if "views" in extras:
        attrs["views"] = str(photo["views"])
    if "count_faves" in extras:
        attrs["count_faves"] = str(photo_count(store, "faves", photo["id"]))
    if "count_comments" in extras:
        attrs["count_comments"] = str(photo_count(store, "comments", photo["id"]))
    if extras & {"tags", "machine_tags"}:
        tags = store.tags(photo["id"])
        if "tags" in extras:  # every tag, machine tags included, as Flickr lists them
            attrs["tags"] = " ".join(t["tag"] for t in tags)
        if "machine_tags" in extras:
            attrs["machine_tags"] = " ".join(t["tag"] for t in tags if t["machine_tag"])
    if "original_format" in extras and downloadable:
        attrs.update(originalsecret=photo["originalsecret"], originalformat=photo["originalformat"])
    if "geo" in extras:
        _geo_attrs(store, photo, attrs)
    if "media" in extras:
        attrs.update(media=photo["media"], media_status=str(column(photo, "media_status", "ready")))
    if "usage" in extras:
        attrs.update(can_download=int(downloadable), can_blog=1, can_print=1, can_share=1)
    for key in URL_EXTRAS:
        if f"url_{key}" in extras:
            size = _BY_EXTRA[key]
            dims = size_dims(photo, size)
            if dims and (downloadable or size[1] not in RESTRICTED):
                attrs[f"url_{key}"] = size_url(base_url, photo, size[1])
                attrs[f"height_{key}"] = dims[1]
                attrs[f"width_{key}"] = dims[0]
    if owner is not None and "path_alias" in extras:
        attrs["pathalias"] = owner["path_alias"] or ""
    node = Node("photo", attrs)
    if "description" in extras:
        node.add("description", text=photo["description"])
    return node


def _geo_attrs(store: Store, photo: sqlite3.Row, attrs: dict[str, object]) -> None:
    """The ``geo`` extra: numbers (0 without a location), place ids as strings."""
    if photo["latitude"] is None:
        attrs.update(latitude=0, longitude=0, accuracy=0, context=0)
        return
    place = store.place(photo["place_id"]) if photo["place_id"] else None
    attrs.update(latitude=fmt_coord(photo["latitude"], False), longitude=fmt_coord(photo["longitude"], False),
                 accuracy=int(photo["accuracy"] or 0), context=0,
                 place_id=photo["place_id"] or "", woeid=str(place["woeid"]) if place else "",
                 geo_is_public=1, geo_is_contact=0, geo_is_friend=0, geo_is_family=0)
