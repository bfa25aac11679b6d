# SPDX-License-Identifier: MIT
"""`check`: every value from Flickr that an item's sidecars, names and index use, checked field by field.

One place for what a valid field is. A field of the wrong shape or out of range (a latitude of
1e999 or NaN, a title or a description given twice, a date in digits other than ASCII's, a count
that is no number) is dropped: the item is kept and backed up, its sidecar lists each dropped
field with its value and why under "dropped", and "flickr" still holds every answer as it came.
A valid field is kept as Flickr gave it (text or number, attribute or element).
"""
from __future__ import annotations

import math
import re
from typing import Any, Callable, NamedTuple, Optional

from flickr.values import text

DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}")  # ASCII digits: \d takes any script's
_DECIMAL = re.compile(r"-?(?:[0-9]{1,20}(?:\.[0-9]{0,20})?|\.[0-9]{1,20})")
_COUNT = re.compile(r"[0-9]{1,18}")  # below 2^63
_ID = re.compile(r"[0-9]{1,20}")


def one_text(value: Any) -> str:
    """The text of a title-like field an album, a collection or the account gives, or "" when it is not
    one text (a repeated element, a number): names and indexes never stop on such a value; the raw
    answer kept beside them ("flickr") still holds it as it came."""
    try:
        _text(value)
    except _Invalid:
        return ""
    return text(value)


class _Invalid(Exception):
    """The reason a value is dropped."""


def _text(value: Any) -> None:
    """An attribute (a str) or an element ({"_text": ..., attributes}; {} when empty)."""
    if isinstance(value, list):
        raise _Invalid(f"given {len(value)} times (a repeated element): which one is meant is unknown")
    if not isinstance(value, (str, dict)):
        raise _Invalid(f"not text ({type(value).__name__})")
    if isinstance(value, dict) and not isinstance(value.get("_text", ""), str):
        raise _Invalid("an element whose text is not text")


def _attribute(value: Any) -> None:
    if not isinstance(value, str):
        raise _Invalid("not text" if not isinstance(value, list) else f"given {len(value)} times")


def _scalar(value: Any) -> str:
    """The text of a number as an attribute, an element or a JSON number (never a bool)."""
    if isinstance(value, dict):
        _text(value)
        value = value.get("_text", "")
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise _Invalid("not a number" if not isinstance(value, list) else f"given {len(value)} times")
    return str(value)


def _count(top: int = 2**63 - 1) -> Callable[[Any], None]:
    def rule(value: Any) -> None:
        found = _scalar(value)
        if found == "":
            return  # Flickr's empty attribute: no value, nothing to note
        if not _COUNT.fullmatch(found) or int(found) > top:
            raise _Invalid(f"not a whole number 0..{top} in ASCII digits")
    return rule


def _flag(value: Any) -> None:
    if value not in (True, False, 0, 1, "0", "1", ""):
        raise _Invalid("not a flag (0 or 1)")


def _date(value: Any) -> None:
    if not isinstance(value, str) or not DATE.fullmatch(value):
        raise _Invalid("not a date YYYY-MM-DD hh:mm:ss in ASCII digits")


def _coordinate(limit: int) -> Callable[[Any], None]:
    def rule(value: Any) -> None:
        found = _scalar(value) if not isinstance(value, dict) else "an element"  # read by float(): an attribute
        number = float(found) if isinstance(value, (int, float)) or _DECIMAL.fullmatch(found) else math.nan
        if not math.isfinite(number) or abs(number) > limit:
            raise _Invalid(f"not a finite number in -{limit}..{limit}")
    return rule


def _id(value: Any) -> None:
    if not isinstance(value, (str, int)) or isinstance(value, bool) or not _ID.fullmatch(str(value)):
        raise _Invalid("not a Flickr id (ASCII digits)")


def _media(value: Any) -> None:
    if value not in ("photo", "video"):
        raise _Invalid("neither photo nor video")


_TEXT, _COUNTS, _FLAG = _text, _count(), _flag
_LOCATION: dict[str, Callable[[Any], None]] = {
    "latitude": _coordinate(90), "longitude": _coordinate(180), "accuracy": _count(16), "context": _count(2),
    "place_id": _attribute, "woeid": _count(),
    **{kind: _TEXT for kind in ("neighbourhood", "locality", "county", "region", "country")}}
# A photo list's photo (the listing's extras: attributes, and description an element).
LISTING: dict[str, Callable[[Any], None]] = {
    "id": _id, "title": _TEXT, "description": _TEXT, "owner": _attribute, "ownername": _attribute,
    "pathalias": _attribute, "datetaken": _date, "datetakengranularity": _COUNTS, "datetakenunknown": _FLAG,
    "dateupload": _COUNTS, "lastupdate": _COUNTS, "license": _COUNTS, "ispublic": _FLAG, "isfriend": _FLAG,
    "isfamily": _FLAG, "views": _COUNTS, "count_faves": _COUNTS, "count_comments": _COUNTS, "media": _media,
    "media_status": _attribute, "originalformat": _attribute, "tags": _attribute, "machine_tags": _attribute,
    "o_width": _COUNTS, "o_height": _COUNTS, **_LOCATION}
# flickr.photos.getInfo's photo: its elements, each a dict of its own fields.
INFO: dict[str, Any] = {
    "id": _id, "title": _TEXT, "description": _TEXT, "license": _COUNTS, "safety_level": _COUNTS, "views": _COUNTS,
    "media": _media, "originalformat": _attribute, "comments": _COUNTS,
    "owner": {"nsid": _attribute, "username": _attribute, "realname": _attribute, "path_alias": _attribute},
    "dates": {"taken": _date, "takengranularity": _COUNTS, "takenunknown": _FLAG, "posted": _COUNTS,
              "lastupdate": _COUNTS},
    "visibility": {"ispublic": _FLAG, "isfriend": _FLAG, "isfamily": _FLAG},
    "location": _LOCATION}


class Checked(NamedTuple):
    listing: dict[str, Any]  # the listing's photo without its invalid fields
    info: dict[str, Any]  # getInfo's photo without its invalid fields ({} when not asked)
    dropped: list[dict[str, str]]  # {"field", "value", "reason"} of each field left out


def check(listed: dict[str, Any], info: Optional[dict[str, Any]] = None) -> Checked:
    """The listing's photo and getInfo's, each without the fields that are not valid; what was dropped."""
    dropped: list[dict[str, str]] = []
    return Checked(_check(listed, LISTING, "listing", dropped), _check(info or {}, INFO, "getInfo", dropped),
                   dropped)


def _check(found: dict[str, Any], rules: dict[str, Any], where: str, dropped: list[dict[str, str]]) -> dict[str, Any]:
    kept = dict(found)
    for key, rule in rules.items():
        if key not in found or found[key] is None:
            continue
        value = found[key]
        try:
            if isinstance(rule, dict):
                if not isinstance(value, dict):
                    raise _Invalid("not an element with fields" if not isinstance(value, list)
                                   else f"given {len(value)} times (a repeated element)")
                kept[key] = _check(value, rule, f"{where}.{key}", dropped)
            else:
                rule(value)
        except _Invalid as reason:
            del kept[key]
            shown = value if isinstance(value, str) else repr(value)
            dropped.append({"field": f"{where}.{key}", "value": shown[:200], "reason": str(reason)})
    return kept
