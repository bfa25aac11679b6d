# SPDX-License-Identifier: MIT
"""Photos as the viewer lists them, and the title and tag rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable
from urllib.parse import quote

from flickr.values import as_list

from .places import place_name_from_location
from .values import latitude_longitude, plain_text, text_of

UNKNOWN_TITLE = "Unknown"


@dataclass(frozen=True)
class Photo:
    """What the viewer keeps of a photo: enough to list it, map it and fetch its images."""

    id: str
    secret: str
    server: str
    title: str  # the photo's title ("" when it has none)
    description: str = ""  # plain text
    latitude: float | None = None
    longitude: float | None = None
    tags: str = ""  # Flickr's space-separated clean tags
    place_name: str = ""  # "Paris, Île-de-France, France" when known
    owner: str = ""  # path alias, else NSID

    def __post_init__(self) -> None:
        # Every Photo, however made (Flickr's answer, recents.json, a vacation's database), has
        # a usable point or none: the pages' JSON never holds Infinity or NaN.
        latitude, longitude = latitude_longitude(self.latitude, self.longitude)
        object.__setattr__(self, "latitude", latitude)
        object.__setattr__(self, "longitude", longitude)

    @property
    def heading(self) -> tuple[str, str]:
        return photo_heading(self.title, self.description)

    @property
    def page_url(self) -> str:
        """The photo's page on Flickr."""
        return f"https://www.flickr.com/photos/{quote(self.owner, safe='@')}/{quote(self.id)}/"

    @property
    def has_location(self) -> bool:
        return self.latitude is not None and self.longitude is not None

    def fetchable(self) -> dict[str, str]:
        """The attributes `Flickr.fetch_photo` needs for the shared-secret sizes."""
        return {"id": self.id, "secret": self.secret, "server": self.server}

    @classmethod
    def from_search(cls, photo: dict) -> Photo:
        """A `<photo>` of a photo list with extras description, geo, tags, path_alias."""
        latitude, longitude = latitude_longitude(photo.get("latitude"), photo.get("longitude"))
        if not photo.get("accuracy") or photo.get("accuracy") == "0":
            latitude = longitude = None  # Flickr answers 0,0 (accuracy 0) for photos without a location
        return cls(id=photo["id"], secret=photo["secret"], server=photo["server"],
                   title=text_of(photo.get("title")).strip(),
                   description=plain_text(text_of(photo.get("description"))),
                   latitude=latitude, longitude=longitude, tags=text_of(photo.get("tags")),
                   owner=text_of(photo.get("pathalias")) or text_of(photo.get("owner")))

    @classmethod
    def from_info(cls, photo: dict) -> Photo:
        """The `<photo>` of flickr.photos.getInfo."""
        owner = photo.get("owner") or {}
        location = photo.get("location")
        latitude, longitude = latitude_longitude(location.get("latitude"), location.get("longitude")) \
            if location else (None, None)
        tags = as_list((photo.get("tags") or {}).get("tag"))
        return cls(id=photo["id"], secret=photo["secret"], server=photo["server"],
                   title=text_of(photo.get("title")).strip(),
                   description=plain_text(text_of(photo.get("description"))),
                   latitude=latitude, longitude=longitude,
                   tags=" ".join(text_of(tag) for tag in tags),
                   place_name=place_name_from_location(location),
                   owner=text_of(owner.get("path_alias")) or text_of(owner.get("nsid")))


def photo_heading(title: str, description: str) -> tuple[str, str]:
    """(title, subtitle) of a photo in a list: its title and description; without a title
    the description is the title; with neither, "Unknown"."""
    title, description = title.strip(), description.strip()
    if title:
        return title, description
    if description:
        return description, ""
    return UNKNOWN_TITLE, ""


def display_tags(tags: str) -> list[str]:
    """Flickr's space-separated tags, capitalised, without machine tags (those with a colon)."""
    seen: dict[str, None] = {}
    for tag in tags.split():
        if ":" not in tag:
            seen.setdefault(tag[:1].upper() + tag[1:], None)
    return list(seen)


def tag_index(photos: Iterable[Photo]) -> list[tuple[str, list[Photo]]]:
    """Each displayed tag with its photos, the most frequent tag first (ties alphabetical)."""
    by_tag: dict[str, list[Photo]] = {}
    for photo in photos:
        for tag in display_tags(photo.tags):
            by_tag.setdefault(tag, []).append(photo)
    order = sorted(by_tag, key=lambda tag: (-len(by_tag[tag]), tag.casefold(), tag))
    return [(tag, by_tag[tag]) for tag in order]
