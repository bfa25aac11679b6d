# SPDX-License-Identifier: MIT
"""What the photo-list methods (photos.search, people.getPhotos) share: the user a
``user_id`` names, the upload and taken date ranges, and the paged query under every list.

One copy of each, so two methods given the same argument answer alike, as Flickr's do.
"""

from __future__ import annotations

import calendar
import math
import time

from ..envelope import Node
from ..errors import ApiError
from ..params import parse_int
from .limit_table import SEARCH_RESULT_CAP
from .photolist import paginate, parse_extras, photo_element
from .registry import Call

# flickr.photos.search's documentation: "Flickr will return at most the first 4,000 results for any
# given search query"; past them pages repeat (gallery-dl #116: "page 102 was the same as page 103,
# 104, etc."; douwekiela/mmfeat#9: "the rest after that being duplicates"). data/flickr-limits.json.
SEARCH_CAP = SEARCH_RESULT_CAP
# A photostream's order (and search's default): newest upload first, ties by id.
NEWEST_FIRST = "p.dateupload DESC, p.id DESC"

# The end of MySQL's DATETIME range, where taken dates live: later unix times are clamped to it.
_LAST_DATETIME = calendar.timegm((9999, 12, 31, 23, 59, 59))


def resolve_user(call: Call, ident: str) -> str:
    """The NSID a ``user_id`` names: "me" is the caller (who must be logged in), else any user."""
    if ident == "me":
        return call.caller.require_user()
    user = call.store.find_user(ident)
    if user is None:
        raise ApiError(2, "Unknown user")
    return str(user["nsid"])


def unix_time(value: str) -> int | None:
    """Flickr dates: unix seconds (saturated to 64 bits) or MySQL datetime (``YYYY-MM-DD[ HH:MM:SS]``)."""
    if value.isascii() and value.isdigit():
        return parse_int(value, 0, saturate=True)
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d"):
        try:
            return calendar.timegm(time.strptime(value, fmt))
        except ValueError:
            pass
    return None


def mysql_time(value: str) -> str | None:
    stamp = unix_time(value)
    if stamp is None:
        return None
    # gmtime() fails on far-future times (OverflowError, OSError): clamp first.
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(min(stamp, _LAST_DATETIME)))


def date_criteria(call: Call, where: list[str], args: list[object]) -> None:
    """Add ``min_/max_upload_date`` and ``min_/max_taken_date``; a value that is no date is ignored."""
    for name, op, column, convert in (("min_upload_date", ">=", "p.dateupload", unix_time),
                                      ("max_upload_date", "<=", "p.dateupload", unix_time),
                                      ("min_taken_date", ">=", "p.datetaken", mysql_time),
                                      ("max_taken_date", "<=", "p.datetaken", mysql_time)):
        if call.arg(name):
            value = convert(call.arg(name))
            if value is not None:
                where.append(f"{column} {op} ?")
                args.append(value)


def license_criteria(call: Call, where: list[str], args: list[object]) -> None:
    """Add ``license``: comma-separated licence ids, any of them (Flickr: "Multiple licenses may
    be comma-separated"); a part that is no number is ignored, as Flickr ignores a bad value."""
    ids = [int(part) for part in call.arg("license").split(",") if part.strip().isascii() and part.strip().isdigit()
           and len(part.strip()) < 10]
    if ids:
        where.append(f"p.license IN ({','.join('?' * len(ids))})")
        args.extend(ids)


def photo_list(call: Call, where: list[str], args: list[object], order: str,
               default_per_page: int = 100, cap: int | None = None) -> list[Node]:
    """``<photos page pages perpage total>`` of the rows matching ``where``, one page of them.

    With ``cap`` (photos.search: SEARCH_CAP) only the first ``cap`` rows are ever listed, as on
    Flickr: ``total`` and ``pages`` still count them all, and a page past the cap repeats the
    last page within it.
    """
    page, per_page = call.page_args(default_per_page)
    clause = " AND ".join(where) or "1"
    total = call.store.row(f"SELECT COUNT(*) AS n FROM photos p WHERE {clause}", tuple(args))["n"]
    shown, limit = page, per_page
    if cap is not None and page * per_page > cap:
        shown = min(page, math.ceil(cap / per_page))
        limit = max(0, min(per_page, cap - (shown - 1) * per_page))
    rows = call.store.all(f"SELECT p.* FROM photos p WHERE {clause} ORDER BY {order} LIMIT ? OFFSET ?",
                          tuple(args) + (limit, (shown - 1) * per_page))
    extras = parse_extras(call.arg("extras"))
    photos = Node("photos", paginate(total, page, per_page), list_of="photo")
    photos.children = [photo_element(call.store, call.base_url, row, extras, viewer=call.caller.nsid)
                       for row in rows]
    return [photos]


def _machine_tag_parts(text: str) -> tuple[str, str, str] | None:
    """``ns:pred=value`` as its three parts, lower case, the value's quotes dropped; "" for a part
    left out and "*" as written. None for text that is no machine tag query."""
    namespace, colon, rest = text.strip().lower().partition(":")
    if not colon or not namespace:
        return None
    predicate, _, value = rest.partition("=")
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    return namespace, predicate, value


def _matches(query: tuple[str, str, str], tag: tuple[str, str, str]) -> bool:
    # A part left out ("dc:", "dc:title=") or written "*" matches any value of it, as on Flickr.
    return all(want in ("", "*") or want == have for want, have in zip(query, tag))


def machine_tag_criteria(call: Call, where: list[str], args: list[object]) -> None:
    """Add ``machine_tags``: a comma-separated list of ``ns:pred=value``, ``ns:pred=``, ``ns:``,
    ``*:pred=``, ``ns:*=value``...; with ``machine_tag_mode=all`` a photo needs every one, else any."""
    if not call.arg("machine_tags").strip():
        return
    queries = [q for q in map(_machine_tag_parts, call.arg("machine_tags").split(",")) if q]
    tagged: dict[int, list[tuple[str, str, str]]] = {}
    # The raw tag: its value as written ("Felis catus"), which the clean tag no longer spells.
    for row in call.store.all("SELECT photo_id, raw FROM tags WHERE machine_tag = 1"):
        parts = _machine_tag_parts(row["raw"])
        if parts:
            tagged.setdefault(row["photo_id"], []).append(parts)
    combine = all if call.arg("machine_tag_mode", "any") == "all" else any
    ids = [photo_id for photo_id, tags in tagged.items()
           if queries and combine(any(_matches(q, tag) for tag in tags) for q in queries)]
    where.append(f"p.id IN ({','.join('?' * len(ids)) or 'NULL'})")
    args.extend(ids)
