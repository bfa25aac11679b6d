# SPDX-License-Identifier: MIT
"""flickr.groups.pools.getPhotos: a group's pool, latest addition first."""

from __future__ import annotations

from ..envelope import Node
from ..errors import ApiError
from ..seed import normalize_tag
from .common import photo_page, visible
from .registry import Call, method


@method("flickr.groups.pools.getPhotos")
def get_photos(call: Call) -> list[Node]:
    """The pool of ``group_id`` (NSID or path alias), filtered by one tag and by the member who
    added the photos; each photo names its owner and the date it joined the pool."""
    group = call.store.one("SELECT * FROM groups WHERE nsid=? OR path_alias=?",
                           (call.arg("group_id"), call.arg("group_id")))
    if group is None or not call.arg("group_id"):
        raise ApiError(1, "Group not found")
    where = ["gp.group_id = ?", visible()]
    args: list[object] = [group["nsid"], call.caller.nsid or ""]
    if call.arg("user_id"):
        user = call.store.find_user(call.arg("user_id"))
        if user is None:
            raise ApiError(3, "Unknown user")
        where.append("p.owner = ?")
        args.append(user["nsid"])
    tag = normalize_tag(call.arg("tags").split(",")[0]) if call.arg("tags") else ""
    if tag:
        where.append("EXISTS (SELECT 1 FROM tags t WHERE t.photo_id = p.id AND t.tag = ?)")
        args.append(tag)
    return photo_page(call, "FROM group_photos gp JOIN photos p ON p.id = gp.photo_id JOIN users u"
                            " ON u.nsid = p.owner WHERE " + " AND ".join(where), tuple(args),
                      "gp.dateadded DESC, p.id DESC",
                      lambda row: {"ownername": row["x_ownername"], "dateadded": str(row["x_added"])},
                      columns=", u.username AS x_ownername, gp.dateadded AS x_added")
