# SPDX-License-Identifier: MIT
"""flickr.places.getTopPlacesList."""

from __future__ import annotations

import calendar
import time

from ..envelope import Node
from ..errors import ApiError
from ..params import parse_unsigned
from .registry import Call, method

_TYPES = {"neighbourhood": 22, "locality": 7, "region": 8, "country": 12, "continent": 29}


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
    node = Node("places", {"total": len(places), "date_start": start, "date_stop": start + 86399})
    for p in places:
        node.add("place", {"place_id": p["place_id"], "woeid": p["woeid"],
                           "latitude": f"{p['latitude']:.3f}", "longitude": f"{p['longitude']:.3f}",
                           "place_url": p["place_url"], "place_type": p["place_type"],
                           "place_type_id": p["place_type_id"], "woe_name": p["woe_name"],
                           "photo_count": counts[p["place_id"]]}, text=p["name"])
    return [node]
