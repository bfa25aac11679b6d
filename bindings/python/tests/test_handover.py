# SPDX-License-Identifier: MIT
"""Python's handover (issue 34): answers reach Python in marshal's format where the interpreter
reads the library's probe exactly as JSON, and as JSON otherwise. Both give identical objects on
every fixture, the 20,000 seeded strings and hostile shapes (handovercheck.py), on each installed
Python the package supports; a disagreeing interpreter falls back to JSON."""
from __future__ import annotations

import os
import subprocess
import sys
import types
from typing import Any

import pytest

import handovercheck
from flickr import _ffi, _response
from libtest import PYTHONPATH
from test_minimum_python import MINIMUM, _interpreter

#: The Pythons the package supports: its minimum to the newest released when this was written.
SUPPORTED = [(3, minor) for minor in range(MINIMUM[1], 14)]


def test_both_handovers_give_identical_objects(library_path):
    counts = handovercheck.check_all()
    print(counts)
    assert counts["fixtures"] == 45 and counts["seeded"] == 20_000 and counts["hostile"] == 13
    # Expat refuses ill-formed UTF-8 and control characters: the rest of the strings reach the tree.
    assert 2_000 < counts["seeded parsed"] < 20_000


@pytest.mark.parametrize("version", SUPPORTED, ids=[f"{major}.{minor}" for major, minor in SUPPORTED])
def test_on_each_supported_python(library_path, version):
    python = _interpreter(version)
    if python is None:
        pytest.skip(f"no Python {version[0]}.{version[1]} installed (pyenv or python{version[0]}.{version[1]})")
    result = subprocess.run([python, handovercheck.__file__], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": PYTHONPATH, "FLICKR_LIBRARY": str(library_path)})
    print(result.stdout, result.stderr[-2000:])
    assert result.returncode == 0
    assert result.stdout.startswith(f"({version[0]}, {version[1]})") and "'fixtures': 45" in result.stdout


def _parsed(xml: bytes) -> dict[str, Any]:
    with _ffi.Response() as response:
        _ffi.lib().flickr_response_parse(response.out, xml, len(xml))
        return _response.as_dict(response)


def test_an_interpreter_that_reads_marshal_otherwise_gets_json(library_path, monkeypatch):
    assert _response.marshal_agrees()
    monkeypatch.setattr(_response, "_marshal_decided", False)
    monkeypatch.setattr(_response, "_marshal_ok", False)
    reads: list[int] = []

    def other_loads(data: bytes) -> Any:  # a Python whose marshal format moved on
        reads.append(len(data))
        return {"stat": "ok", "moved": ["on"]}
    monkeypatch.setattr(_response, "marshal", types.SimpleNamespace(loads=other_loads))
    xml = b'<rsp stat="ok"><photos><photo id="1"/></photos></rsp>'
    assert _parsed(xml) == {"stat": "ok", "photos": {"photo": [{"id": "1"}]}}
    assert not _response.marshal_agrees() and len(reads) == 1  # the probe only, once
    assert _parsed(xml) == {"stat": "ok", "photos": {"photo": [{"id": "1"}]}} and len(reads) == 1

    def broken_loads(data: bytes) -> Any:
        raise ValueError("bad marshal data (unknown type code)")
    monkeypatch.setattr(_response, "_marshal_decided", False)
    monkeypatch.setattr(_response, "marshal", types.SimpleNamespace(loads=broken_loads))
    assert _parsed(xml)["photos"] == {"photo": [{"id": "1"}]}
    assert not _response.marshal_agrees()
    print("fallback to JSON: after a different reading and after an error; probe read", len(reads), "time")


def test_the_probe_covers_what_answers_hold(library_path):
    """The probe decides for every answer: it holds each kind of thing the writer writes."""
    with _ffi.Response() as response:
        _ffi.lib().flickr_response_parse(response.out, _response._PROBE, len(_response._PROBE))
        data = _response._from_marshal(_ffi.lib().flickr_response_marshal, response)
    def texts(value: Any) -> str:
        if isinstance(value, dict):
            return "".join(key + texts(item) for key, item in value.items())
        return "".join(map(texts, value)) if isinstance(value, list) else str(value)
    flat = texts(data)
    assert isinstance(data["photos"]["photo"], list) and data["e"] == {} and data["photos"]["photo"][1]["title"] == ""
    assert "@user" in data["user"] and "_text" in data["long"] and len(data["long"]["a"]) == 300
    assert all(ch in flat for ch in ("\u00e9", "\u732b", "\U0001f600", "\u2028", "\t", "\n", "\r"))
    print(sys.version_info[:2], "probe:", len(_response._PROBE), "bytes")
