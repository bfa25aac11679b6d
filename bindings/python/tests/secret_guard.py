# SPDX-License-Identifier: MIT
"""pytest plugin: records the text of every flickr.FlickrError created during the test
session (every exception the binding raises from a library failure, whether a test
expected it or not) and fails the session if one holds the sandbox's shared secret or
OAuth token secret. Registered in conftest.py; prints what it checked at the end."""
from __future__ import annotations

import pytest

SECRETS = ("9c8b7a6f5e4d3c2b", "0a1b2c3d4e5f6a7b")  # the sandbox's api_secret and oauth_token_secret

_messages: list[str] = []


def pytest_configure(config):
    import flickr.errors

    original = flickr.errors.FlickrError.__init__

    def recording_init(self, code, message, *args, **kwargs):
        original(self, code, message, *args, **kwargs)
        _messages.append(f"{type(self).__name__}: {message} {self!r}")

    flickr.errors.FlickrError.__init__ = recording_init


def leaks() -> list[str]:
    return [m for m in _messages if any(secret in m for secret in SECRETS)]


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    found = leaks()
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    line = (f"secret guard: {len(_messages)} exception messages checked for {len(SECRETS)} secrets, "
            f"{len(found)} hold one")
    if reporter:
        reporter.ensure_newline()
        reporter.write_line(line)
        for message in found[:20]:
            reporter.write_line(f"FAILED: a message holds a secret: {message}", red=True)
    if found:
        session.exitstatus = 1
