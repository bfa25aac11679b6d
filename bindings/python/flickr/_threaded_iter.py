# SPDX-License-Identifier: MIT
"""A blocking iterator (a walk, a harvest) as an asynchronous one: each step runs on the event
loop's default executor. Leaving the loop (break, an exception, a cancelled task) closes the
iterator; a step still running then is finished on its thread and dropped. And the guard that
keeps such an iterator to one step at a time, as a generator is (`OneAtATime`)."""
from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any, Optional, TypeVar

T = TypeVar("T")
_END = object()  # what next() gives at the end


async def in_executor(items: Iterator[T]) -> AsyncIterator[T]:
    loop = asyncio.get_running_loop()
    step: Optional[asyncio.Future[Any]] = None
    try:
        while True:
            step = loop.run_in_executor(None, next, items, _END)
            item = await step
            if item is _END:
                return
            yield item
    finally:
        if step is not None and not step.done():  # its thread is still inside the generator
            step.add_done_callback(lambda _: _close(items))
        else:
            _close(items)


def _close(items: Iterator[Any]) -> None:
    close = getattr(items, "close", None)
    if close is not None:
        close()


class OneAtATime:
    """Held through each use of an iterator that steps a library handle (a harvest, a walk):
    another thread's use meanwhile raises ValueError("generator already executing"), as a
    generator's does. The library refuses a second call on a handle too (FLICKR_ESTATE), but an
    item is read from the page the library lends until the next step: the guard covers that read."""

    __slots__ = ("_lock",)

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def __enter__(self) -> None:
        if not self._lock.acquire(blocking=False):
            raise ValueError("generator already executing")

    def __exit__(self, *exc_info: object) -> None:
        self._lock.release()
