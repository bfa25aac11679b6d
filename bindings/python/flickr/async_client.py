# SPDX-License-Identifier: MIT
"""AsyncFlickr: the Flickr client for asyncio, like ``httpx.AsyncClient`` to ``httpx.Client``.

Built on the library's asynchronous requests: a call is a C request driven by the context's
worker thread (no thread per call); its completion reaches the event loop through
``asyncio.wrap_future``. Cancelling the awaiting task cancels the HTTP request.
"""
from __future__ import annotations

import asyncio
import pathlib
from typing import Any

from .api import AsyncMethods
from .client import Flickr, OptionValue


class AsyncFlickr(AsyncMethods):
    """``AsyncFlickr(api_key, secret, **options)``: the options of :class:`Flickr`.

    ``await aapi.call("flickr.photos.search", text="kitten")``, ``await
    aapi.photos.search(text="kitten")``; ``async with AsyncFlickr(...) as aapi:`` closes it.
    Many calls may be in flight at once (``asyncio.gather``); ``max_connections`` bounds the
    connections they share. Safe to use from several event loops and threads.
    """

    def __init__(self, api_key: str, secret: str | None = None, **options: OptionValue):
        self._flickr = Flickr(api_key, secret, **options)

    @property
    def sync(self) -> Flickr:
        """The synchronous client underneath (same context: options, tokens, connections)."""
        return self._flickr

    def set_option(self, name: str, value: OptionValue) -> None:
        """As :meth:`Flickr.set_option`."""
        self._flickr.set_option(name, value)

    def get_option(self, name: str) -> str | int | None:
        """As :meth:`Flickr.get_option`."""
        return self._flickr.get_option(name)

    async def call(self, method: str, /, *, post: bool | None = None, **params: Any) -> dict:
        """As :meth:`Flickr.call`, awaited; cancelling the task aborts the request."""
        return await asyncio.wrap_future(self._flickr.call_async(method, post=post, **params))

    async def fetch_photo(self, photo: dict, size: str = "b") -> pathlib.Path:
        """As :meth:`Flickr.fetch_photo`: the cached image's path, downloading it when missing."""
        return await asyncio.wrap_future(self._flickr.fetch_photo_async(photo, size))

    @property
    def closed(self) -> bool:
        return self._flickr.closed

    async def aclose(self) -> None:
        """Cancels what is in flight and releases the context."""
        self._flickr.close()

    def close(self) -> None:
        self._flickr.close()

    async def __aenter__(self) -> AsyncFlickr:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
