# SPDX-License-Identifier: MIT
"""Every result of a search-like method, past the cap on what Flickr serves per query.

Flickr gives at most the first 4,000 results of a query (then pages repeat). A harvest asks page 1
of a date slice and reads its ``total``: over the cap, the slice is cut by time (into as many parts
as would each fit were its items spread evenly), down to a
minimum slice, below which it is asked once per licence; a slice within the cap is paged through.
Slices never overlap, and ids are remembered besides (pages shift while new photos arrive), so each
item is given out once. See docs/harvest.md.
"""
from __future__ import annotations

import math
import time
from collections.abc import Generator, Iterator
from typing import Any, Protocol

from .. import errors
from . import checkpoint
from .answer import Page, count, parse
from .idset import IdSet
from .report import Report
from .slices import DATE_ARGUMENTS, EARLIEST, LATEST, Slice, parts



class Caller(Protocol):
    """What a harvest calls through: a `Flickr` (any object with its `call`)."""

    def call(self, method: str, /, *, post: bool | None = None, **params: Any) -> dict[str, Any]: ...

CAP = 4000  # flickr.photos.search: "Flickr will return at most the first 4,000 results"
PER_PAGE = 500  # the most Flickr gives per page
MIN_SLICE = 60  # seconds; below this a slice over the cap is split by licence
SHARD_PARTS = 8  # a sharded harvest cuts its range into shards x this many parts, dealt in turn
_OURS = {"page", "per_page", "license"}


def _bad(message: str) -> errors.InvalidArgument:
    return errors.InvalidArgument(errors.EINVAL, message)


def _whole(value: Any, name: str) -> int:
    text = str(value).strip()
    body = text[1:] if text[:1] == "-" else text
    if not (body.isascii() and body.isdigit() and len(body) <= 12):
        raise _bad(f"{name} must be unix seconds for a harvest, not {text!r:.40}")
    return int(text)


class Harvest(Iterator[dict[str, Any]]):
    """An iterator over every item a search-like method matches, each once (see module doc).

    ``Harvest(api, method, dates="upload"|"taken", min_slice=60, checkpoint=PATH, shard=(k, n),
    **params)``. The caller's ``min_/max_upload_date`` (or taken) bound the range, in unix seconds;
    ``license`` (comma-separated ids) is the list a slice is split by, else every licence Flickr
    lists. With `checkpoint`, the state is saved there after each page the caller has taken in
    full, and a harvest given an existing checkpoint of the same query continues from it.
    """

    def __init__(self, api: Caller, method: str, *, dates: str = "upload", min_slice: int = MIN_SLICE,
                 checkpoint: str | None = None, shard: tuple[int, int] = (1, 1), cap: int = CAP,
                 per_page: int = PER_PAGE, **params: Any) -> None:
        if dates not in DATE_ARGUMENTS:
            raise _bad(f"dates must be one of {', '.join(DATE_ARGUMENTS)}, not {dates!r}")
        k, n = shard
        if not (isinstance(k, int) and isinstance(n, int) and 1 <= k <= n <= 10_000):
            raise _bad(f"shard must be K of N with 1 <= K <= N, not {k}/{n}")
        if not (isinstance(min_slice, int) and min_slice >= 1 and isinstance(cap, int) and cap >= 1
                and isinstance(per_page, int) and 1 <= per_page <= 500):
            raise _bad("min_slice and cap must be at least 1, per_page 1 to 500")
        self._api = api
        self._path = checkpoint
        low, high = DATE_ARGUMENTS[dates]
        self._max_given = params.get(high) is not None  # else now: a resumed harvest keeps its first run's
        lo = _whole(params.pop(low), low) if params.get(low) is not None else EARLIEST[dates]
        hi = _whole(params.pop(high), high) if params.get(high) is not None else int(time.time()) + 86400
        params.pop(low, None), params.pop(high, None)
        if not -LATEST <= lo <= hi <= LATEST:
            raise _bad(f"{low} must not be after {high}")
        licenses = params.get("license")
        self._licenses = None if licenses is None else self._license_list(str(licenses))
        args = {name: ("1" if value is True else "0" if value is False else
                       ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value))
                for name, value in params.items() if value is not None and name not in _OURS}
        self.query: dict[str, Any] = {"method": method, "params": args, "dates": dates, "min": lo, "max": hi,
                                      "min_slice": min_slice, "shard": [k, n], "cap": cap, "per_page": per_page,
                                      "license": None if licenses is None else str(licenses)}
        self.report = Report()
        self._pending: list[Slice] = [piece for i, piece in enumerate(parts(lo, hi, 1 if n == 1 else n * SHARD_PARTS))
                                      if i % n == k - 1]
        self._current: Slice | None = None
        self._next_page = 0
        self._last_page = 0
        self._seen = IdSet()
        self._slice_ids: list[int] = []
        self.extra: dict[str, Any] = {}  # saved with the checkpoint, for the caller (the CLI's output size)
        saved = checkpoint and self._load(checkpoint)
        if not saved:
            self._count_pending()
        self._items = self._run()

    # -- iteration --------------------------------------------------------

    def __next__(self) -> dict[str, Any]:
        return next(self._items)

    def close(self) -> None:
        """Ends the iteration (what a page being given out had not yet given is dropped)."""
        self._items.close()

    def pages(self) -> Generator[list[dict[str, Any]], None, None]:
        """The items page by page; the checkpoint is saved when the caller asks for the next page."""
        while True:
            page = self._step()
            if page is None:
                self.save()
                return
            yield page
            self.save()

    def _run(self) -> Generator[dict[str, Any], None, None]:
        for page in self.pages():
            yield from page

    def _step(self) -> list[dict[str, Any]] | None:
        """Makes calls until a page gives new items or the harvest ends (None)."""
        while True:
            if self._current is None:
                if not self._pending:
                    return None
                piece = self._pending[0]
                page = self._fetch(piece, 1)
                if page.total > self.query["cap"] and self._split(piece, page.total):
                    continue
                self._pending.pop(0)
                self._current, self._next_page = piece, 2
                self._count_pending()
                self._slice_ids = []
                self._last_page = min(page.pages, math.ceil(min(page.total, self.query["cap"]) / self.query["per_page"]))
                self.report.matched += page.total
            elif self._next_page > self._last_page:
                self._current = None
                self.report.slices_done += 1
                self._count_pending()
                continue
            else:
                page = self._fetch(self._current, self._next_page)
                self._next_page += 1
                if not page.items:
                    self._last_page = 0
            items = self._fresh(page)
            if items:
                return items

    def _count_pending(self) -> None:
        """Slices not done: those waiting and the one being paged."""
        self.report.slices_pending = len(self._pending) + (self._current is not None)

    def _split(self, piece: Slice, total: int) -> bool:
        """Replaces an over-cap slice by its parts; False when it is as small as it may be."""
        if piece.seconds > self.query["min_slice"]:
            # Cut in as many parts as would each fit if the items were spread evenly (at least two):
            # fewer wasted first pages than halving, which asks every level of the tree.
            wanted = max(2, math.ceil(total * 4 / (self.query["cap"] * 3)))
            self._pending[0:1] = parts(piece.lo, piece.hi, min(wanted, piece.seconds // self.query["min_slice"] + 1))
        elif piece.license is None:
            self._pending[0:1] = [Slice(piece.lo, piece.hi, n) for n in self._all_licenses()]
        else:
            self.report.over_cap.append((piece, total))
            return False
        self._count_pending()
        return True

    def _fresh(self, page: Page) -> list[dict[str, Any]]:
        items = []
        for item, ident in zip(page.items, page.ids):
            if self._seen.add(ident):
                items.append(item)
                self._slice_ids.append(ident)
            else:
                self.report.duplicates += 1
        self.report.items += len(items)
        return items

    def _fetch(self, piece: Slice, number: int) -> Page:
        args = dict(self.query["params"], page=str(number), per_page=str(self.query["per_page"]))
        args.update(piece.arguments(self.query["dates"]))
        if piece.license is None and self.query["license"] is not None:
            args["license"] = self.query["license"]
        self.report.calls += 1
        return parse(self._api.call(self.query["method"], **args), self.query["method"])

    # -- licences ---------------------------------------------------------

    @staticmethod
    def _license_list(text: str) -> list[int]:
        ids = [_whole(part, "license") for part in text.split(",") if part.strip()]
        if not ids or min(ids) < 0:
            raise _bad(f"license must be licence ids, comma-separated, not {text!r:.40}")
        return sorted(set(ids))

    def _all_licenses(self) -> list[int]:
        if self._licenses is None:
            self.report.calls += 1
            answer = self._api.call("flickr.photos.licenses.getInfo")
            entries = answer.get("licenses", {}).get("license") if isinstance(answer, dict) else None
            if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries) or not entries:
                raise errors.ParseError(errors.EPARSE, "flickr.photos.licenses.getInfo: no licence list")
            self._licenses = sorted({count(e.get("id"), "flickr.photos.licenses.getInfo", "id") for e in entries})
        return self._licenses

    # -- checkpoint -------------------------------------------------------

    def state(self) -> dict[str, Any]:
        report = self.report
        return {"query": self.query, "pending": [piece.to_json() for piece in self._pending],
                "current": None if self._current is None else
                {"slice": self._current.to_json(), "next_page": self._next_page, "last_page": self._last_page,
                 "ids": self._slice_ids},
                "counts": {"items": report.items, "duplicates": report.duplicates, "matched": report.matched,
                           "calls": report.calls, "slices_done": report.slices_done},
                "over_cap": [[piece.to_json(), total] for piece, total in report.over_cap],
                "extra": self.extra}

    def save(self, path: str | None = None) -> None:
        """Writes the checkpoint (to the harvest's own path unless `path` is given)."""
        if path or self._path:
            checkpoint.write(path or self._path or "", self.state())

    def _load(self, path: str) -> bool:
        state = checkpoint.read(path)
        if state is None:
            return False
        query = dict(self.query, max=state.get("query", {}).get("max")) if not self._max_given else self.query
        if state.get("query") != query:
            raise _bad(f"{path} is the checkpoint of another harvest (query, range or shard differ)")
        self.query = query
        try:
            self._pending = [Slice.from_json(piece) for piece in state["pending"]]
            current = state["current"]
            if current is not None:
                self._current = Slice.from_json(current["slice"])
                self._next_page = count(current["next_page"], path, "next_page")
                self._last_page = count(current["last_page"], path, "last_page")
                self._slice_ids = [count(i, path, "id") for i in current["ids"]]
                for ident in self._slice_ids:
                    self._seen.add(ident)
            counts = state["counts"]
            for name in ("items", "duplicates", "matched", "calls", "slices_done"):
                setattr(self.report, name, count(counts[name], path, name))
            self.report.over_cap = [(Slice.from_json(piece), count(total, path, "total"))
                                    for piece, total in state["over_cap"]]
            self._count_pending()
            self.extra = dict(state["extra"])
        except (KeyError, TypeError, ValueError, errors.ParseError) as error:
            raise _bad(f"{path} is not a usable harvest checkpoint: {error}") from None
        return True
