# SPDX-License-Identifier: MIT
"""flickr.photos.getExif: the seeded EXIF, TIFF and GPS tags of a photo."""

from __future__ import annotations

from ..envelope import Node
from ..errors import ApiError
from ..seed_extras import CAMERAS
from .common import find_photo
from .registry import Call, method

# Flickr's camera names (camera="...") for the models the seed's EXIF carries.
_CAMERA_NAMES = {model: name for _, model, name, _, _ in CAMERAS}


@method("flickr.photos.getExif")
def get_exif(call: Call) -> list[Node]:
    """A photo the caller may see (or whose ``secret`` is passed); error 2 for someone else's
    photo when its owner hides EXIF (Flickr's "Hide EXIF data" setting)."""
    photo = find_photo(call, secret=True)
    if photo["owner"] != call.caller.nsid:
        prefs = call.store.one("SELECT hide_exif FROM user_prefs WHERE nsid=?", (photo["owner"],))
        if prefs is not None and prefs["hide_exif"]:
            raise ApiError(2, "Permission denied")
    tags = call.store.all("SELECT * FROM exif WHERE photo_id=? ORDER BY seq", (photo["id"],))
    model = next((t["raw"] for t in tags if t["tag"] == "Model"), "")
    node = Node("photo", {"id": str(photo["id"]), "secret": photo["secret"], "server": str(photo["server"]),
                          "farm": int(photo["farm"]), "camera": _CAMERA_NAMES.get(model, model)})
    for tag in tags:
        item = node.add("exif", {"tagspace": tag["tagspace"], "tagspaceid": 0, "tag": tag["tag"],
                                 "label": tag["label"]})
        item.add("raw", text=tag["raw"])
        if tag["clean"] is not None:
            item.add("clean", text=tag["clean"])
    return [node]
