# SPDX-License-Identifier: MIT
"""Shared fixtures: the built library and sandbox servers."""
import os
import pathlib
import signal

import pytest

from libtest import REPO, running_sandbox, session_cache_dir

# Tests send Ctrl-C (SIGINT) to the programs they start. A run started as a background job of a
# shell without job control inherits SIGINT ignored, and so would every child (an ignored signal
# survives exec): restore Python's handler here, so children start with the default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Budget files and default photo caches of this session's processes go to a cache of its own.
os.environ["XDG_CACHE_HOME"] = session_cache_dir()

# Fails the session if any exception message holds the sandbox's secrets (see secret_guard.py).
pytest_plugins = ["secret_guard"]


@pytest.fixture(scope="session")
def library_path() -> pathlib.Path:
    """The libflickr.so under test: $FLICKR_LIBRARY, else the CMake build's copy."""
    path = pathlib.Path(os.environ.get("FLICKR_LIBRARY", REPO / "build" / "libflickr.so.0"))
    if not path.exists():
        pytest.fail(f"libflickr not built: {path} is missing (run the README's test command)")
    os.environ["FLICKR_LIBRARY"] = str(path)
    return path


@pytest.fixture(scope="session")
def sandbox():
    """A sandbox server (plain HTTP) in a subprocess, shared by the session."""
    with running_sandbox() as server:
        yield server


@pytest.fixture(scope="module")
def module_sandbox():
    """A sandbox of the module's own, for tests whose uploads would change what other modules find
    in the session's (a search for "a" expecting url_m on every photo, for one)."""
    with running_sandbox() as server:
        yield server


@pytest.fixture(scope="session")
def tls_sandbox():
    """A sandbox serving HTTPS with its own CA (server.ca_file)."""
    with running_sandbox("--tls") as server:
        yield server


@pytest.fixture
def photo(tmp_path) -> pathlib.Path:
    """A small file the sandbox takes as a JPEG upload (its start is a JPEG's; the rest is not)."""
    path = tmp_path / "cli photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 400)
    return path
