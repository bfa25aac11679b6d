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
