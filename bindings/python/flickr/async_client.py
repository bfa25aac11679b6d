# SPDX-License-Identifier: MIT
"""AsyncFlickr: the Flickr client for asyncio, like ``httpx.AsyncClient`` to ``httpx.Client``.

Built on the library's asynchronous requests where it has them (calls, photo fetches, uploads
and replaces): such a request is driven by the context's worker thread (no thread per call); its
completion reaches the event loop through ``asyncio.wrap_future``, and cancelling the awaiting
task cancels the HTTP request (``flickr_request_cancel``). The library has no asynchronous walk
or ticket wait: :meth:`AsyncFlickr.walk` and :meth:`AsyncFlickr.wait_ticket` run the blocking
form on the event loop's default executor, and a cancel takes effect when the page or wait in
progress ends (each bounded by the context's time limits).
"""
from __future__ import annotations

import asyncio
import pathlib
from typing import Any, AsyncIterator, Optional

from . import _response, errors
from . import upload as _upload  # the module: `upload` is a method name in the class
from .upload import Progress, Source
from ._core import POST, ClientCore, OptionValue, verb
from ._dispatch import RequestFuture
from ._threaded_iter import in_executor
from ._harvest.async_harvest import AsyncHarvest
from .api import AsyncMethods
from .client import Flickr, client_over

#: Public members of :class:`Flickr` without a counterpart here, and why (test_async_client.py
#: checks that every other one has its counterpart).
SYNC_ONLY = {
    "call_async": "returns a concurrent.futures future; `await aapi.call(...)` is its asyncio form",
    "fetch_photo_async": "as call_async: `await aapi.fetch_photo(...)` is its asyncio form",
    "oauth": "the interactive login steps, done once before the client is used: `aapi.sync.oauth`",
    "authenticate_console": "reads the terminal; run it on `aapi.sync` before starting the event loop's work",
    "authenticate_via_browser": "waits for a browser; run it on `aapi.sync` (or in an executor) before",
}



class _LoopProgress:
    """An upload's progress, reported on the library's worker thread, handed to the event loop:
    the caller's callback runs on the loop's thread, in order, before the upload's result. If it
    raises or returns False, the request is cancelled and its exception re-raised to the caller."""

    def __init__(self, loop: asyncio.AbstractEventLoop, progress: Progress) -> None:
        self.loop = loop
        self.progress = progress
        self.error: Optional[BaseException] = None
        self.future: Optional[RequestFuture] = None

    def relay(self, sent: int, total: int) -> None:
        """On the worker thread: queue the report; a closed loop raises, which stops the upload."""
        self.loop.call_soon_threadsafe(self._deliver, sent, total)

    def _deliver(self, sent: int, total: int) -> None:
        if self.error is not None:
            return
        try:
            stop = self.progress(sent, total) is False
        except BaseException as error:  # the caller's own: re-raised by the awaiting coroutine
            self.error, stop = error, True
        if stop and self.future is not None:
            self.future.cancel()


class AsyncFlickr(AsyncMethods):
    """``AsyncFlickr(api_key, secret, **options)``: the options of :class:`Flickr`.

    ``await aapi.call("flickr.photos.search", text="kitten")``, ``await
    aapi.photos.search(text="kitten")``, ``async for photo in aapi.walk(...)``, ``await
    aapi.upload(path, progress)``; ``async with AsyncFlickr(...) as aapi:`` closes it.
    Many calls may be in flight at once (``asyncio.gather``); ``max_connections`` bounds the
    connections they share. Safe to use from several event loops and threads. Every public
    method of :class:`Flickr` has its counterpart here but those of :data:`SYNC_ONLY`.
    """

    # What it shares with Flickr is its core (flickr/_core.py, as httpx's BaseClient): the context,
    # options, lifetime and the start of asynchronous requests; it uses no private name of Flickr.
    def __init__(self, api_key: str, secret: str | None = None, **options: OptionValue):
        self._core = ClientCore(api_key, secret, options)
        self._sync = client_over(self._core)

    @property
    def sync(self) -> Flickr:
        """The synchronous client underneath (same context: options, tokens, connections)."""
        return self._sync

    def set_option(self, name: str, value: OptionValue) -> None:
        """As :meth:`Flickr.set_option`."""
        self._core.set_option(name, value)

    def get_option(self, name: str) -> str | int | None:
        """As :meth:`Flickr.get_option`."""
        return self._core.get_option(name)

    # -- calls (the library's asynchronous calls) ------------------------

    async def call(self, method: str, /, *, post: bool | None = None, **params: Any) -> dict[str, Any]:
        """As :meth:`Flickr.call`, awaited; cancelling the task aborts the request."""
        return await asyncio.wrap_future(self._sync.call_async(method, post=post, **params))

    async def post(self, method: str, /, **params: Any) -> dict[str, Any]:
        """As :meth:`Flickr.post`: :meth:`call` with POST whatever the catalogue says."""
        return await asyncio.wrap_future(self._core.call_future(method, params, POST))

    async def call_xml(self, method: str, /, *, post: bool | None = None, **params: Any) -> str:
        """As :meth:`Flickr.call_xml`: Flickr's XML body as received."""
        self._core.check_keeps_body()
        return await asyncio.wrap_future(self._core.call_future(method, params, verb(post), _response.body_text))

    async def call_discard(self, method: str, /, *, post: bool | None = None, **params: Any) -> None:
        """As :meth:`Flickr.call_discard`: a call whose answer is not read; failures raise as
        :meth:`call`'s. The library has no asynchronous discard, so this is its asynchronous call
        with no answer built in Python (the library still reads the whole answer)."""
        await asyncio.wrap_future(self._core.call_future(method, params, verb(post), _discard))

    # -- photos ---------------------------------------------------------

    async def fetch_photo(self, photo: dict[str, Any], size: str = "b") -> pathlib.Path:
        """As :meth:`Flickr.fetch_photo`: the cached image's path, downloading it when missing."""
        return await asyncio.wrap_future(self._sync.fetch_photo_async(photo, size))

    def photo_url(self, photo: dict[str, Any], size: str = "b") -> str:
        """As :meth:`Flickr.photo_url` (computed, nothing sent: not a coroutine)."""
        return self._sync.photo_url(photo, size)

    async def walk(self, method: str, *, item_path: str | None = None, **params: Any) -> AsyncIterator[dict[str, Any]]:
        """As :meth:`Flickr.walk`, as an asynchronous iterator: ``async for item in aapi.walk(...)``.

        The library has no asynchronous walk: each step runs the blocking one on the event
        loop's default executor. Leaving the loop (break, an exception, a cancelled task) ends
        the walk; a page being fetched then is finished on its thread and dropped.
        """
        async for item in in_executor(self._sync.walk(method, item_path=item_path, **params)):
            yield item

    def harvest(self, method: str, *, dates: str = "upload", min_slice: int = 60, checkpoint: str | None = None,
                shard: tuple[int, int] = (1, 1), **params: Any) -> AsyncHarvest:
        """As :meth:`Flickr.harvest`: ``async for item in aapi.harvest(...)``, its ``.report`` as
        the blocking one's. Each step runs the blocking harvest on the loop's default executor."""
        return AsyncHarvest(self._sync.harvest(method, dates=dates, min_slice=min_slice, checkpoint=checkpoint,
                                                 shard=shard, **params))

    # -- uploads (the library's asynchronous uploads) --------------------

    async def upload(self, photo: Source, /, progress: Optional[Progress] = None, *,
                     filename: str | None = None, mime_type: str | None = None, length: int | None = None,
                     **args: Any) -> dict[str, Any]:
        """As :meth:`Flickr.upload`, awaited; cancelling the task aborts the upload.

        `progress(sent, total)` is called on the event loop's thread (the library reports from
        its worker thread; the reports are handed over in order, the last before the result);
        an exception it raises, or returning False, stops the upload (the exception is re-raised
        here). A binary file object is read on the library's worker thread as the body goes out.
        """
        return await self._send(photo, None, progress, filename, mime_type, length, args)

    async def replace(self, photo: Source, photo_id: str, /, progress: Optional[Progress] = None, *,
                      filename: str | None = None, mime_type: str | None = None, length: int | None = None,
                      **args: Any) -> dict[str, Any]:
        """As :meth:`Flickr.replace`: replaces the image of `photo_id`; as :meth:`upload`."""
        return await self._send(photo, photo_id, progress, filename, mime_type, length, args)

    async def _send(self, photo: Source, photo_id: Optional[str], progress: Optional[Progress],
                    filename: Optional[str], mime_type: Optional[str], length: Optional[int], args: dict[str, Any]) -> dict[str, Any]:
        relay = _LoopProgress(asyncio.get_running_loop(), progress) if progress else None
        future, callbacks = _upload.start(self._core, photo, photo_id, args, relay.relay if relay else None,
                                          filename, mime_type, length)
        if relay is not None:
            relay.future = future
        try:
            answer: dict[str, Any] = await asyncio.wrap_future(future)
        except errors.FlickrError:
            raised = (relay and relay.error) or callbacks.error  # the caller's own exception first
            if raised is not None:
                raise raised from None
            raise
        if relay is not None and relay.error is not None:
            _upload.raise_late(relay.error, answer)
        return answer

    async def wait_ticket(self, ticket_id: str, timeout_ms: int = 300_000) -> str:
        """As :meth:`Flickr.wait_ticket`. The library has no asynchronous form: the wait runs on
        the event loop's default executor, and a cancel takes effect when it ends (timeout_ms)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, self._sync.wait_ticket, ticket_id, timeout_ms)

    # -- lifetime -------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._core.closed

    async def aclose(self) -> None:
        """Cancels what is in flight and releases the context."""
        self._core.close()

    def close(self) -> None:
        self._core.close()

    async def __aenter__(self) -> AsyncFlickr:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


def _discard(response: Any) -> None:
    return None
