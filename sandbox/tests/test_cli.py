# SPDX-License-Identifier: MIT
"""``python -m flickr_sandbox``: output lines, signals, --data, --tls, --help; the in-process API."""
import os
import re
import signal
import ssl
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from flickr_sandbox import Sandbox
from flickr_sandbox import constants as C

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def start(*args):
    proc = subprocess.Popen([sys.executable, "-m", "flickr_sandbox", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=ENV)
    lines = [proc.stdout.readline().rstrip("\n")]
    expected = 7 + ("--tls" in args)
    while len(lines) < expected:
        lines.append(proc.stdout.readline().rstrip("\n"))
    return proc, lines


def echo(url, context=None):
    with urllib.request.urlopen(f"{url}/services/rest/?method=flickr.test.echo&api_key={C.API_KEY}",
                                context=context, timeout=10) as r:
        return r.status, r.read()


def test_output_lines_and_sigterm():
    proc, lines = start("--port", "0")
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+", lines[0])
        fields = dict(line.split("=", 1) for line in lines[1:])
        assert list(fields) == ["api_key", "api_secret", "oauth_token", "oauth_token_secret", "auth_token",
                                "data_dir"]
        assert fields["api_key"] == "5f3ab1cd2e4f6a7b8c9d0e1f2a3b4c5d"
        assert fields["api_secret"] == "9c8b7a6f5e4d3c2b"
        assert fields["oauth_token"] == "72157600000000001-5a1d6b0c0f1e2d3c"
        assert fields["oauth_token_secret"] == "0a1b2c3d4e5f6a7b"
        assert fields["auth_token"] == "72157600000000002-aa11bb22cc33dd44"
        assert os.path.isdir(fields["data_dir"])
        status, body = echo(lines[0])
        assert status == 200 and b'<rsp stat="ok">' in body
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    assert not os.path.exists(fields["data_dir"])  # temporary state is removed at exit
    assert proc.stderr.read() == ""  # quiet without --verbose


def test_sigint_and_persistent_data(tmp_path):
    data = tmp_path / "state"
    proc, lines = start("--port", "0", "--data", str(data), "--verbose")
    try:
        assert lines[-1] == f"data_dir={data}"
        echo(lines[0])
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(10) == 0
    assert (data / "sandbox.sqlite3").exists()
    log = proc.stderr.read()
    assert "GET /services/rest/ 200" in log and C.API_KEY not in log  # paths only, never queries
    # Restarting on the same directory keeps the state and the fixed tokens.
    proc, lines = start("--port", "0", "--data", str(data))
    try:
        assert echo(lines[0])[0] == 200
    finally:
        proc.terminate()
        assert proc.wait(10) == 0


def test_tls():
    proc, lines = start("--port", "0", "--tls")
    try:
        assert re.fullmatch(r"https://127\.0\.0\.1:\d+", lines[0])
        ca_file = dict(line.split("=", 1) for line in lines[1:])["ca_file"]
        assert os.path.exists(ca_file)
        ctx = ssl.create_default_context(cafile=ca_file)
        assert echo(lines[0], ctx)[0] == 200
        port = lines[0].rsplit(":", 1)[1]
        assert echo(f"https://localhost:{port}", ctx)[0] == 200
        with pytest.raises(urllib.error.URLError):
            echo(lines[0], ssl.create_default_context())
    finally:
        proc.terminate()
        assert proc.wait(10) == 0


def test_help_documents_credentials_and_faults():
    out = subprocess.run([sys.executable, "-m", "flickr_sandbox", "--help"], capture_output=True, text=True,
                         env=ENV, check=True).stdout
    for needle in (C.API_KEY, C.API_SECRET, C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET, C.AUTH_TOKEN, C.USER_NSID,
                   "sandbox_fault", "X-Sandbox-Fault", "times=N", "key=K", "http429", "huge=BYTES", "--latency-ms"):
        assert needle in out


def test_port_in_use_fails_cleanly():
    with Sandbox() as sb:
        proc = subprocess.run([sys.executable, "-m", "flickr_sandbox", "--port", str(sb.port)],
                              capture_output=True, text=True, env=ENV, timeout=20)
        assert proc.returncode == 1 and proc.stdout == "" and "flickr_sandbox:" in proc.stderr


def test_in_process_api(tmp_path):
    with Sandbox(tls_enabled=True) as sb:
        assert sb.url == f"https://127.0.0.1:{sb.port}"
        assert (sb.api_key, sb.api_secret, sb.oauth_token, sb.oauth_token_secret, sb.auth_token) == (
            C.API_KEY, C.API_SECRET, C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET, C.AUTH_TOKEN)
        assert os.path.isdir(sb.data_dir) and os.path.exists(sb.ca_file)
        assert echo(sb.url, ssl.create_default_context(cafile=sb.ca_file))[0] == 200
        data_dir = sb.data_dir
    assert not os.path.exists(data_dir)
    sb = Sandbox(data_dir=str(tmp_path)).start()
    try:
        assert echo(sb.url)[0] == 200 and sb.ca_file is None
    finally:
        sb.stop()
    assert tmp_path.exists()  # a caller's directory is kept
