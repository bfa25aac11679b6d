# SPDX-License-Identifier: MIT
"""Never more connections than requests in flight: the sandbox counts the TCP connections it accepts."""
import threading

import pytest

import flickr
from flickr_sandbox import Sandbox
from libtest import endpoints


@pytest.fixture(scope="module")
def slow_sandbox(library_path):
    # Each answer waits 20 ms, so requests really overlap and a connection is busy while it waits.
    with Sandbox(latency_ms=20) as server:
        yield server


def make_api(server):
    return flickr.Flickr(server.api_key, server.api_secret, **endpoints(server))


def run_in_flight(api, calls, in_flight):
    """`calls` echo calls, a new one started as soon as one completes, `in_flight` at a time."""
    slots = threading.Semaphore(in_flight)
    failures = []

    def done(future):
        if future.exception() is not None:
            failures.append(future.exception())
        slots.release()

    for i in range(calls):
        slots.acquire()
        api.call_async("flickr.test.echo", n=str(i)).add_done_callback(done)
    for _ in range(in_flight):
        slots.acquire()
    assert not failures


@pytest.mark.parametrize("in_flight", [1, 4, 8])
def test_async_calls_open_at_most_one_connection_per_request_in_flight(slow_sandbox, in_flight):
    before = slow_sandbox.connections_accepted
    with make_api(slow_sandbox) as api:
        run_in_flight(api, 12 * in_flight, in_flight)
    opened = slow_sandbox.connections_accepted - before
    print(f"{in_flight} in flight: {opened} connections")
    assert 1 <= opened <= in_flight


def test_sequential_calls_reuse_one_connection(slow_sandbox):
    before = slow_sandbox.connections_accepted
    with make_api(slow_sandbox) as api:
        for i in range(10):
            api.call("flickr.test.echo", n=str(i))
    assert slow_sandbox.connections_accepted - before == 1


def test_threads_calling_at_once_open_at_most_one_connection_each(slow_sandbox):
    before = slow_sandbox.connections_accepted
    threads = 4
    with make_api(slow_sandbox) as api:
        barrier = threading.Barrier(threads)

        def work():
            barrier.wait()
            for i in range(8):
                api.call("flickr.test.echo", n=str(i))

        workers = [threading.Thread(target=work) for _ in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    assert 1 <= slow_sandbox.connections_accepted - before <= threads
