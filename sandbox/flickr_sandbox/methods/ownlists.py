# SPDX-License-Identifier: MIT
"""The caller's own photo lists: flickr.photos.getNotInSet and flickr.photos.recentlyUpdated."""

from __future__ import annotations

from ..envelope import Node
from ..errors import ApiError
from .common import photo_page
from .criteria import date_criteria, unix_time
from .people import _PRIVACY as PRIVACY
from .registry import Call, method


@method("flickr.photos.getNotInSet", perms=1)
def get_not_in_set(call: Call) -> list[Node]:
    """The caller's photos in no album, oldest upload first (the order of Flickr4Java's
    recording), with the upload and taken date ranges, ``privacy_filter`` and ``media``."""
    where = ["p.owner = ?", "NOT EXISTS (SELECT 1 FROM photoset_photos sp WHERE sp.photo_id = p.id)"]
    args: list[object] = [call.caller.require_user()]
    date_criteria(call, where, args)
    if call.arg("privacy_filter") in PRIVACY:
        where.append(PRIVACY[call.arg("privacy_filter")])
    if call.arg("media") in ("photos", "videos"):
        where.append("p.media = ?")
        args.append(call.arg("media")[:-1])
    return photo_page(call, "FROM photos p WHERE " + " AND ".join(where), tuple(args),
                      "p.dateupload ASC, p.id ASC")


@method("flickr.photos.recentlyUpdated", perms=1)
def recently_updated(call: Call) -> list[Node]:
    """The caller's photos changed (or added) since ``min_date``, latest change first; each
    carries ``lastupdate`` whether asked or not, as Flickr's example shows."""
    if not call.arg("min_date"):
        raise ApiError(1, "Required argument missing.")
    since = unix_time(call.arg("min_date"))
    if since is None:
        raise ApiError(2, "Not a valid date")
    return photo_page(call, "FROM photos p WHERE p.owner = ? AND p.lastupdate >= ?",
                      (call.caller.require_user(), since), "p.lastupdate DESC, p.id DESC",
                      lambda row: {"lastupdate": row["lastupdate"]})
