# SPDX-License-Identifier: MIT
"""flickr.tags.getListUser: every tag a member put on their photos, machine tags included."""

from __future__ import annotations

from ..envelope import Node
from .common import find_user, visible
from .registry import Call, method


@method("flickr.tags.getListUser")
def get_list_user(call: Call) -> list[Node]:
    """``<who id><tags><tag>…`` in alphabetical order (Flickr4Java's recording), from the
    photos the caller may see."""
    user = find_user(call)
    rows = call.store.all(f"SELECT DISTINCT t.tag FROM tags t JOIN photos p ON p.id = t.photo_id"
                          f" WHERE p.owner = ? AND t.author = p.owner AND {visible()} ORDER BY t.tag",
                          (user["nsid"], call.caller.nsid or ""))
    who = Node("who", {"id": str(user["nsid"])})
    tags = who.add("tags")
    for row in rows:
        tags.add("tag", text=row["tag"])
    return [who]
