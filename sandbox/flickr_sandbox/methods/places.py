# SPDX-License-Identifier: MIT
"""flickr.places.getTopPlacesList and flickr.places.getInfo."""

from __future__ import annotations

import calendar
import re
import sqlite3
import time
from decimal import Decimal

from ..envelope import Node
from ..errors import ApiError
from ..params import parse_unsigned
from .registry import Call, method

_TYPES = {"neighbourhood": 22, "locality": 7, "region": 8, "country": 12, "continent": 29}
# What a Flickr Places id and a WOE id look like: anything else is "Not a valid Places ID" (2),
# a well-formed id that names nothing is "Place not found" (3).
_PLACE_ID = re.compile(r"[\w.-]{1,64}", re.ASCII)
_WOE_ID = re.compile(r"\d{1,20}")


@method("flickr.places.getTopPlacesList")
def get_top_places_list(call: Call) -> list[Node]:
    type_id = call.arg("place_type_id") or str(_TYPES.get(call.arg("place_type"), ""))
    if not type_id:
        raise ApiError(1, "Required parameter missing")
    type_number = parse_unsigned(type_id)
    if type_number not in _TYPES.values():
        raise ApiError(2, "Not a valid place type")
    # The day counted: the date argument, else yesterday (UTC), as Flickr does.
    day = call.arg("date")
    try:
        start = calendar.timegm(time.strptime(day, "%Y-%m-%d")) if day else \
            (int(time.time()) // 86400 - 1) * 86400
    except ValueError:
        raise ApiError(3, "Not a valid date") from None
    counts: dict[str, int] = {}
    for row in call.store.all("SELECT place_id, COUNT(*) AS n FROM photos WHERE ispublic = 1"
                              " AND place_id IS NOT NULL GROUP BY place_id"):
        for place in call.store.place_chain(row["place_id"]):
            counts[place["place_id"]] = counts.get(place["place_id"], 0) + row["n"]
    places = [p for p in call.store.all("SELECT * FROM places WHERE place_type_id=?", (type_number,))
              if counts.get(p["place_id"])]
    places.sort(key=lambda p: (-counts[p["place_id"]], p["place_id"]))
    node = Node("places", {"total": len(places), "date_start": start, "date_stop": start + 86399},
                list_of="place")
    for p in places:
        node.add("place", _place_attrs(p) | {"place_type": p["place_type"], "place_type_id": int(p["place_type_id"]),
                                             "woe_name": p["woe_name"], "photo_count": str(counts[p["place_id"]])},
                 text=p["name"])
    return [node]


@method("flickr.places.getInfo")
def get_info(call: Call) -> list[Node]:
    """A place by place_id or woe_id: its own attributes, then its locality, region and country
    (those it has) with theirs, as Flickr answers (no shape data)."""
    place_id, woe_id = call.arg("place_id"), call.arg("woe_id")
    if not place_id and not woe_id:
        raise ApiError(1, "Required parameter missing")
    if not (_PLACE_ID.fullmatch(place_id) if place_id else _WOE_ID.fullmatch(woe_id)):
        raise ApiError(2, "Not a valid Places ID")
    place = call.store.place(place_id) if place_id else call.store.one("SELECT * FROM places WHERE woeid=?",
                                                                        (woe_id,))
    if place is None:
        raise ApiError(3, "Place not found")
    node = Node("place", _place_attrs(place) | {
        "place_type": place["place_type"], "place_type_id": int(place["place_type_id"]),
        "name": place["name"], "woe_name": place["woe_name"], "has_shapedata": 0})
    by_type = {p["place_type"]: p for p in call.store.place_chain(place["place_id"])}
    for kind in ("locality", "region", "country"):
        if kind in by_type:
            node.add(kind, _place_attrs(by_type[kind]), text=by_type[kind]["woe_name"])
    return [node]


def _place_attrs(place: sqlite3.Row) -> dict[str, object]:
    """The attributes Flickr gives a place wherever it names one (coordinates JSON numbers)."""
    return {"place_id": place["place_id"], "woeid": str(place["woeid"]),
            "latitude": Decimal(f"{place['latitude']:.3f}"), "longitude": Decimal(f"{place['longitude']:.3f}"),
            "place_url": place["place_url"]}
