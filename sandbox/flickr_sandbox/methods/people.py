# SPDX-License-Identifier: MIT
"""flickr.people.getInfo, flickr.people.getPhotos and flickr.urls.lookupUser."""

from __future__ import annotations

import hashlib
from urllib.parse import unquote, urlsplit

from ..envelope import Node
from ..errors import ApiError
from .criteria import NEWEST_FIRST, date_criteria, photo_list, resolve_user
from .registry import Call, method

# privacy_filter: which of the caller's own photos each value keeps.
_PRIVACY = {
    "1": "p.ispublic = 1",
    "2": "p.ispublic = 0 AND p.isfriend = 1 AND p.isfamily = 0",
    "3": "p.ispublic = 0 AND p.isfriend = 0 AND p.isfamily = 1",
    "4": "p.ispublic = 0 AND p.isfriend = 1 AND p.isfamily = 1",
    "5": "p.ispublic = 0 AND p.isfriend = 0 AND p.isfamily = 0",
}
# Stored content types are upload's: 1 photo, 2 screenshot, 3 other. content_types counts from 0
# (and adds 3, virtual photos, which no upload makes); the deprecated content_type names sets.
_CONTENT_TYPES = {"0": 1, "1": 2, "2": 3, "3": 4}
_CONTENT_TYPE = {"1": (1,), "2": (2,), "3": (3,), "4": (1, 2), "5": (2, 3), "6": (1, 3), "7": (1, 2, 3)}


@method("flickr.urls.lookupUser")
def lookup_user(call: Call) -> list[Node]:
    """The user of a photos or profile page, /photos/{alias or NSID}/... or /people/...: on any
    host, as the sandbox's own pages are on itself."""
    segments = [unquote(piece) for piece in urlsplit(call.arg("url") or "").path.split("/") if piece]
    user = call.store.find_user(segments[1]) if len(segments) >= 2 and segments[0] in ("photos", "people") else None
    if user is None:
        raise ApiError(1, "User not found")
    node = Node("user", {"id": user["nsid"]})
    node.add("username", text=user["username"])
    return [node]


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
        "id": nsid, "nsid": nsid, "ispro": int(user["ispro"]), "is_deleted": 0,
        "iconserver": str(user["iconserver"]), "iconfarm": int(user["iconfarm"]), "path_alias": alias,
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
    photos.add("firstdate", text=str(stats["first"] or ""))
    photos.add("count", text=int(stats["n"]))  # a number in Flickr's JSON, the dates strings
    photos.add("views", text=int(stats["views"]))
    return [person]


@method("flickr.people.getPhotos")
def get_photos(call: Call) -> list[Node]:
    """A user's photostream, newest upload first: what the caller may see of it.

    Flickr's page for it says it must be authenticated, its method info asks for no login
    (needslogin 0): an unsigned call gets the public photos. ``user_id=me`` needs a login (99).
    """
    if not call.arg("user_id"):
        raise ApiError(1, "Required arguments missing")
    owner = resolve_user(call, call.arg("user_id"))
    where = ["p.owner = ?", "(p.ispublic = 1 OR p.owner = ?)"]
    args: list[object] = [owner, call.caller.nsid or ""]
    date_criteria(call, where, args)
    if owner == call.caller.nsid and call.arg("privacy_filter") in _PRIVACY:
        where.append(_PRIVACY[call.arg("privacy_filter")])
    # Safety as uploads store it (1 safe, 2 moderate, 3 restricted; seeded photos hold 0, safe).
    # Without a login only safe photos show, as on Flickr.
    safe_search = call.arg("safe_search") if call.caller.nsid else "1"
    if safe_search in ("1", "2"):
        where.append("MAX(p.safety_level, 1) <= ?")
        args.append(int(safe_search))
    wanted = [_CONTENT_TYPES[t.strip()] for t in call.arg("content_types").split(",")
              if t.strip() in _CONTENT_TYPES]
    kinds = tuple(wanted) or _CONTENT_TYPE.get(call.arg("content_type"), ())
    if kinds:
        where.append(f"p.content_type IN ({','.join('?' * len(kinds))})")
        args.extend(kinds)
    return photo_list(call, where, args, NEWEST_FIRST)
