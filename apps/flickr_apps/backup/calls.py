# SPDX-License-Identifier: MIT
"""`Calls`: the backup's API calls, each counted by method (the run's report gives them)."""
from __future__ import annotations

import collections
import math
import time
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from flickr import errors
from flickr.limits import MAX_PER_PAGE

if TYPE_CHECKING:
    from flickr.client import Flickr

PER_PAGE = MAX_PER_PAGE  # the fewest listing calls


class Calls:
    def __init__(self, client: "Flickr",
                 on_wait: Optional[Callable[[float, "errors.OverBudget"], None]] = None) -> None:
        self.client = client
        self.on_wait = on_wait
        self.by_method: collections.Counter[str] = collections.Counter()
        self.waited = 0.0
        self.totals: dict[str, int] = {}

    @property
    def total(self) -> int:
        return sum(self.by_method.values())

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        while True:
            try:
                answer = self.client.call(method, **params)
            except errors.OverBudget as error:
                self._wait(error)
                continue
            self.by_method[method] += 1
            return answer

    def call_async(self, method: str, **params: Any) -> "Future[Any]":
        while True:
            try:
                future = self.client.call_async(method, **params)  # refused at once when over budget
            except errors.OverBudget as error:
                self._wait(error)
                continue
            self.by_method[method] += 1
            return future

    def _wait(self, error: "errors.OverBudget") -> None:
        """The key's budget (the client's budget_per_hour, shared by every process using the key) has
        no slot before the call's time limit (or the API host asked to wait, HTTP 429): wait for one,
        saying until when and why, rather than risk the key. On the run's thread: a Ctrl-C ends the
        wait at once."""
        pause = max(error.retry_after, 0.05)
        if self.on_wait is not None:
            self.on_wait(time.time() + pause, error)
        time.sleep(pause)
        self.waited += pause

    def pages(self, method: str, list_key: str, item_key: str, on_page: Optional[Callable[[int, int], None]] = None,
              **params: Any) -> Iterator[dict[str, Any]]:
        """Every item of every page of `method` (answer[list_key][item_key]), PER_PAGE a call, through the
        library's walk: a listing that repeats a page, brings no new id or announces more pages than
        items raises `ParseError` (docs/harvest.md, "Lying listings"). Each page answered is counted as
        a call; a budget with no slot is waited for as for a call, then the same page asked again.
        ``totals[method]`` is the total the last page announced (-1 for none)."""
        answered = 0
        with self.client.walk(method, item_path=f"{list_key}.{item_key}", per_page=PER_PAGE, **params) as walk:
            while True:
                try:
                    item = next(walk, None)
                except errors.OverBudget as error:
                    self._wait(error)
                    continue
                finally:
                    if walk.page > answered:
                        self.by_method[method] += walk.page - answered
                        answered = walk.page
                        self.totals[method] = walk.total
                        if on_page is not None:
                            on_page(answered, max(answered, math.ceil(walk.total / PER_PAGE)))
                if item is None:
                    return
                yield item
