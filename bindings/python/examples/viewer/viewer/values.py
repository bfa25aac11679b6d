# SPDX-License-Identifier: MIT
"""Reading the library's mapping of Flickr's XML: objects are dicts, arrays lists, text strings."""

from __future__ import annotations

import html.parser

import flickr


def text_of(value: object) -> str:
    """An element's text (flickr.text), and "" for a repeated element (a list), which a page
    shows as no text rather than failing on."""
    return "" if isinstance(value, list) else flickr.text(value)


def as_list(value: object) -> list:
    """An entry that is an array, a single object, or missing, as a list."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def number_or_none(value: object) -> float | None:
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


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
