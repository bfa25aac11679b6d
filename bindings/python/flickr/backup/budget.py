# SPDX-License-Identifier: MIT
"""`Budget`: at most N API calls in any hour (Flickr's 3,600 per key), bursts allowed.

The times of the calls made in the last hour are kept in the state database between runs, so
two runs in one hour share the budget. When it is spent the run waits (telling the progress
callback when it resumes) rather than risking the key; Ctrl-C ends the wait at once.
"""
from __future__ import annotations

import collections
import time
from typing import Callable, Iterable, Optional


class Budget:
    def __init__(self, per_hour: int, window: float = 3600.0, past: Iterable[float] = (),
                 on_wait: Optional[Callable[[float], None]] = None) -> None:
        self.per_hour = per_hour
        self.window = window
        self.on_wait = on_wait
        now = time.time()
        self.times: collections.deque[float] = collections.deque(sorted(t for t in past if now - window < t <= now))
        self.waited = 0.0

    def take(self) -> None:
        """Before a call: waits until it fits in the budget (0: no limit), then counts it."""
        if self.per_hour <= 0:
            return
        while True:
            now = time.time()
            while self.times and self.times[0] <= now - self.window:
                self.times.popleft()
            if len(self.times) < self.per_hour:
                self.times.append(now)
                return
            resume = self.times[0] + self.window
            if self.on_wait is not None:
                self.on_wait(resume)
            pause = max(resume - now, 0.01)
            time.sleep(pause)  # on the run's thread: a Ctrl-C ends it
            self.waited += pause

    def recent(self) -> list[float]:
        return list(self.times)
