# SPDX-License-Identifier: MIT
"""Reading mapped answers: the text of an element, whatever shape it arrived in."""
from __future__ import annotations

from typing import Any


def text(value: Any) -> str:
    """The text of a value from a mapped answer: a string as is, an element's `_text` entry, else "".

    Flickr's XML is mapped so that an attribute is a string, an element with text is
    ``{"_text": "...", ...its attributes}`` and an empty element such as ``<title/>`` is ``{}``.
    The same field comes in either shape depending on the method (a photo list's ``title`` is an
    attribute, getInfo's an element, empty when the photo has none), so reading it with
    ``value["_text"]`` fails on some answers; ``text(value)`` reads them all, and None (a field
    that is absent, as from ``dict.get``) as "". An element whose text is only whitespace beside
    child elements has none (the mapping drops it). A list (a repeated element) raises TypeError:
    which item's text is meant is the caller's choice. Like the C library's
    ``flickr_value_string``, an entry ``_text`` that is not a string counts as no text.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        found = value.get("_text")
        return found if isinstance(found, str) else ""
    raise TypeError(f"text() takes a str, a dict or None from a mapped answer, not {type(value).__name__}")


def as_list(value: Any) -> list[Any]:
    """A repeated element as a list, whatever shape the mapping gave it.

    The mapping makes an element that occurs once a dict and one that repeats a list, so the same
    field (a photo list's ``photo``, a photo's ``tag``) is a list on one answer and a dict on
    another, and absent (None, as from ``dict.get``) on a third: ``as_list(value)`` is ``[]``,
    ``[value]`` or the list itself. ``for photo in as_list(answer["photos"].get("photo")):``.
    """
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def number(value: Any, default: int = 0) -> int:
    """An integer from a mapped answer, which gives it as text (``"42"``, ``" 42 "``) or, through
    JSON, as a number; `default` for what is none (None, ``""``, ``"n/a"``, a float's text, a
    list). ``number(photos.get("total"))``."""
    try:
        return int(str(value).strip() or default)
    except ValueError:
        return default
