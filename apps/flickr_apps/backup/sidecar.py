# SPDX-License-Identifier: MIT
"""`Sidecar`: the JSON sidecar of an item (docs/backup.md, "The JSON sidecar").

Its fields read the same whichever call gave them: the listing's extras first, getInfo's richer
answer (raw tags and their authors, place names, safety level, notes...) where --info asked for
it, and every answer as Flickr gave it under "flickr", so nothing Flickr said is lost.
"""
from __future__ import annotations

import json
from typing import Any, Optional

from flickr.values import text
from .._media.sizes import as_list, number
from .export.mapping import FROM_EXPORT, tags as export_tags
from .fields import check
from .licences import Licences

FORMAT = "flickr-backup sidecar 1"


def json_file(value: Any) -> bytes:
    """A JSON file's bytes: UTF-8, indented; a lone surrogate (a server's broken "\\ud800", which
    UTF-8 cannot hold) written as its JSON escape, so the file is still the same JSON value."""
    return (json.dumps(value, ensure_ascii=False, indent=1) + "\n").encode("utf-8", "backslashreplace")


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _element(value: Any) -> str:
    """An element's text, "" for anything else (a repeated one)."""
    return text(value) if isinstance(value, (str, dict)) else ""


def _flag(value: Any) -> bool:
    """A 0/1 flag as text ("1"), a JSON number (1) or a JSON boolean (true)."""
    return value is True or str(value) == "1"


class Sidecar:
    @staticmethod
    def build(raw: dict[str, Any], details: dict[str, Any], albums: list[dict[str, str]],
              licences: Licences, file: dict[str, Any], account: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        """`account`: flickr.people.getInfo's person, whose names are the owner's when the ids match."""
        listed, info, dropped = check(raw, _dict(details.get("getInfo")))
        dates = _dict(info.get("dates"))
        visibility = _dict(info.get("visibility")) or listed
        owner = _dict(info.get("owner"))
        taken = str(dates.get("taken") or listed.get("datetaken") or "")
        sidecar: dict[str, Any] = {
            "format": FORMAT,
            "id": str(listed.get("id", "")),
            "media": str(info.get("media") or listed.get("media") or "photo"),
            "title": text(info.get("title")) if "title" in info else text(listed.get("title")),
            "description": text(info.get("description")) if "description" in info else text(listed.get("description")),
            "owner": Sidecar._owner(listed, owner, account or {}),
            "dates": {"taken": taken,
                      "taken_granularity": number(dates.get("takengranularity", listed.get("datetakengranularity"))),
                      "taken_unknown": _flag(dates.get("takenunknown", listed.get("datetakenunknown"))),
                      "uploaded": number(dates.get("posted") or listed.get("dateupload")),
                      "last_update": number(dates.get("lastupdate") or listed.get("lastupdate"))},
            "license": licences.describe(info.get("license", listed.get("license"))),
            "visibility": {"public": _flag(visibility.get("ispublic")), "friend": _flag(visibility.get("isfriend")),
                           "family": _flag(visibility.get("isfamily"))},
            "safety_level": number(info.get("safety_level"), -1) if "safety_level" in info else None,
            "original_format": str(info.get("originalformat") or listed.get("originalformat") or ""),
            "tags": Sidecar._tags(listed, info, details.get("export")),
            "location": Sidecar._location(listed, info),
            "counts": {"views": number(info.get("views") or listed.get("views")),
                       "faves": number(listed.get("count_faves")) if "count_faves" in listed else None,
                       "comments": number(text(info.get("comments")) or listed.get("count_comments"))
                       if "comments" in info or "count_comments" in listed else None},
            "albums": albums,
            "contexts": Sidecar._contexts(details.get("getAllContexts")),
            "notes": [{"id": str(n.get("id", "")), "author": str(n.get("author", "")),
                       "authorname": str(n.get("authorname", "")), "x": number(n.get("x")), "y": number(n.get("y")),
                       "w": number(n.get("w")), "h": number(n.get("h")), "text": text(n)}
                      for n in as_list(_dict(info.get("notes")).get("note")) if isinstance(n, dict)]
            if isinstance(info.get("notes"), dict) else None,
            "people": Sidecar._people(details.get("people")),
            "comments": Sidecar._comments(details.get("comments")),
            "exif": details.get("exif"),
            "file": file,
            "flickr": {"listing": raw, **{k: v for k, v in details.items() if k != "problems"}},
        }
        if details.get("problems"):
            sidecar["problems"] = details["problems"]
        if dropped:
            sidecar["dropped"] = dropped
        return sidecar

    @staticmethod
    def _owner(listed: dict[str, Any], owner: dict[str, Any], account: dict[str, Any]) -> dict[str, str]:
        """getInfo's owner; else the listing's (its `ownername` is the username, as on Flickr), and the
        real name of the account being backed up when it is the owner (people.getInfo, one call a run)."""
        nsid = str(owner.get("nsid") or listed.get("owner", ""))
        mine = bool(nsid) and nsid == str(account.get("nsid", account.get("id", "")))
        realname = _element(account.get("realname")) if mine else ""
        return {"nsid": nsid, "username": str(owner.get("username") or listed.get("ownername") or ""),
                "realname": str(owner.get("realname") or realname),
                "path_alias": str(owner.get("path_alias") or listed.get("pathalias") or "")}

    @staticmethod
    def _tags(listed: dict[str, Any], info: dict[str, Any], export: Any = None) -> list[dict[str, Any]]:
        tags = info.get("tags")
        if isinstance(tags, dict):
            return [{"tag": text(t), "raw": str(t.get("raw", text(t))), "author": str(t.get("author", "")),
                     "authorname": str(t.get("authorname", "")), "machine_tag": _flag(t.get("machine_tag"))}
                    for t in as_list(tags.get("tag")) if isinstance(t, dict)]
        if listed.get(FROM_EXPORT):
            # The export writes each tag as its owner typed it; Flickr's normalised form is the API's.
            return [{"tag": None, "raw": raw, "author": None, "authorname": None, "machine_tag": None}
                    for raw in export_tags(export)]
        # The listing's `tags` holds the machine tags too, `machine_tags` them alone: each tag once.
        machine = str(listed.get("machine_tags") or "").split()
        return [{"tag": t, "raw": None, "author": None, "authorname": None, "machine_tag": t in machine}
                for t in dict.fromkeys(str(listed.get("tags") or "").split() + machine)]

    @staticmethod
    def _location(listed: dict[str, Any], info: dict[str, Any]) -> Optional[dict[str, Any]]:
        where = _dict(info.get("location")) or listed
        if "latitude" not in where or "longitude" not in where:
            return None  # none given, or dropped as invalid (fields.py)
        latitude, longitude = float(where["latitude"]), float(where["longitude"])
        if latitude == 0 and longitude == 0:
            return None  # Flickr's "no location" in photo lists
        found: dict[str, Any] = {"latitude": latitude, "longitude": longitude,
                                 "accuracy": number(where.get("accuracy")), "context": number(where.get("context")),
                                 "place_id": str(where.get("place_id") or listed.get("place_id") or ""),
                                 "woeid": str(where.get("woeid") or listed.get("woeid") or "")}
        for kind in ("neighbourhood", "locality", "county", "region", "country"):
            if kind in where:
                found[kind] = text(where.get(kind))
        return found

    @staticmethod
    def _contexts(answer: Any) -> Optional[dict[str, list[dict[str, str]]]]:
        if not isinstance(answer, dict):
            return None
        return {"albums": [{"id": str(s.get("id", "")), "title": text(s.get("title"))}
                           for s in as_list(answer.get("set")) if isinstance(s, dict)],
                "groups": [{"id": str(p.get("id", "")), "title": text(p.get("title"))}
                           for p in as_list(answer.get("pool")) if isinstance(p, dict)]}

    @staticmethod
    def _people(answer: Any) -> Optional[list[dict[str, str]]]:
        if not isinstance(answer, dict):
            return None
        people = _dict(answer.get("people"))
        return [{"nsid": str(p.get("nsid", "")), "username": str(p.get("username", "")),
                 "realname": str(p.get("realname", ""))} for p in as_list(people.get("person")) if isinstance(p, dict)]

    @staticmethod
    def _comments(answer: Any) -> Optional[list[dict[str, Any]]]:
        if not isinstance(answer, dict):
            return None
        comments = _dict(answer.get("comments"))
        return [{"id": str(c.get("id", "")), "author": str(c.get("author", "")),
                 "authorname": str(c.get("authorname", "")), "date": number(c.get("datecreate")), "text": text(c)}
                for c in as_list(comments.get("comment")) if isinstance(c, dict)]
