# SPDX-License-Identifier: MIT
"""AsyncFlickr is the same client for asyncio (issue 30): every public method of Flickr has its
counterpart but a documented few (async_client.SYNC_ONLY), with the same parameters; upload and
replace (progress on the loop's thread), walk as `async for`, call_discard, post, call_xml and
wait_ticket work against the sandbox over real sockets, and cancelling the awaiting task cancels
the C request (the request ends with FLICKR_EABORTED)."""
from __future__ import annotations

import ast
import asyncio
import hashlib
import inspect
import threading
import time

import pytest

import flickr
from flickr import async_client
from libtest import PACKAGE_DIR, endpoints
from test_upload_api import Stop, _Trickle, photo_bytes, stop_after_100k, stored

#: Counterparts that are not coroutines: nothing is sent.
NOT_AWAITED = {"set_option", "get_option", "photo_url", "close", "closed", "harvest"}  # harvest: an object with .report
ITERATORS = {"walk"}  # an iterator object (flickr.Walk, continued after an error): an async iterator there


def _public(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_reaches(source: str) -> list[str]:
    """Where `source` reads a private attribute of anything but ``self`` (``self._sync._live()``,
    ``future._keep_alive``, ``_upload._Callbacks``) or imports a private name (``from .client import
    _verb``); a private module itself may be imported (``from . import _response``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _private(node.attr) \
                and not (isinstance(node.value, ast.Name) and node.value.id == "self"):
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found += [f"line {node.lineno}: import {alias.name}" for alias in node.names if _private(alias.name)]
    return sorted(found)


def test_async_flickr_uses_no_private_name_of_flickr():
    """The seam (issue 41 §3): AsyncFlickr shares flickr/_core.py's ClientCore with Flickr, as
    httpx's AsyncClient shares BaseClient, and reaches into no other object's private names."""
    assert private_reaches("self._core.live()\nfrom . import _response\nfrom ._core import verb\n") == []
    assert private_reaches("self._sync._live()\nfuture._keep_alive = 1\nfrom .client import _verb\n") == [
        "line 1: ._live", "line 2: ._keep_alive", "line 3: import _verb"]
    found = private_reaches((PACKAGE_DIR / "flickr" / "async_client.py").read_text(encoding="utf-8"))
    print(f"async_client.py: {len(found)} private names of other objects")
    assert not found, found


def test_every_public_method_of_flickr_has_an_async_counterpart():
    missing = _public(flickr.Flickr) - _public(flickr.AsyncFlickr) - set(async_client.SYNC_ONLY)
    assert not missing, f"Flickr methods without an AsyncFlickr counterpart or a SYNC_ONLY reason: {missing}"
    assert set(async_client.SYNC_ONLY) <= _public(flickr.Flickr), "a stale SYNC_ONLY entry"
    checked = 0
    for name in sorted(_public(flickr.Flickr) - set(async_client.SYNC_ONLY)):
        sync = inspect.getattr_static(flickr.Flickr, name)
        asynchronous = inspect.getattr_static(flickr.AsyncFlickr, name)
        if isinstance(sync, property):
            assert isinstance(asynchronous, property), name
            continue
        if inspect.isgeneratorfunction(sync) or name in ITERATORS:
            assert inspect.isasyncgenfunction(asynchronous), f"{name} should be an async iterator"
        elif name in NOT_AWAITED:
            assert not inspect.iscoroutinefunction(asynchronous), name
        else:
            assert inspect.iscoroutinefunction(asynchronous), f"{name} should be a coroutine"
        assert list(inspect.signature(sync).parameters) == list(inspect.signature(asynchronous).parameters), name
        checked += 1
    print(f"{checked} methods mirrored, {len(async_client.SYNC_ONLY)} sync only")
    assert checked >= 12


async def cancel_and_time(task: asyncio.Task) -> float:
    """Cancels the task and returns how long it took to end, cancelled."""
    task.cancel()
    begun = time.monotonic()
    with pytest.raises(asyncio.CancelledError):
        await task
    return time.monotonic() - begun


@pytest.fixture
def aapi(library_path, sandbox):
    client = flickr.AsyncFlickr(sandbox.api_key, sandbox.api_secret, oauth_token=sandbox.oauth_token,
                                oauth_token_secret=sandbox.oauth_token_secret, **endpoints(sandbox))
    yield client
    client.close()


def test_upload_with_progress_on_the_loops_thread_and_replace(aapi):
    data, new = photo_bytes(700_000, 3), photo_bytes(200_000, 4)
    reports: list[tuple[int, int, int]] = []

    async def main():
        loop_thread = threading.get_ident()
        answer = await aapi.upload(data, lambda sent, total: reports.append((sent, total, threading.get_ident())),
                                   title="async")
        photo_id = answer["photoid"]["_text"]
        replaced = await aapi.replace(new, photo_id)
        return loop_thread, photo_id, replaced

    loop_thread, photo_id, replaced = asyncio.run(main())
    print(f"{len(reports)} progress reports")
    assert reports and {thread for _, _, thread in reports} == {loop_thread}
    sents = [sent for sent, _, _ in reports]
    assert sents == sorted(sents) and reports[-1][0] == reports[-1][1] > len(data)
    assert replaced["photoid"]["_text"] == photo_id
    assert stored(aapi.sync, photo_id)["sha256"] == hashlib.sha256(new).hexdigest()


def test_a_progress_exception_stops_the_upload_and_is_reraised(aapi):
    data = photo_bytes(4 * 1024 * 1024)
    before = aapi.sync.call("flickr.photos.search", user_id="me")["photos"]["total"]
    with pytest.raises(Stop, match="user pressed cancel"):
        asyncio.run(aapi.upload(_Trickle(data), stop_after_100k, length=len(data)))
    with pytest.raises(flickr.Aborted):
        asyncio.run(aapi.upload(_Trickle(data), lambda sent, total: sent < 100_000, length=len(data)))
    assert aapi.sync.call("flickr.photos.search", user_id="me")["photos"]["total"] == before  # no photo


def test_cancelling_the_task_cancels_the_upload(aapi):
    data = photo_bytes(4 * 1024 * 1024)
    before = aapi.sync.call("flickr.photos.search", user_id="me")["photos"]["total"]

    async def main():
        started = asyncio.Event()
        task = asyncio.create_task(aapi.upload(_Trickle(data), lambda sent, total: started.set(), length=len(data)))
        await started.wait()  # the body is going out
        return await cancel_and_time(task)

    took = asyncio.run(main())
    print(f"cancelled upload ended {took * 1000:.0f} ms after the cancel")
    assert took < 2
    assert aapi.sync.call("flickr.photos.search", user_id="me")["photos"]["total"] == before


def test_cancelling_the_task_cancels_the_c_request(aapi):
    futures: list = []
    start = aapi.sync.call_async
    aapi.sync.call_async = lambda *args, **kwargs: futures.append(start(*args, **kwargs)) or futures[-1]

    async def main():
        task = asyncio.create_task(aapi.call("flickr.test.echo", n="1", sandbox_fault="latency=5000"))
        while not futures:  # the task runs up to its await: the request is in flight then
            await asyncio.sleep(0)
        return await cancel_and_time(task)

    took = asyncio.run(main())
    error = futures[0].exception(timeout=2)  # the C request's own end: FLICKR_EABORTED
    print(f"cancel took {took * 1000:.0f} ms; the request ended with {error!r}")
    assert isinstance(error, flickr.Aborted) and took < 2


def test_walk_is_an_async_iterator(aapi):
    expected = list(aapi.sync.walk("flickr.photos.getRecent", per_page=40))

    async def main():
        items = [item async for item in aapi.walk("flickr.photos.getRecent", per_page=40)]
        first: list = []
        async for item in aapi.walk("flickr.photos.getRecent", per_page=5):
            first.append(item)
            if len(first) == 7:  # across a page boundary, then leaves early
                break
        with pytest.raises(flickr.APIError):  # as the sync walk raises it
            async for _ in aapi.walk("flickr.no.suchMethod"):
                pass
        return items, first

    items, first = asyncio.run(main())
    print(f"{len(items)} items walked")
    assert items == expected and len(items) > 40
    assert first == expected[:7]


def test_call_discard_post_call_xml_and_wait_ticket(aapi):
    async def main():
        photo_id = (await aapi.upload(photo_bytes(50_000, 9)))["photoid"]["_text"]
        assert await aapi.call_discard("flickr.photos.addTags", photo_id=photo_id, tags="asyncdiscard") is None
        with pytest.raises(flickr.APIError) as caught:
            await aapi.call_discard("flickr.photos.addTags", photo_id="1", tags="x")
        info = await aapi.post("flickr.photos.getInfo", photo_id=photo_id)
        xml = await aapi.call_xml("flickr.photos.getInfo", photo_id=photo_id)
        ticket = (await aapi.upload(photo_bytes(60_000, 10), **{"async": 1}))["ticketid"]["_text"]
        waited = await aapi.wait_ticket(ticket, timeout_ms=20_000)
        return photo_id, caught.value, info, xml, waited

    photo_id, error, info, xml, waited = asyncio.run(main())
    tags = [tag["raw"] for tag in info["photo"]["tags"]["tag"]]
    assert "asyncdiscard" in tags and error.api_code == 1
    assert xml.startswith("<?xml") and f'id="{photo_id}"' in xml
    assert waited.isdigit() and waited != photo_id
