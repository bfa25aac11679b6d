# SPDX-License-Identifier: MIT
"""One page of a search-like answer, every value checked: a server's numbers are never trusted."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import errors
from .idset import U64_MAX

_MAX_COUNT = 2**53  # far past anything Flickr counts; more is a broken answer


@dataclass
class Page:
    total: int
    pages: int
    items: list[dict[str, Any]]
    ids: list[int]


def _fail(method: str, what: str) -> errors.ParseError:
    return errors.ParseError(errors.EPARSE, f"{method}: {what}")


def count(value: Any, method: str, name: str) -> int:
    """A count Flickr sends as a number or as digits."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 16:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= _MAX_COUNT:
        raise _fail(method, f"{name} is not a count: {value!r:.40}")
    return int(value)


def photo_id(item: Any, method: str) -> int:
    value = item.get("id") if isinstance(item, dict) else None
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not (isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20
            and int(value) <= U64_MAX):
        raise _fail(method, f"an item has no numeric id: {value!r:.40}")
    return int(value)


def parse(answer: Any, method: str) -> Page:
    """The list in `answer` ({"photos": {"total", "pages", "photo": [...]}} and the like)."""
    lists = [value for value in (answer.values() if isinstance(answer, dict) else ())
             if isinstance(value, dict) and "total" in value]
    if len(lists) != 1:
        raise _fail(method, "the answer holds no paged list (total, pages)")
    container = lists[0]
    total = count(container.get("total"), method, "total")
    pages = count(container.get("pages", 0), method, "pages")
    found = [value for value in container.values() if isinstance(value, list)]
    if not found:  # a converter that gives one item as an object, not a list of one
        found = [[value] for value in container.values() if isinstance(value, dict)]
    if len(found) > 1:
        raise _fail(method, "the answer's item list cannot be told")
    items = found[0] if found else []
    if not all(isinstance(item, dict) for item in items):
        raise _fail(method, "an item is not an object")
    return Page(total, pages, items, [photo_id(item, method) for item in items])
