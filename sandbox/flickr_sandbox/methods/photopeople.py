# SPDX-License-Identifier: MIT
"""flickr.photos.people.getList: the members marked in a photo."""

from __future__ import annotations

from ..envelope import Node
from .common import find_photo
from .photolist import SIZES, size_dims
from .registry import Call, method

_MEDIUM = next(size for size in SIZES if size[0] == "Medium")


@method("flickr.photos.people.getList")
def get_list(call: Call) -> list[Node]:
    """``<people total photo_width photo_height>`` (the 500-pixel view the boxes refer to, as in
    Flickr4Java's recording), one ``<person>`` per member with the attributes of Flickr's method
    page, and a box when one was drawn."""
    photo = find_photo(call)
    width, height = size_dims(photo, _MEDIUM) or (photo["width"], photo["height"])
    rows = call.store.all("SELECT pp.*, u.username, u.realname, u.iconserver, u.iconfarm"
                          " FROM photo_people pp JOIN users u ON u.nsid = pp.nsid WHERE pp.photo_id = ?"
                          " ORDER BY pp.nsid", (photo["id"],))
    node = Node("people", {"total": len(rows), "photo_width": width, "photo_height": height})
    for row in rows:
        attrs: dict[str, object] = {"nsid": row["nsid"], "username": row["username"],
                                    "iconserver": str(row["iconserver"]), "iconfarm": int(row["iconfarm"]),
                                    "realname": row["realname"], "added_by": row["added_by"]}
        if row["x"] is not None:
            attrs.update(x=row["x"], y=row["y"], w=row["w"], h=row["h"])
        node.add("person", attrs)
    return [node]
