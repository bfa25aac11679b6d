# SPDX-License-Identifier: MIT
"""--budget-per-hour N: a key past N calls in a rolling hour gets Flickr's 429, on a fast clock."""
from __future__ import annotations

import time

import pytest
from sbclient import Client

from flickr_sandbox import Sandbox
from flickr_sandbox.budget import Budget, scaled_clock

BUDGET = 5
SPEED = 3600.0  # an hour of the budget's clock is a second


def test_a_key_over_its_budget_gets_429_until_the_hour_moves_on():
    with Sandbox(budget_per_hour=BUDGET, clock_speed=SPEED) as sb:
        client = Client(sb)
        start = time.monotonic()
        statuses = [client.rest("flickr.test.echo").status for _ in range(BUDGET + 1)]
        elapsed = time.monotonic() - start
        if elapsed * SPEED >= 3600:
            pytest.fail(f"{BUDGET + 1} calls took {elapsed:.3f} s, an hour of the fast clock: too slow to test")
        assert statuses == [200] * BUDGET + [429]
        refused = client.rest("flickr.test.echo")
        assert refused.status == 429 and b"You have sent too many requests" in refused.body
        assert 1 <= int(refused.headers["Retry-After"]) <= 3600
        # Another key is counted on its own: Flickr's answer to it (an invalid key), not a 429.
        other = client.rest("flickr.test.echo", api_key="0" * 32)
        assert other.status == 200 and other.err()[0] == 100
        # Refused calls are not counted: once the oldest calls leave the hour, the key is served again.
        deadline, waited = time.monotonic() + 10, 0
        while client.rest("flickr.test.echo").status == 429:
            waited += 1
            assert time.monotonic() < deadline, "the key never got its calls back"
        print(f"served again after {waited} refused calls, {time.monotonic() - start:.3f} s")


def test_no_budget_means_no_limit(fresh_sandbox):
    client = Client(fresh_sandbox)
    assert {client.rest("flickr.test.echo").status for _ in range(50)} == {200}


def test_the_rolling_hour_counts_per_key():
    now = [0.0]
    budget = Budget(2, lambda: now[0])
    assert [budget.admit("a"), budget.admit("a"), budget.admit("b")] == [None, None, None]
    assert budget.admit("a") == 3600
    now[0] = 1800.0
    assert budget.admit("a") == 1800
    now[0] = 3600.0  # the first two calls are an hour old: out of the window
    assert [budget.admit("a"), budget.admit("a"), budget.admit("a") is not None] == [None, None, True]
    with pytest.raises(ValueError):
        Budget(0, lambda: 0.0)
    with pytest.raises(ValueError):
        scaled_clock(0)
