# SPDX-License-Identifier: MIT
"""`Licences`: a licence id's name and URL, from flickr.photos.licenses.getInfo (one call a run).

That call names every id Flickr has, the CC 4.0 ones added in June 2025 included. When it fails
(a server without it), the ids Flickr has had since 2012 are named from the table below and
any other id is kept as a number, its name left empty: nothing is guessed.
"""
from __future__ import annotations

from typing import Any, Optional

from .._media.sizes import as_list
from .calls import Calls

_KNOWN = {
    "0": ("All Rights Reserved", ""),
    "1": ("Attribution-NonCommercial-ShareAlike License", "https://creativecommons.org/licenses/by-nc-sa/2.0/"),
    "2": ("Attribution-NonCommercial License", "https://creativecommons.org/licenses/by-nc/2.0/"),
    "3": ("Attribution-NonCommercial-NoDerivs License", "https://creativecommons.org/licenses/by-nc-nd/2.0/"),
    "4": ("Attribution License", "https://creativecommons.org/licenses/by/2.0/"),
    "5": ("Attribution-ShareAlike License", "https://creativecommons.org/licenses/by-sa/2.0/"),
    "6": ("Attribution-NoDerivs License", "https://creativecommons.org/licenses/by-nd/2.0/"),
    "7": ("No known copyright restrictions", "https://www.flickr.com/commons/usage/"),
    "8": ("United States Government Work", "http://www.usa.gov/copyright.shtml"),
    "9": ("Public Domain Dedication (CC0)", "https://creativecommons.org/publicdomain/zero/1.0/"),
    "10": ("Public Domain Mark", "https://creativecommons.org/publicdomain/mark/1.0/"),
}


# Ids whose items are in the public domain (xmpRights:Marked False): US Government Work, CC0, Public Domain
# Mark. "No known copyright restrictions" (7, Flickr Commons) says too little to mark either way.
_PUBLIC_DOMAIN = {"8", "9", "10"}
_UNSTATED = {"7"}


def rights_marked(licence: dict[str, str]) -> Optional[bool]:
    """xmpRights:Marked for a sidecar's licence: True for a rights-managed item (All Rights Reserved and
    every Creative Commons licence but CC0), False for a public-domain one, None when unknown (an id the
    table does not name) or unstated. XMP's rule: False is public domain, omitted is unknown."""
    key, url = str(licence.get("id") or ""), str(licence.get("url") or "")
    if key in _PUBLIC_DOMAIN or "creativecommons.org/publicdomain/" in url:
        return False
    if key in _UNSTATED or not licence.get("name"):
        return None
    return True


class Licences:
    def __init__(self) -> None:
        self.table: dict[str, tuple[str, str]] = dict(_KNOWN)
        self.source = "built in"

    def load(self, calls: Calls) -> None:
        from flickr import errors

        try:
            answer = calls.call("flickr.photos.licenses.getInfo")
        except errors.FlickrError:
            return  # the table above stands
        for entry in as_list(answer.get("licenses", {}).get("license")):
            if isinstance(entry, dict) and "id" in entry:
                self.table[str(entry["id"])] = (str(entry.get("name", "")), str(entry.get("url", "")))
        self.source = "flickr.photos.licenses.getInfo"

    def describe(self, licence_id: Any) -> dict[str, str]:
        key = str(licence_id) if licence_id is not None else ""
        name, url = self.table.get(key, ("", ""))
        return {"id": key, "name": name, "url": url}

    def id_of(self, name: str) -> Optional[str]:
        """The id of the licence Flickr names `name` (an export names licences, the API numbers
        them); None for a name none of the table's has (no near match is guessed)."""
        found = [key for key, (known, _) in self.table.items() if known == name]
        return found[0] if len(found) == 1 else None

    def as_dict(self) -> dict[str, dict[str, str]]:
        return {key: {"name": name, "url": url} for key, (name, url) in self.table.items()}
