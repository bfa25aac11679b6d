# SPDX-License-Identifier: MIT
"""A backup sidecar read as a Lifeboat's photo file and index entry, and the indexes built from
them (docs/lifeboat.md: "The metadata files" and "From a `flickr backup` archive").

Fields a backup lacks are null or empty, never guessed; where the format wants a value the backup
cannot give, the rule is in docs/lifeboat.md (ASSUMED points) and here in a comment.
"""
from __future__ import annotations

import json
import re
import time
import unicodedata
from typing import Any, Optional

from flickr import urls

# Flickr's date-taken granularities (flickr.photos.getInfo's takengranularity) by their names.
_GRANULARITY = {0: "second", 4: "month", 6: "year", 8: "circa"}
_SAFETY = {0: "safe", 1: "moderate", 2: "restricted"}
_TAKEN = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2}) ([0-9]{2}:[0-9]{2}:[0-9]{2})")
_SECRET = re.compile(r"[0-9a-f]{1,40}")


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    """A list from the archive's JSON, or none: a number or an object where a list belongs is
    not iterated (a hand-edited or hostile index must fail nothing but its own field)."""
    return value if isinstance(value, list) else []


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _count(value: Any) -> int:
    """A count as the format wants one: a non-negative integer (0 where the backup has none)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def js_file(name: str, value: dict[str, Any]) -> bytes:
    """`const NAME = {JSON};`: the form a page opened from disk can load with a <script> tag.
    `</` is written `<\\/` (the same JSON string) so that no text can close a script element, and
    U+2028/U+2029 escaped (JavaScript before ES2019 ends a line there)."""
    text = json.dumps(value, ensure_ascii=False, indent=2, allow_nan=False)
    text = text.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"const {name} = {text};\n".encode("utf-8", "backslashreplace")


def iso_utc(seconds: Any) -> Optional[str]:
    """A Unix time as `YYYY-MM-DDThh:mm:ssZ`; None when there is none or it is out of range."""
    if not isinstance(seconds, int) or isinstance(seconds, bool) or not 0 <= seconds < 253402300800:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def date_taken(dates: dict[str, Any]) -> Optional[dict[str, str]]:
    found = _TAKEN.fullmatch(_text(dates.get("taken")))
    level = dates.get("taken_granularity")
    granularity = _GRANULARITY.get(level if isinstance(level, int) else -1)
    if dates.get("taken_unknown") or found is None or granularity is None:
        return None
    return {"value": f"{found.group(1)}T{found.group(2)}", "granularity": granularity}


def visibility(sidecar: dict[str, Any]) -> str:
    """The Foundation's names for who may see a photo ([F6])."""
    seen = _dict(sidecar.get("visibility"))
    if seen.get("public"):
        return "public"
    friend, family = bool(seen.get("friend")), bool(seen.get("family"))
    return {(True, True): "friends and family", (True, False): "friends only",
            (False, True): "family only"}.get((friend, family), "private")


_MACHINE_TAG = re.compile(r"[^:\s]+:[^=\s]+=.*", re.DOTALL)  # namespace:predicate=value


def normalised_tag(raw: str) -> str:
    """Flickr's normalised form where the archive has only the raw tag (an export's): lower case,
    letters and digits only (ASSUMED; machine tags keep their `:` and `=`)."""
    keep = ":=" if _MACHINE_TAG.fullmatch(raw) else ""
    return "".join(c for c in unicodedata.normalize("NFC", raw).lower() if c.isalnum() or c in keep)


def tags(sidecar: dict[str, Any], uploader: str) -> list[dict[str, Any]]:
    found = []
    for tag in _list(sidecar.get("tags")):
        if not isinstance(tag, dict):
            continue
        raw = _text(tag.get("raw")) or _text(tag.get("tag"))
        normalised = _text(tag.get("tag")) or normalised_tag(raw)
        if not normalised:
            continue
        # The listing names no tag's author (a backup without --info): the uploader (ASSUMED).
        found.append({"authorId": _text(tag.get("author")) or uploader, "rawValue": raw or normalised,
                      "normalizedValue": normalised,
                      "isMachineTag": tag["machine_tag"] if isinstance(tag.get("machine_tag"), bool)
                      else _MACHINE_TAG.fullmatch(raw or normalised) is not None})
    return found


def comments(sidecar: dict[str, Any]) -> list[dict[str, str]]:
    found = []
    for comment in _list(sidecar.get("comments")):
        date = iso_utc(_dict(comment).get("date"))
        if date is None or not _text(comment.get("author")):
            continue  # the format wants both; a comment without them is not made up
        found.append({"id": _text(comment.get("id")), "authorId": comment["author"],
                      "text": _text(comment.get("text")), "date": date})
    return found


def location(sidecar: dict[str, Any]) -> Optional[dict[str, Any]]:
    where = sidecar.get("location")
    if not isinstance(where, dict):
        return None
    latitude, longitude = where.get("latitude"), where.get("longitude")
    if not (isinstance(latitude, (int, float)) and isinstance(longitude, (int, float))
            and -90 <= latitude <= 90 and -180 <= longitude <= 180):
        return None
    return {"latitude": latitude, "longitude": longitude, "accuracy": where.get("accuracy"),
            "context": where.get("context"), "placeId": _text(where.get("place_id")) or None,
            "woeid": _text(where.get("woeid")) or None}


def secret(sidecar: dict[str, Any], original: bool) -> str:
    listing = _dict(_dict(sidecar.get("flickr")).get("listing"))
    found = _text(listing.get("originalsecret" if original else "secret")) or _text(listing.get("secret"))
    return found if _SECRET.fullmatch(found) else ""


def page_url(photo_id: str, owner: str, path_alias: str) -> str:
    """The photo's page on Flickr (the library's rule, `flickr.urls.page`)."""
    try:
        return urls.page({"id": photo_id, "owner": owner, "pathalias": path_alias})
    except Exception:  # an owner the library refuses: no URL rather than a made-up one
        return ""


def photo_file(sidecar: dict[str, Any], uploaded: str, files: dict[str, str], album_ids: list[str],
               group_ids: list[str], deleted: bool = False) -> dict[str, Any]:
    """The Lifeboat's `photos/<id>.js` object for an item of the archive."""
    photo_id = str(sidecar["id"])
    owner = _dict(sidecar.get("owner"))
    uploader = _text(owner.get("nsid"))
    counts = _dict(sidecar.get("counts"))
    found: dict[str, Any] = {
        "id": photo_id,
        "secret": secret(sidecar, False),
        "url": page_url(photo_id, uploader, _text(owner.get("path_alias"))),
        "title": _text(sidecar.get("title")),
        "description": _text(sidecar.get("description")),
        "uploaderId": uploader,
        "licenseId": _text(_dict(sidecar.get("license")).get("id")),
        "dateTaken": date_taken(_dict(sidecar.get("dates"))),
        "dateUploaded": uploaded,
        "location": location(sidecar),
        "tags": tags(sidecar, uploader),
        "countFaves": _count(counts.get("faves")),
        "countViews": _count(counts.get("views")),
        "countComments": _count(counts.get("comments")),
        "albumIds": album_ids,
        "galleryIds": [],
        "groupIds": group_ids,
        "visibility": visibility(sidecar),
        "originalFormat": _text(sidecar.get("original_format")),
        "mediaType": "video" if sidecar.get("media") == "video" else "photo",
        "files": files,
        "comments": comments(sidecar),
    }
    level = sidecar.get("safety_level")
    if isinstance(level, int) and level in _SAFETY:  # only with --info: absent rather than guessed
        found["safetyLevel"] = _SAFETY[level]
    if deleted:  # the backup saw it gone from Flickr: its URL leads nowhere now (an extra field)
        found["deletedOnFlickr"] = True
    return found


def index_entry(photo: dict[str, Any]) -> dict[str, Any]:
    """The photo's `photoIndex.js` entry: the fields it repeats from its photo file, and more."""
    return {**{key: photo[key] for key in ("title", "uploaderId", "licenseId", "dateTaken", "dateUploaded")},
        "tags": [tag["normalizedValue"] for tag in photo["tags"]],
        "countComments": photo["countComments"], "countFaves": photo["countFaves"],
        "countViews": photo["countViews"], "visibility": photo["visibility"],
        "mediaType": photo["mediaType"],
        "thumbnail": {"path": photo["files"]["thumbnail"]},
        "metadataPath": f"metadata/photos/{photo['id']}.js",
    }


class Contributors:
    """contributorIndex.js: every member a photo, tag or comment of the Lifeboat names, and the
    counts of each in it."""

    def __init__(self) -> None:
        self.members: dict[str, dict[str, Any]] = {}

    def add(self, nsid: str, kind: str, username: str = "", realname: str = "", path_alias: str = "") -> None:
        member = self.members.setdefault(nsid, {"username": None, "realname": None, "pathAlias": None,
                                                "contributions": {"photo": 0, "tag": 0, "comment": 0}})
        for key, value in (("username", username), ("realname", realname), ("pathAlias", path_alias)):
            if value and not member[key]:
                member[key] = value
        member["contributions"][kind] += 1

    def add_photo(self, photo: dict[str, Any], sidecar: dict[str, Any]) -> None:
        owner = _dict(sidecar.get("owner"))
        self.add(photo["uploaderId"], "photo", _text(owner.get("username")), _text(owner.get("realname")),
                 _text(owner.get("path_alias")))
        names = {_text(t.get("author")): _text(t.get("authorname")) for t in _list(sidecar.get("tags"))
                 if isinstance(t, dict)}
        for tag in photo["tags"]:
            self.add(tag["authorId"], "tag", names.get(tag["authorId"], ""))
        names = {_text(c.get("author")): _text(c.get("authorname")) for c in _list(sidecar.get("comments"))
                 if isinstance(c, dict)}
        for comment in photo["comments"]:
            self.add(comment["authorId"], "comment", names.get(comment["authorId"], ""))
