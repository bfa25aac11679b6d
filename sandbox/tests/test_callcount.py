# SPDX-License-Identifier: MIT
"""The peers' counting proxy (tests/peers/callcount.py) on its own: what it counts, what it delays.

test_peers.py runs it in front of other people's tools; bench/run.py's workload 8 also has it add
a latency to every REST call. Here a signed call goes through it to the shared sandbox.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from sbclient import Client

from peers.callcount import MAX_DELAY_MS, CallCounter

from flickr_sandbox import Sandbox
from flickr_sandbox import constants as C

DELAY_MS = 200


def through(proxy: CallCounter, sandbox: Sandbox) -> Client:
    """A client of the sandbox's credentials whose requests go to the proxy."""
    return Client(SimpleNamespace(url=proxy.url, api_key=sandbox.api_key, api_secret=sandbox.api_secret,
                                  oauth_token=sandbox.oauth_token, oauth_token_secret=sandbox.oauth_token_secret))


def test_counts_rest_calls_and_delays_each(sandbox: Sandbox) -> None:
    with CallCounter(sandbox.url, delay_ms=DELAY_MS) as proxy:
        client = through(proxy, sandbox)
        start = time.monotonic()
        user = client.rest("flickr.test.login", auth="oauth").ok().find("user")
        seconds = time.monotonic() - start
        page = client.raw("GET", "/photos/")
    # Forwarded as sent: the signature made for the proxy's URL verified at the sandbox.
    assert user is not None and user.get("id") == C.USER_NSID
    assert [str(c) for c in proxy.calls] == ["flickr.test.login()"]
    assert proxy.pages == ["/photos/"] and page.status < 500
    # A lower bound only (a sleep never ends early); the machine's load sets no upper one here.
    assert seconds >= DELAY_MS / 1000, f"the call took {seconds:.3f} s through a {DELAY_MS} ms proxy"
    print(f"1 REST call through a {DELAY_MS} ms proxy: {seconds:.3f} s; 1 page")


@pytest.mark.parametrize("delay_ms", [-1, MAX_DELAY_MS + 1])
def test_refuses_a_delay_out_of_range(sandbox: Sandbox, delay_ms: int) -> None:
    with pytest.raises(ValueError, match=f"not {delay_ms}"):
        CallCounter(sandbox.url, delay_ms=delay_ms)
