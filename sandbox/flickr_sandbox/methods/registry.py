# SPDX-License-Identifier: MIT
"""The REST method registry: :class:`Call`, :class:`Method`, :func:`method` and ``METHODS``.

A module of its own, below the method modules: each of them imports it to register its
methods, and ``methods/__init__.py`` imports them all, so that nothing imports back up
(``methods`` importing its modules which import ``methods`` was an import cycle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..auth import Caller
from ..envelope import Node
from ..errors import ApiError
from ..params import INT64_MAX, parse_int
from ..store import Store
from .limit_table import MAX_PER_PAGE


@dataclass
class Call:
    """One REST call after authentication."""

    store: Store
    pairs: list[tuple[str, str]]  # every parameter in request order (echo needs them)
    args: dict[str, str]  # the same, last value wins
    caller: Caller
    base_url: str  # the sandbox's own URL, for photo and page links

    def arg(self, name: str, default: str = "") -> str:
        return self.args.get(name, default).strip() if name in self.args else default

    def page_args(self, default_per_page: int = 100, max_per_page: int = MAX_PER_PAGE) -> tuple[int, int]:
        """Flickr's paging rules: bad or missing values fall back, per_page is capped.

        ``page`` saturates where the offset ``(page - 1) * per_page`` would leave SQLite's
        64-bit range: any such page is past the last one anyway.
        """
        per_page = parse_int(self.arg("per_page"), saturate=True)
        if per_page is None or per_page <= 0:
            per_page = default_per_page
        per_page = min(per_page, max_per_page)
        page = parse_int(self.arg("page"), 1, INT64_MAX // per_page, saturate=True)
        return page or 1, per_page


MethodFunc = Callable[[Call], list[Node]]


@dataclass
class Method:
    func: MethodFunc
    perms: int  # 0 none, 1 read, 2 write, 3 delete
    signed: bool  # needs a signature even without login (legacy auth methods)


METHODS: dict[str, Method] = {}


def method(name: str, perms: int = 0, signed: bool = False) -> Callable[[MethodFunc], MethodFunc]:
    """Register a REST method under its Flickr name."""
    def register(func: MethodFunc) -> MethodFunc:
        METHODS[name] = Method(func, perms, signed)
        return func
    return register


def photo_not_found() -> ApiError:
    return ApiError(1, "Photo not found")
