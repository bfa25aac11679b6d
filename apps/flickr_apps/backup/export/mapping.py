# SPDX-License-Identifier: MIT
"""An export's JSON in the backup's own model: `photo_<id>.json` as a listing's photo (the fields a
photo list's extras carry, named as Flickr's API names them) and the per-item details the sidecar
reads; albums.json as flickr.photosets.getList's albums; account_profile.json as people.getInfo's
person. docs/export.md gives each member's source; this says only what the export says: what it
cannot tell (which of friends or family, a licence without a known id) is left out and said.

Every value is checked for its type here (a hostile file may hold anything); the backup's field
rules (fields.py) then check its form, as for the API's answers.
"""
from __future__ import annotations

import calendar
import posixpath
import re
import time
import urllib.parse
from typing import Any, NamedTuple, Optional

from ..licences import Licences

FROM_EXPORT = "from_export"  # the mark of a listing made from an export (engine.py: what a later API run compares)
_ID = re.compile(r"[0-9]{1,20}")
_MILLIONTHS = re.compile(r"-?[0-9]{1,12}")
_VIDEO = {"mp4", "mov", "m4v", "avi", "3gp", "mpg", "mpeg", "wmv", "mts", "m2ts", "webm", "ogv", "mkv"}
_TEXT_LIMIT = 1 << 20  # a title, a description or a comment: longer is cut (and said)
FRIEND_FAMILY = "friend & family"  # the export's privacy for friends only, family only and both alike
SPLIT_UNKNOWN = ("export: privacy \"friend & family\" is written alike for friends only, family only and both: "
                 "written as both (a backup with the API, or --fill with a key, tells them apart)")
_PEOPLE = re.compile(r"https?://(?:www\.)?flickr\.com/(?:people|photos)/([^/]{1,100})/?")


class Photo(NamedTuple):
    id: str
    listed: dict[str, Any]  # the listing's photo this export's JSON tells
    details: dict[str, Any]  # "export": the JSON as read; "comments" in comments.getList's form; "problems"


def _text(value: Any, field: str, problems: list[str]) -> Optional[str]:
    if value is None:
        return None
    if not isinstance(value, str):
        problems.append(f"export: {field} is not text ({type(value).__name__}): left out")
        return None
    if len(value) > _TEXT_LIMIT:
        problems.append(f"export: {field} is {len(value)} characters long: cut to {_TEXT_LIMIT}")
        return value[:_TEXT_LIMIT]
    return value


def stamp(value: Any) -> Optional[int]:
    """The export's "YYYY-MM-DD hh:mm:ss" (UTC assumed, docs/export.md) as Unix time."""
    if not isinstance(value, str) or not value.isascii():
        return None
    try:
        return calendar.timegm(time.strptime(value[:19], "%Y-%m-%d %H:%M:%S"))
    except (ValueError, OverflowError):
        return None


def _degrees(value: Any) -> Optional[str]:
    """Millionths of a degree, signed, as a string ("-123159753") -> "-123.159753"."""
    if isinstance(value, bool) or not isinstance(value, (str, int)) or not _MILLIONTHS.fullmatch(str(value)):
        return None
    number = int(value)
    sign = "-" if number < 0 else ""
    return f"{sign}{abs(number) // 1_000_000}.{abs(number) % 1_000_000:06d}"


def _original(url: Any) -> dict[str, str]:
    """server, originalsecret and originalformat from `original`'s URL (.../<server>/<id>_<secret>_o.<ext>)."""
    if not isinstance(url, str) or len(url) > 2000:
        return {}
    path = urllib.parse.urlsplit(url).path
    match = re.fullmatch(r"/([0-9]{1,10})/([0-9]{1,20})_([0-9a-f]{1,40})_o\.([A-Za-z0-9]{1,10})", path)
    if not match:
        return {}
    return {"server": match.group(1), "originalsecret": match.group(3), "originalformat": match.group(4).lower()}


def photo(found: Any, file_id: str, licences: Licences, owner: dict[str, str]) -> Photo:
    """`photo_<file_id>.json`'s value as the backup's item. ValueError when it is not an item at all
    (not an object, or another id than its name's)."""
    if not isinstance(found, dict):
        raise ValueError("not a JSON object")
    if str(found.get("id")) != file_id:
        raise ValueError(f"its id {str(found.get('id'))[:40]!r} is not its name's {file_id}")
    problems: list[str] = []
    listed: dict[str, Any] = {"id": file_id, FROM_EXPORT: True, "owner": owner.get("nsid", ""),
                              "ownername": owner.get("username", ""), "pathalias": owner.get("path_alias", "")}
    for key, field in (("title", "name"), ("description", "description")):
        value = _text(found.get(field), field, problems)
        if value is not None:
            listed[key] = value
    taken = found.get("date_taken")
    if isinstance(taken, str):
        listed["datetaken"] = taken  # its form is checked by fields.py, as the API's
    uploaded = stamp(found.get("date_imported"))
    if uploaded is not None:
        listed["dateupload"] = str(uploaded)
    for key, field in (("views", "count_views"), ("count_faves", "count_faves"), ("count_comments", "count_comments")):
        value = found.get(field)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            listed[key] = str(value)
    original = _original(found.get("original"))
    listed.update(original)
    listed["media"] = "video" if original.get("originalformat") in _VIDEO else "photo"
    _licence(found.get("license"), licences, listed, problems)
    _privacy(found.get("privacy"), listed, problems)
    geo = found.get("geo")
    if isinstance(geo, dict):
        latitude, longitude = _degrees(geo.get("latitude")), _degrees(geo.get("longitude"))
        if latitude is not None and longitude is not None:
            listed.update(latitude=latitude, longitude=longitude)
            accuracy = geo.get("accuracy")
            if isinstance(accuracy, (str, int)) and not isinstance(accuracy, bool):
                listed["accuracy"] = str(accuracy)
        else:
            problems.append("export: geo is not in millionths of a degree: left out")
    details: dict[str, Any] = {"export": found, "comments": _comments(found.get("comments"), file_id, problems)}
    if problems:
        details["problems"] = problems
    return Photo(file_id, listed, details)


def tags(found: Any) -> list[str]:
    """The raw tags of `photo_<id>.json` (each as its owner wrote it)."""
    if not isinstance(found, dict) or not isinstance(found.get("tags"), list):
        return []
    return [t["tag"] for t in found["tags"] if isinstance(t, dict) and isinstance(t.get("tag"), str) and t["tag"]]


def _licence(name: Any, licences: Licences, listed: dict[str, Any], problems: list[str]) -> None:
    if name is None:
        problems.append("export: no licence given (Flickr's export writes null for some): left out")
        return
    found = licences.id_of(name) if isinstance(name, str) else None
    if found is None:
        problems.append(f"export: licence {str(name)[:80]!r} has no id this backup knows without the API: left out")
        return
    listed["license"] = found


def _privacy(value: Any, listed: dict[str, Any], problems: list[str]) -> None:
    flags = {"public": ("1", "0", "0"), "private": ("0", "0", "0"), "friends": ("0", "1", "0"),
             "family": ("0", "0", "1"), "friend & family": ("0", "1", "1")}.get(value if isinstance(value, str) else "")
    if flags is None:
        problems.append(f"export: privacy {str(value)[:40]!r} is none Flickr writes: left out")
        return
    listed.update(ispublic=flags[0], isfriend=flags[1], isfamily=flags[2])
    if value == FRIEND_FAMILY:
        problems.append(SPLIT_UNKNOWN)


def _comments(found: Any, photo_id: str, problems: list[str]) -> dict[str, Any]:
    """The export's comments in flickr.photos.comments.getList's form (the sidecar reads that)."""
    comments = []
    for entry in found if isinstance(found, list) else []:
        if not isinstance(entry, dict):
            continue
        comments.append({"id": str(entry.get("id", ""))[:200], "author": author(entry),
                         "authorname": "", "datecreate": str(stamp(entry.get("date")) or ""),
                         "_text": _text(entry.get("comment"), "a comment", problems) or ""})
    return {"comments": {"photo_id": photo_id, "comment": comments}}


def author(comment: Any) -> str:
    """A comment's author as its profile URL names it (an NSID, or a path alias); "" for none."""
    user = comment.get("user") if isinstance(comment, dict) else None
    found = _PEOPLE.fullmatch(user) if isinstance(user, str) else None
    return found.group(1) if found else ""


def album(found: Any) -> Optional[tuple[dict[str, Any], list[str]]]:
    """An albums.json album as flickr.photosets.getList's (info) and its members; None when it is no album."""
    if not isinstance(found, dict) or not _ID.fullmatch(str(found.get("id"))):
        return None
    members = [str(m) for m in found.get("photos") or [] if isinstance(m, (str, int)) and _ID.fullmatch(str(m))] \
        if isinstance(found.get("photos"), list) else []
    cover = _PEOPLE.match(str(found.get("cover_photo") or ""))
    primary = posixpath.basename(str(found.get("cover_photo") or "").rstrip("/")) if cover else ""
    info: dict[str, Any] = {"id": str(found["id"]), FROM_EXPORT: True,
                            "title": found["title"] if isinstance(found.get("title"), str) else "",
                            "description": found["description"] if isinstance(found.get("description"), str) else "",
                            "date_create": str(found.get("created") or ""),
                            "date_update": str(found.get("last_updated") or ""),
                            "count_photos": str(len(members)), "primary": primary if _ID.fullmatch(primary) else ""}
    return info, members


def gallery(found: Any) -> Optional[tuple[dict[str, Any], list[str]]]:
    """A galleries.json gallery (its id, title, description, url) and its photos' ids (mostly other
    members' photos: listed in index.json, not files of the archive); None when it is no gallery."""
    if not isinstance(found, dict) or not _ID.fullmatch(str(found.get("id"))):
        return None
    members = [str(m) for m in found["photos"] if isinstance(m, (str, int)) and _ID.fullmatch(str(m))] \
        if isinstance(found.get("photos"), list) else []
    info = {key: found[key] if isinstance(found.get(key), str) else "" for key in ("title", "description", "url")}
    return {"id": str(found["id"]), **info}, members


def account(found: Any) -> dict[str, Any]:
    """account_profile.json as flickr.people.getInfo's person (nsid, username, realname, path_alias)."""
    if not isinstance(found, dict):
        return {}
    def field(key: str) -> str:
        value = found.get(key)
        return value[:1000] if isinstance(value, str) else ""
    alias = _PEOPLE.fullmatch(field("profile_url"))
    person: dict[str, Any] = {"nsid": field("nsid"), "id": field("nsid"), "username": {"_text": field("screen_name")},
                              "realname": {"_text": field("real_name")},
                              "path_alias": alias.group(1) if alias and alias.group(1) != field("nsid") else "",
                              "description": {"_text": field("description")}, "ispro": int(field("pro_user") == "yes"),
                              FROM_EXPORT: True}
    return person
