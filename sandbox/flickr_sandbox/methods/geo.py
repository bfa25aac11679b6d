# SPDX-License-Identifier: MIT
"""flickr.photos.geo.getLocation: a photo's place with its neighbourhood, locality, county,
region and country, as Flickr's reverse geocoding names them."""

from __future__ import annotations

import math
import sqlite3

from ..envelope import Node
from ..errors import ApiError
from ..store import Store
from .common import find_photo
from .photolist import fmt_coord
from .registry import Call, method

# Flickr names a neighbourhood only for street-level geotags (accuracy 15 and 16).
NEIGHBOURHOOD_ACCURACY = 15


def _nearest(rows: list[sqlite3.Row], lat: float, lon: float) -> sqlite3.Row | None:
    return min(rows, key=lambda p: math.hypot(p["latitude"] - lat, p["longitude"] - lon), default=None)


def photo_places(store: Store, photo: sqlite3.Row) -> dict[str, sqlite3.Row]:
    """The places of a geotagged photo by type: its locality's chain, the nearest county of the
    region and, for an accurate geotag, the nearest neighbourhood of the locality."""
    by_type = {p["place_type"]: p for p in store.place_chain(photo["place_id"])}
    lat, lon = photo["latitude"], photo["longitude"]
    region, locality = by_type.get("region"), by_type.get("locality")
    if region is not None:
        county = _nearest(store.all("SELECT * FROM places WHERE parent_id=? AND place_type='county'",
                                    (region["place_id"],)), lat, lon)
        if county is not None:
            by_type["county"] = county
    if locality is not None and (photo["accuracy"] or 0) >= NEIGHBOURHOOD_ACCURACY:
        hood = _nearest(store.all("SELECT * FROM places WHERE parent_id=? AND place_type='neighbourhood'",
                                  (locality["place_id"],)), lat, lon)
        if hood is not None:
            by_type["neighbourhood"] = hood
    return by_type


@method("flickr.photos.geo.getLocation")
def get_location(call: Call) -> list[Node]:
    photo = find_photo(call, "Photo not found.")
    if photo["latitude"] is None:
        raise ApiError(2, "Photo has no location information.")
    places = photo_places(call.store, photo)
    finest = places.get("neighbourhood") or places.get("locality")
    attrs: dict[str, object] = {"latitude": fmt_coord(photo["latitude"], True),
                                "longitude": fmt_coord(photo["longitude"], True),
                                "accuracy": photo["accuracy"], "context": 0}
    if finest is not None:
        attrs.update(place_id=finest["place_id"], woeid=finest["woeid"])
    node = Node("photo", {"id": str(photo["id"])})
    location = node.add("location", attrs)
    for kind in ("neighbourhood", "locality", "county", "region", "country"):
        place = places.get(kind)
        if place is not None:
            location.add(kind, {"place_id": place["place_id"], "woeid": place["woeid"]}, text=place["woe_name"])
    return [node]
