# SPDX-License-Identifier: MIT
"""``--budget-per-hour N``: Flickr's limit on API calls per key, counted over a rolling hour.

Flickr's developer guide: "If your application stays under 3600 queries per hour across the
whole key ... you'll be fine"; past it, api.flickr.com answers HTTP 429 with a small HTML page
("429 Too Many Requests / You have sent too many requests in a given amount of time.", as
python-flickrapi's users report, sybrenstuvel/flickrapi#135).  The sandbox counts every REST
call by its key (``api_key``, or an OAuth request's ``oauth_consumer_key``) and answers the
call past N in the last hour with that page and a ``Retry-After`` (seconds until the oldest
counted call leaves the hour: a sandbox courtesy, Flickr's own header is not documented).
Refused calls are not counted, so a key that waits gets its calls back. Keys are whatever a
request names, before any check: past ``BUDGET_KEYS`` keys, or longer than ``BUDGET_KEY_CHARS``,
they share one count (the sandbox's bound, docs/sandbox.md "Bounds").

``--clock-speed X`` runs the budget's clock X times faster than real time, so that a test
covers an hour in a fraction of a second (X = 36000: an hour is 0.1 s).
"""

from __future__ import annotations

import collections
import math
import threading
import time
from typing import Callable

from .limits import BUDGET_KEY_CHARS, BUDGET_KEYS

HOUR = 3600.0
_OTHER_KEYS = "\0"  # the one count that every key past the bound shares


class Budget:
    """At most ``per_hour`` calls per key in any rolling hour of ``clock`` (seconds)."""

    def __init__(self, per_hour: int, clock: Callable[[], float]):
        if per_hour <= 0:
            raise ValueError(f"a budget needs a positive number of calls per hour, not {per_hour}")
        self.per_hour = per_hour
        self._clock = clock
        self._calls: dict[str, collections.deque[float]] = {}
        self._lock = threading.Lock()

    def admit(self, key: str) -> int | None:
        """Count a call of ``key`` and return None, or return the seconds (of the budget's
        clock) to wait when the key has spent its hour's calls."""
        now = self._clock()
        with self._lock:
            if len(key) > BUDGET_KEY_CHARS or (key not in self._calls and len(self._calls) >= BUDGET_KEYS):
                key = _OTHER_KEYS
            calls = self._calls.setdefault(key, collections.deque())
            while calls and calls[0] <= now - HOUR:
                calls.popleft()
            if len(calls) >= self.per_hour:
                return max(1, math.ceil(calls[0] + HOUR - now))
            calls.append(now)
            return None


def scaled_clock(speed: float) -> Callable[[], float]:
    """A monotonic clock running ``speed`` times as fast as real time."""
    if not speed > 0 or math.isinf(speed):
        raise ValueError(f"a clock speed must be a positive number, not {speed}")
    start = time.monotonic()
    return lambda: start + (time.monotonic() - start) * speed
