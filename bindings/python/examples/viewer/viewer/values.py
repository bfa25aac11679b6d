# SPDX-License-Identifier: MIT
"""Reading the library's mapping of Flickr's XML: objects are dicts, arrays lists, text strings.
What the binding offers (`flickr.text`, `flickr.values.as_list`) is used from there; here is the
viewer's own: text for a page, numbers and coordinates a map can draw, plain text of HTML."""

from __future__ import annotations

import html.parser
import math

import flickr


def text_of(value: object) -> str:
    """An element's text (flickr.text), and "" for a repeated element (a list), which a page
    shows as no text rather than failing on."""
    return "" if isinstance(value, list) else flickr.text(value)


def number_or_none(value: object) -> float | None:
    """A finite number, or None: "1e999", "inf" and "nan" parse as floats but are no number a
    page can use (JSON has no Infinity; the viewer's encoder refuses it)."""
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def coordinate(value: object, limit: float) -> float | None:
    """A latitude (limit 90) or longitude (limit 180) in degrees, or None when it is not a
    finite number within ±limit: such a place is drawn nowhere rather than off the map."""
    number = number_or_none(value)
    return number if number is not None and -limit <= number <= limit else None


def latitude_longitude(latitude: object, longitude: object) -> tuple[float | None, float | None]:
    """Both coordinates, or (None, None) when either is unusable: a point needs the two."""
    lat, lon = coordinate(latitude, 90), coordinate(longitude, 180)
    return (lat, lon) if lat is not None and lon is not None else (None, None)


class _TextOnly(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain_text(markup: str) -> str:
    """Flickr descriptions are HTML: their text, tags dropped and white space collapsed."""
    parser = _TextOnly()
    parser.feed(markup)
    parser.close()
    return " ".join("".join(parser.parts).split())
