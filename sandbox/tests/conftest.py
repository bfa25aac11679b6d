# SPDX-License-Identifier: MIT
"""Fixtures for the sandbox tests: a shared in-process sandbox and OAuth helpers.

Requests are signed with oauthlib, an OAuth implementation independent of the
sandbox's own code, so the tests prove the sandbox speaks standard OAuth 1.0a.
"""
from __future__ import annotations

import pathlib
import signal
import sys

import pytest

# Tests send Ctrl-C (SIGINT) to the sandboxes they start. A run started as a background job of a
# shell without job control inherits SIGINT ignored, and so would every child (an ignored signal
# survives exec): restore Python's handler here, so children start with the default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# sbclient beside this file; flickr_sandbox from this checkout (sandbox/), whatever PYTHONPATH says.
sys.path.insert(0, str(pathlib.Path(__file__).parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from sbclient import Client  # noqa: E402

from flickr_sandbox import Sandbox  # noqa: E402


@pytest.fixture(scope="session")
def sandbox():
    """One in-process sandbox for the whole session (tests create their own data)."""
    with Sandbox() as sb:
        yield sb


@pytest.fixture(scope="session")
def client(sandbox) -> Client:
    return Client(sandbox)


@pytest.fixture
def fresh_sandbox():
    """A private sandbox, for tests that change shared state (tokens, deletions)."""
    with Sandbox() as sb:
        yield sb
