# SPDX-License-Identifier: MIT
"""`Listing`: whose items, and all of them, at 500 a call with every extra the sidecar needs.

The account's own items come from flickr.people.getPhotos (user_id=me: private ones included);
another account's from flickr.people.getPublicPhotos. A later run also asks
flickr.photos.recentlyUpdated what changed since the last one (own account only).
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterator, Optional

from flickr import errors
from .._media.sizes import as_list, number
from .calls import PER_PAGE, Calls
from .._media.sizes import EXTRAS as URL_EXTRAS

EXTRAS = ("description,license,date_upload,date_taken,owner_name,icon_server,original_format,last_update,geo,"
          "tags,machine_tags,o_dims,views,media,path_alias,count_faves,count_comments," + URL_EXTRAS)
_NSID = re.compile(r"[0-9]+@N[0-9]+")


def unavailable(error: BaseException, method: str) -> bool:
    """Whether `error` says the server has no such method (Flickr's 112, or a server naming it)."""
    return isinstance(error, errors.APIError) and (error.api_code == 112 or method in str(error))


class Listing:
    def __init__(self, calls: Calls, user: Optional[str]) -> None:
        self.calls = calls
        self.given_user = user
        self.nsid = ""
        self.own = user is None
        self.notes: list[str] = []

    def who(self) -> str:
        """The NSID whose items are backed up: the login's (flickr.test.login), or --user's."""
        if self.given_user is None:
            self.nsid = str(self.calls.call("flickr.test.login")["user"]["id"])
        elif _NSID.fullmatch(self.given_user):
            self.nsid = self.given_user
        else:
            url = self.given_user if "/" in self.given_user else f"https://www.flickr.com/photos/{self.given_user}/"
            self.nsid = str(self.calls.call("flickr.urls.lookupUser", url=url)["user"]["id"])
        return self.nsid

    def account(self) -> dict[str, Any]:
        try:
            found: dict[str, Any] = self.calls.call("flickr.people.getInfo", user_id=self.nsid).get("person", {})
            return found
        except errors.APIError as error:
            self.notes.append(f"flickr.people.getInfo failed: {error}")
            return {"nsid": self.nsid}

    def total(self) -> int:
        """The total the listing's last page announced (-1 when it said none): a listing that gave
        fewer ids is short, and marks nothing deleted."""
        return max((self.calls.totals.get(m, -1) for m in ("flickr.people.getPhotos", "flickr.people.getPublicPhotos")),
                   default=-1)

    def items(self, on_page: Optional[Callable[[int, int], None]] = None) -> Iterator[dict[str, Any]]:
        if self.own:
            yield from self.calls.pages("flickr.people.getPhotos", "photos", "photo", on_page,
                                        user_id="me", extras=EXTRAS)
            return
        try:
            first = list(self._public_page(on_page))
        except errors.APIError as error:
            if not unavailable(error, "flickr.people.getPublicPhotos"):
                raise
            self.notes.append("flickr.people.getPublicPhotos is not available here: listed with "
                              "flickr.people.getPhotos instead")
            yield from self.calls.pages("flickr.people.getPhotos", "photos", "photo", on_page,
                                        user_id=self.nsid, extras=EXTRAS)
            return
        yield from first

    def _public_page(self, on_page: Optional[Callable[[int, int], None]]) -> Iterator[dict[str, Any]]:
        return self.calls.pages("flickr.people.getPublicPhotos", "photos", "photo", on_page,
                                user_id=self.nsid, extras=EXTRAS)

    def recently_updated(self, since: int) -> Optional[list[dict[str, Any]]]:
        """The items updated since `since` (Unix time); None when the server cannot say."""
        if not self.own:
            return None
        try:
            return list(self.calls.pages("flickr.photos.recentlyUpdated", "photos", "photo",
                                         min_date=max(since, 1), extras=EXTRAS))
        except errors.APIError as error:
            if not unavailable(error, "flickr.photos.recentlyUpdated"):
                raise
            self.notes.append("flickr.photos.recentlyUpdated is not available here: changes were found from the "
                              "listing's last_update")
            return None

    def albums(self) -> list[dict[str, Any]]:
        return [a for a in self.calls.pages("flickr.photosets.getList", "photosets", "photoset", user_id=self.nsid)
                if isinstance(a, dict)]

    def album_members(self, album_ids: list[str], at_once: int) -> dict[str, "list[str] | errors.APIError"]:
        """Each album's item ids: the first pages `at_once` at a time (one round trip for many small
        albums), the further pages of a large one after its first."""
        found: dict[str, list[str] | errors.APIError] = {}
        for start in range(0, len(album_ids), at_once):
            batch = album_ids[start:start + at_once]
            firsts = {a: self.calls.call_async("flickr.photosets.getPhotos", photoset_id=a, user_id=self.nsid,
                                               per_page=PER_PAGE, page=1) for a in batch}
            for album_id, future in firsts.items():
                try:
                    answer = future.result().get("photoset", {})
                    members = _ids(answer)
                    if number(answer.get("pages"), 1) > 1:  # the rest through the walk: a lying count ends
                        members += [str(p.get("id")) for p in self.calls.pages(
                            "flickr.photosets.getPhotos", "photoset", "photo", photoset_id=album_id,
                            user_id=self.nsid, page=2) if isinstance(p, dict)]
                    found[album_id] = members
                except errors.APIError as error:
                    found[album_id] = error
        return found

    def collections(self) -> Optional[list[dict[str, Any]]]:
        """flickr.collections.getTree's collections; None when the server has no such method."""
        try:
            answer = self.calls.call("flickr.collections.getTree", user_id=self.nsid)
        except errors.APIError as error:
            if not unavailable(error, "flickr.collections.getTree"):
                raise
            self.notes.append("flickr.collections.getTree is not available here: no collections backed up")
            return None
        return [c for c in as_list(answer.get("collections", {}).get("collection")) if isinstance(c, dict)]


def _ids(answer: dict[str, Any]) -> list[str]:
    return [str(p.get("id")) for p in as_list(answer.get("photo")) if isinstance(p, dict)]


def lastupdate(photo: dict[str, Any]) -> int:
    return number(photo.get("lastupdate"))
