# SPDX-License-Identifier: MIT
"""Futures of call_async complete off the library's worker thread, so done callbacks may block
on other futures of the same object, start and wait for more calls, or close the object,
without stalling the worker. Every wait has a timeout: a regression fails instead of hanging."""
from __future__ import annotations

import threading
import time

import pytest

import flickr
from flickr import _ffi
from libtest import endpoints

WAIT = 10  # seconds before a callback that never ran counts as a hang


@pytest.fixture
def api(library_path, sandbox):
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, max_retries=0, **endpoints(sandbox)) as api:
        yield api


def echo(api, n: str, latency_ms: int = 0):
    fault = {"sandbox_fault": f"latency={latency_ms}"} if latency_ms else {}
    return api.call_async("flickr.test.echo", n=n, **fault)


def test_a_callback_waits_for_a_later_future_of_the_same_object(api):
    first = echo(api, "1", latency_ms=200)
    second = echo(api, "2", latency_ms=700)  # completes while the first one's callback waits for it
    seen: list = []
    finished = threading.Event()

    def wait_for_second(future):
        seen.append((threading.current_thread().name, future.result()["n"]["_text"],
                     second.result(timeout=WAIT + 5)["n"]["_text"]))
        finished.set()

    first.add_done_callback(wait_for_second)
    assert finished.wait(WAIT), "the callback's wait for a later future never returned"
    thread, first_n, second_n = seen[0]
    assert (first_n, second_n) == ("1", "2")
    assert thread.startswith("flickr-done"), f"callback ran on {thread}, not a dispatcher thread"
    # The worker was never blocked: later calls of the object still complete.
    assert [echo(api, str(i)).result(timeout=WAIT)["n"]["_text"] for i in range(3)] == ["0", "1", "2"]


def test_a_callback_starts_a_call_and_waits_for_it(api):
    answers: list = []
    finished = threading.Event()

    def chain(future):
        answers.append(echo(api, "inner").result(timeout=WAIT + 5)["n"]["_text"])
        answers.append(api.call("flickr.test.echo", n="sync")["n"]["_text"])  # not on the worker: allowed
        finished.set()

    echo(api, "outer", latency_ms=100).add_done_callback(chain)
    assert finished.wait(WAIT), "the callback's own call never completed"
    assert answers == ["inner", "sync"]
    assert echo(api, "after").result(timeout=WAIT)["n"]["_text"] == "after"


def test_closing_the_object_from_a_done_callback(library_path, sandbox):
    api = flickr.Flickr(sandbox.api_key, sandbox.api_secret, **endpoints(sandbox))
    slow = echo(api, "slow", latency_ms=600)  # still in flight at close: it completes all the same
    answers: list = []
    closed = threading.Event()

    def close_then_wait(future):
        api.close()
        answers.append(slow.result(timeout=WAIT + 5)["n"]["_text"])
        closed.set()

    echo(api, "fast", latency_ms=100).add_done_callback(close_then_wait)
    assert closed.wait(WAIT), "close() from a done callback, or the wait after it, never returned"
    assert api.closed and answers == ["slow"]
    with pytest.raises(flickr.StateError):
        api.call_async("flickr.test.echo")
    assert_dispatcher_ends(api)


def assert_dispatcher_ends(api) -> None:
    prefix = f"flickr-done-{api._core.dispatcher.serial}-"
    deadline = time.monotonic() + WAIT
    while any(t.name.startswith(prefix) for t in threading.enumerate()):
        assert time.monotonic() < deadline, "dispatcher threads outlived the closed object"
        time.sleep(0.02)


def test_dispatcher_threads_end_at_close(library_path, sandbox):
    api = flickr.Flickr(sandbox.api_key, sandbox.api_secret, **endpoints(sandbox))
    futures = [echo(api, str(i), latency_ms=300) for i in range(5)]
    api.close()  # requests in flight are still delivered, then the threads end
    assert [f.result(timeout=WAIT)["n"]["_text"] for f in futures] == [str(i) for i in range(5)]
    assert_dispatcher_ends(api)


def test_callbacks_run_one_at_a_time_in_completion_order(api):
    order: list = []
    running = threading.Lock()
    overlapped: list = []

    def record(future):
        if not running.acquire(blocking=False):
            overlapped.append(future)
            return
        try:
            order.append(future)
            time.sleep(0.002)
        finally:
            running.release()

    futures = [echo(api, str(i)) for i in range(20)]
    for future in futures:
        future.add_done_callback(record)
    for future in futures:
        future.result(timeout=WAIT)
    deadline = time.monotonic() + WAIT
    while len(order) + len(overlapped) < len(futures) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert overlapped == []
    assert sorted(order, key=id) == sorted(futures, key=id)


def test_each_response_is_freed_once(api, monkeypatch):
    """Every reference taken in the done callback (flickr_request_response) is released once,
    whatever became of the other requests around it (failed, cancelled)."""
    lib = _ffi.lib()
    taken, freed = [], []
    take, free = lib.flickr_request_response, lib.flickr_response_free

    def counting_take(out, request):
        status = take(out, request)
        taken.append(ctypes_address(out))
        return status

    def counting_free(response):
        freed.append(ctypes_address(response))
        return free(response)

    monkeypatch.setattr(lib, "flickr_request_response", counting_take)
    monkeypatch.setattr(lib, "flickr_response_free", counting_free)
    ok = [echo(api, str(i)) for i in range(5)]
    failed = api.call_async("flickr.fakeMethod")
    cancelled = echo(api, "cancel", latency_ms=3000)
    cancelled.cancel()
    unreadable = api.call_async("flickr.test.echo", sandbox_fault="malformed")
    for future in ok:
        future.result(timeout=WAIT)
    with pytest.raises(flickr.APIError):
        failed.result(timeout=WAIT)
    with pytest.raises(flickr.Aborted):
        cancelled.result(timeout=WAIT)
    with pytest.raises(flickr.ParseError):
        unreadable.result(timeout=WAIT)
    deadline = time.monotonic() + WAIT
    while len(freed) < len(taken) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(taken) == 5  # a response only for the successful calls
    assert sorted(taken) == sorted(freed)


def ctypes_address(pointer) -> int:
    """The address a ResponsePtr (or a byref() to one) holds."""
    import ctypes

    target = getattr(pointer, "_obj", pointer)
    return ctypes.cast(target, ctypes.c_void_p).value or 0
