# SPDX-License-Identifier: MIT
"""The Flickr calls the viewer makes, over one `flickr.Flickr` shared by all request threads."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

import flickr
from flickr.values import as_list

from .failures import Missing, describe
from .photos import Photo
from .places import Place, sort_places

PLACE_PHOTOS = 50
# Extras of photo lists: the description (subtitle), geo (maps), tags and the path alias (page URL).
PHOTO_EXTRAS = "description,geo,tags,path_alias"
LOCALITY = 7  # Flickr's place type id of cities and towns
# flickr.photos.getInfo's answers that mean the photo is not there for us: 1 Photo not found,
# 2 Permission denied (private, or deleted since it was listed).
_NO_PHOTO = {1: "Photo not found", 2: "Photo not available"}
# flickr.places.getInfo's: 2 Not a valid Places ID, 3 Place not found.
_NO_PLACE = {2, 3}


def connect(api_key: str, api_secret: str, *, cache_dir: Path, cache_max_bytes: int,
            **options: Any) -> flickr.Flickr:
    """A Flickr context caching images in `cache_dir`; `options` are more library options
    (``base_url=`` for a sandbox, ``timeout_ms=``...)."""
    options.setdefault("timeout_ms", 20_000)
    return flickr.Flickr(api_key, api_secret, photo_cache_dir=str(cache_dir),
                         photo_cache_max_bytes=cache_max_bytes, **options)


class FlickrService:
    """Top places, a place's photos, a photo's details and its images (through the library's cache)."""

    def __init__(self, api: flickr.Flickr, *, places_ttl: float = 600.0, photo_memo: int = 128):
        self.api = api
        self._places_ttl = places_ttl
        self._places: tuple[float, list[Place]] | None = None
        # getInfo answers, reused by recents and visits of the photo on screen.
        self._photos: OrderedDict[str, Photo] = OrderedDict()
        self._photo_memo = photo_memo
        self._lock = threading.Lock()

    def _call(self, method: str, **params: Any) -> dict:
        return self.api.call(method, **params)

    def top_places(self) -> list[Place]:
        """Today's top localities, alphabetical; kept for `places_ttl` seconds."""
        with self._lock:
            if self._places and time.monotonic() - self._places[0] < self._places_ttl:
                return self._places[1]
        answer = self._call("flickr.places.getTopPlacesList", place_type_id=LOCALITY)
        places = sort_places([Place.from_flickr(p) for p in _items(answer.get("places"), "place")])
        with self._lock:
            self._places = (time.monotonic(), places)
        return places

    def place(self, place_id: str) -> Place:
        """One of today's top places when they are at hand, else Flickr's flickr.places.getInfo:
        a place bookmarked yesterday may have left the list; Missing when Flickr knows no such place."""
        with self._lock:
            known = self._places[1] if self._places else []
        found = next((p for p in known if p.id == place_id), None)
        if found:
            return found
        try:
            return Place.from_flickr(self._call("flickr.places.getInfo", place_id=place_id)["place"])
        except flickr.APIError as error:
            if error.api_code in _NO_PLACE:
                raise Missing("Unknown place", f"Flickr knows no place with the id “{place_id}”: "
                                               f"{error.message} (error {error.api_code}).") from error
            raise

    def photos_in_place(self, place_id: str, count: int = PLACE_PHOTOS) -> list[Photo]:
        """The place's most recently posted photos."""
        answer = self._call("flickr.photos.search", place_id=place_id, extras=PHOTO_EXTRAS,
                            per_page=count, sort="date-posted-desc")
        return [Photo.from_search(p) for p in _items(answer.get("photos"), "photo")]

    def photo(self, photo_id: str) -> Photo:
        """The photo's details (flickr.photos.getInfo), remembered for the last few photos."""
        with self._lock:
            if photo_id in self._photos:
                self._photos.move_to_end(photo_id)
                return self._photos[photo_id]
        try:
            answer = self._call("flickr.photos.getInfo", photo_id=photo_id)
        except flickr.APIError as error:
            if error.api_code in _NO_PHOTO:
                raise Missing(_NO_PHOTO[error.api_code], describe(error)) from error
            raise
        photo = Photo.from_info(answer["photo"])
        with self._lock:
            self._photos[photo_id] = photo
            while len(self._photos) > self._photo_memo:
                self._photos.popitem(last=False)
        return photo

    def image(self, photo: dict[str, str], size: str) -> Path:
        """The image file in the cache; downloaded only when it is not there."""
        return self.api.fetch_photo(photo, size=size)



def _items(container: object, name: str) -> list[dict]:
    """The `name` entries of a list element such as ``photos`` (none when it is missing)."""
    return as_list(container.get(name)) if isinstance(container, dict) else []
