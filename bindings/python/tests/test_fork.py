# SPDX-License-Identifier: MIT
"""A Flickr object used before a fork (multiprocessing's "fork" start method, gunicorn --preload)
works in the children: each process gets its own answers over its own connections, a child's
futures complete, and a future in flight at the fork fails in the child instead of hanging.
Every child is joined with a timeout and killed when it hangs: a regression fails, never hangs."""
from __future__ import annotations

import multiprocessing
import threading
import time

import pytest

import flickr
from libtest import endpoints

JOIN = 30  # seconds before a child counts as hung
ROUNDS = 40

fork = multiprocessing.get_context("fork")


@pytest.fixture
def api(library_path, sandbox):
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, max_retries=0, timeout_ms=3000,
                       **endpoints(sandbox)) as api:
        yield api


def tally(api, tag: str, rounds: int = ROUNDS) -> dict:
    """Sync and async echo calls, each with its own value: how many came back with it, with another's, or failed."""
    counts = {"own": 0, "crossed": 0, "failed": 0, "first_error": ""}

    def count(answer, want):
        counts["own" if answer["n"]["_text"] == want else "crossed"] += 1

    for i in range(rounds):
        for kind in ("sync", "async"):
            want = f"{tag}-{kind}-{i}"
            try:
                if kind == "sync":
                    count(api.call("flickr.test.echo", n=want), want)
                else:
                    count(api.call_async("flickr.test.echo", n=want).result(timeout=10), want)
            except Exception as error:  # counted, and the first one shown
                counts["failed"] += 1
                counts["first_error"] = counts["first_error"] or f"{type(error).__name__}: {error}"
    return counts


def run_child(target, *args) -> dict:
    """Runs `target(*args, results)` in a forked child; its dict of results (killed after JOIN s)."""
    receiver, sender = fork.Pipe(duplex=False)
    child = fork.Process(target=target, args=(*args, sender))
    child.start()
    sender.close()
    return {"child": child, "receiver": receiver}


def collect(started: dict) -> dict:
    child, receiver = started["child"], started["receiver"]
    child.join(JOIN)
    if child.is_alive():
        child.kill()
        child.join()
        pytest.fail(f"a child still ran after {JOIN} s: it hung")
    try:
        return receiver.recv()
    except EOFError:
        pytest.fail(f"the child ended (exit code {child.exitcode}) without a result")


def child_calls(api, tag, sender):
    started = time.monotonic()
    first = api.call("flickr.test.echo", n=f"{tag}-first")["n"]["_text"]
    first_ms = (time.monotonic() - started) * 1000
    counts = tally(api, tag)
    counts["first_ok"] = first == f"{tag}-first"
    counts["first_ms"] = first_ms
    sender.send(counts)


def test_children_get_their_own_answers_while_the_parent_calls(api):
    # A kept-alive connection, and the worker thread, exist before the fork.
    assert api.call("flickr.test.echo", n="warm")["n"]["_text"] == "warm"
    assert api.call_async("flickr.test.echo", n="warm-async").result(timeout=10)["n"]["_text"] == "warm-async"
    children = [run_child(child_calls, api, f"child{k}") for k in range(3)]
    parent = tally(api, "parent")
    results = [collect(started) for started in children]
    crossed = parent["crossed"] + sum(r["crossed"] for r in results)
    failed = parent["failed"] + sum(r["failed"] for r in results)
    print(f"parent {parent}; children {results}; {crossed} crossed, {failed} failed of {4 * 2 * ROUNDS}")
    assert all(r["first_ok"] for r in results)
    assert crossed == 0
    assert failed == 0, parent["first_error"] or next(r["first_error"] for r in results if r["first_error"])
    assert parent["own"] == 2 * ROUNDS and all(r["own"] == 2 * ROUNDS for r in results)


def child_waits_for_inherited(future, api, sender):
    started = time.monotonic()
    try:
        future.result(timeout=10)
        outcome = "answered"
    except flickr.errors.StateError as error:
        outcome = f"StateError: {error}"
    except Exception as error:
        outcome = f"{type(error).__name__}: {error}"
    waited = time.monotonic() - started
    own = api.call_async("flickr.test.echo", n="child-own").result(timeout=10)["n"]["_text"]
    sender.send({"outcome": outcome, "waited": waited, "own": own})


def test_a_future_in_flight_at_the_fork_fails_in_the_child(api):
    future = api.call_async("flickr.test.echo", n="slow", sandbox_fault="latency=1500")
    time.sleep(0.2)  # on the wire (were it not yet, the child's result would be the same)
    result = collect(run_child(child_waits_for_inherited, future, api))
    print(result)
    assert result["outcome"].startswith("StateError") and "forked" in result["outcome"], result
    assert result["waited"] < 1, result
    assert result["own"] == "child-own"
    assert future.result(timeout=10)["n"]["_text"] == "slow"  # the parent still gets its answer


def child_calls_async(api, sender):
    answers = [api.call_async("flickr.test.echo", n=f"c{i}").result(timeout=10)["n"]["_text"] for i in range(5)]
    sender.send({"answers": answers})


def test_a_fork_while_a_done_callback_runs(api):
    """A dispatcher thread was inside a done callback at the fork: the child's own futures complete."""
    inside, release = threading.Event(), threading.Event()

    def blocking(_future):
        inside.set()
        release.wait(JOIN)

    api.call_async("flickr.test.echo", n="held").add_done_callback(blocking)
    assert inside.wait(10), "the done callback never ran"
    try:
        result = collect(run_child(child_calls_async, api))
    finally:
        release.set()
    assert result["answers"] == [f"c{i}" for i in range(5)]
    assert api.call_async("flickr.test.echo", n="after").result(timeout=10)["n"]["_text"] == "after"
