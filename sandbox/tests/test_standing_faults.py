# SPDX-License-Identifier: MIT
"""Standing faults (``--fault SPEC[@PATH]``, ``Sandbox(faults=...)``): for a program that cannot
add a parameter or a header to its requests, such as another tool's image downloads."""
from __future__ import annotations

import os
import subprocess
import sys
import urllib.parse

import pytest
from sbclient import Client

from flickr_sandbox import Sandbox
from flickr_sandbox import constants as C
from flickr_sandbox.faults import FaultSyntaxError, StandingFault, parse_standing

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def test_parsing() -> None:
    assert parse_standing("http503") == StandingFault("http503", "/")
    assert parse_standing("http429=2;times=3@/photos/") == StandingFault("http429=2;times=3", "/photos/")
    # An @ not followed by a path belongs to the spec (here, to its key).
    assert parse_standing("http500;key=a@b") == StandingFault("http500;key=a@b", "/")
    for bad in ("bogus@/photos/", "http429=x", "latency", "@/photos/"):
        with pytest.raises(FaultSyntaxError):
            parse_standing(bad)
    with pytest.raises(FaultSyntaxError):
        Sandbox(faults=["http5000@/photos/"])


def _photo_path(client: Client) -> str:
    photo = client.rest("flickr.people.getPhotos", user_id=C.USER_NSID, extras="url_s", per_page=1).ok().find(
        "photos/photo")
    assert photo is not None
    return urllib.parse.urlsplit(photo.get("url_s")).path


def test_image_requests_get_the_fault_and_others_do_not() -> None:
    with Sandbox(faults=["http429=2;times=2;key=images@/photos/"]) as sb:
        client = Client(sb)
        path = _photo_path(client)  # REST: not under /photos/, answered
        statuses = []
        for _ in range(3):
            reply = client.raw("GET", path)
            statuses.append((reply.status, reply.headers.get("Retry-After")))
        assert statuses == [(429, "2"), (429, "2"), (200, None)]
        # A request's own fault still wins.
        assert client.raw("GET", path + "?sandbox_fault=http503").status == 503
        print(f"{path}: {statuses}")


def test_the_command_line_refuses_a_bad_fault() -> None:
    done = subprocess.run([sys.executable, "-m", "flickr_sandbox", "--port", "0", "--fault", "bogus@/photos/"],
                          capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 2 and "unknown fault 'bogus'" in done.stderr and "Traceback" not in done.stderr
