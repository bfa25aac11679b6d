# SPDX-License-Identifier: MIT
"""Places as the viewer shows them: a title (the most detailed part) and a subtitle."""

from __future__ import annotations

from dataclasses import dataclass

from .values import number_or_none, text_of


@dataclass(frozen=True)
class Place:
    id: str
    name: str  # Flickr's full name: "Paris, Île-de-France, France"
    latitude: float | None = None
    longitude: float | None = None

    @property
    def title(self) -> str:
        return split_place_name(self.name)[0]

    @property
    def subtitle(self) -> str:
        return split_place_name(self.name)[1]

    @classmethod
    def from_flickr(cls, place: dict) -> Place:
        """A `<place>` of flickr.places.getTopPlacesList (its name is its text) or of
        flickr.places.getInfo (its name is an attribute)."""
        return cls(id=place["place_id"], name=(text_of(place) or text_of(place.get("name"))).strip(),
                   latitude=number_or_none(place.get("latitude")),
                   longitude=number_or_none(place.get("longitude")))


def split_place_name(name: str) -> tuple[str, str]:
    """("Paris", "Île-de-France, France") from "Paris, Île-de-France, France"."""
    title, _, rest = name.partition(",")
    return title.strip(), rest.strip()


def sort_places(places: list[Place]) -> list[Place]:
    """Alphabetical by full name, ignoring case (so "Zürich" and "zürich" sort together)."""
    return sorted(places, key=lambda p: (p.name.casefold(), p.id))


def place_name_from_location(location: dict | None) -> str:
    """The place name of a flickr.photos.getInfo `<location>`, as Flickr writes place names:
    the most detailed part first ("Paris, Île-de-France, France"); "" when unknown."""
    if not location:
        return ""
    parts = [text_of(location.get(kind)).strip() for kind in ("locality", "region", "country")]
    return ", ".join(part for part in parts if part)

