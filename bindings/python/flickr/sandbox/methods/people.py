# SPDX-License-Identifier: MIT
"""flickr.people.getInfo."""

from __future__ import annotations

import hashlib

from ..envelope import Node
from ..errors import ApiError
from . import Call, method


@method("flickr.people.getInfo")
def get_info(call: Call) -> list[Node]:
    user = call.store.find_user(call.arg("user_id"))
    if user is None:
        raise ApiError(1, "User not found")
    nsid = user["nsid"]
    visible = "(ispublic = 1 OR owner = ?)"
    stats = call.store.row(
        f"SELECT COUNT(*) AS n, MIN(dateupload) AS first, MIN(datetaken) AS first_taken,"
        f" COALESCE(SUM(views), 0) AS views FROM photos WHERE owner = ? AND {visible}",
        (nsid, call.caller.nsid or ""))
    alias = user["path_alias"] or ""
    person = Node("person", {
        "id": nsid, "nsid": nsid, "ispro": user["ispro"], "is_deleted": 0,
        "iconserver": user["iconserver"], "iconfarm": user["iconfarm"], "path_alias": alias,
        "has_stats": 0, "upload_count": stats["n"], "upload_limit": 1000,
        "upload_limit_status": "below_limit", "is_cognito_user": 1,
        "all_rights_reserved_photos_count": 0, "has_adfree": 0, "has_free_standard_shipping": 0,
        "has_free_educational_resources": 0})
    person.add("username", text=user["username"])
    person.add("realname", text=user["realname"])
    person.add("mbox_sha1sum", text=hashlib.sha1(
        f"mailto:{user['username']}@sandbox.invalid".encode()).hexdigest())
    person.add("location", text=user["location"])
    person.add("timezone", {"label": "Coordinated Universal Time", "offset": "+00:00",
                            "timezone_id": "UTC", "timezone": "0"})
    person.add("description", text=user["description"])
    ident = alias or nsid
    person.add("photosurl", text=f"{call.base_url}/photos/{ident}/")
    person.add("profileurl", text=f"{call.base_url}/people/{ident}/")
    person.add("mobileurl", text=f"{call.base_url}/photos/{ident}/")
    photos = person.add("photos")
    photos.add("firstdatetaken", text=stats["first_taken"] or "")
    photos.add("firstdate", text=stats["first"] or "")
    photos.add("count", text=stats["n"])
    photos.add("views", text=stats["views"])
    return [person]


