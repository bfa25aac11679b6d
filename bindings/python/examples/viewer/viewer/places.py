# SPDX-License-Identifier: MIT
"""Places as the viewer shows them: a title (the most detailed part) and a subtitle, by one rule
(`place_label`) wherever a place is named: top places, a place's page, a photo, an itinerary."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .values import latitude_longitude, text_of


@dataclass(frozen=True)
class Place:
    id: str
    name: str  # Flickr's full name: "Paris, Île-de-France, France"
    latitude: float | None = None
    longitude: float | None = None

    def __post_init__(self) -> None:
        latitude, longitude = latitude_longitude(self.latitude, self.longitude)
        object.__setattr__(self, "latitude", latitude)
        object.__setattr__(self, "longitude", longitude)

    @property
    def title(self) -> str:
        return place_label(self.name).title

    @property
    def subtitle(self) -> str:
        return place_label(self.name).subtitle

    @classmethod
    def from_flickr(cls, place: dict) -> Place:
        """A `<place>` of flickr.places.getTopPlacesList (its name is its text) or of
        flickr.places.getInfo (its name is an attribute)."""
        latitude, longitude = latitude_longitude(place.get("latitude"), place.get("longitude"))
        return cls(id=place["place_id"], name=(text_of(place) or text_of(place.get("name"))).strip(),
                   latitude=latitude, longitude=longitude)


class PlaceLabel(NamedTuple):
    title: str  # "Paris"
    subtitle: str  # "Île-de-France, France"

    def __str__(self) -> str:
        """The place on one line: "Paris, Île-de-France, France"."""
        return ", ".join(part for part in self if part)


def place_label(name: str) -> PlaceLabel:
    """How a place reads everywhere in the viewer, from Flickr's full name ("Paris, Île-de-France,
    France") or one made of a photo's location (`place_name_from_location`): the most detailed part
    over the rest.

    The two sources differ: Flickr's full names put a country's abbreviation before it ("San
    Francisco, California, US, United States"), a photo's location has only its locality, region
    and country ("San Francisco, California, United States"). A part that abbreviates the next one
    is dropped, so that San Francisco reads "California, United States" in both."""
    parts = [part.strip() for part in name.split(",") if part.strip()]
    kept = [part for part, after in zip(parts, parts[1:] + [""]) if not _abbreviates(part, after)]
    return PlaceLabel(kept[0] if kept else "", ", ".join(kept[1:]))


def _abbreviates(short: str, name: str) -> bool:
    """Whether `short` is the initials of a name of several words ("US", "United States")."""
    words = name.split()
    return len(words) > 1 and short == "".join(word[0] for word in words).upper()


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

