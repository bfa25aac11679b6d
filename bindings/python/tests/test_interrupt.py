# SPDX-License-Identifier: MIT
"""Ctrl-C during a blocking call arrives within a fraction of a second and stops the request
(issue 19, fault 9: it waited for the call to end, 20-120 s against a silent server)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time

import pytest

SCRIPT = textwrap.dedent("""
    import sys, time, flickr
    api = flickr.Flickr("key", "secret", rest_endpoint=sys.argv[1], timeout_ms=60000, max_retries=0)
    print("calling", flush=True)
    try:
        api.call("flickr.test.echo")
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(0)
    print("not interrupted", flush=True)
    sys.exit(1)
""")


def default_sigint() -> None:
    """In the child, before Python starts: SIGINT as a terminal delivers it. A test run started in
    the background by a shell without job control inherits SIGINT ignored, and Python then leaves
    it ignored (rightly: such a process is meant not to be interrupted)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def silent_server():
    """Accepts connections and never answers; counts them."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held, stop = [], threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                continue
            held.append(connection)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/services/rest/", held
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    listener.close()


def _run_and_interrupt(endpoint: str) -> tuple[float, str]:
    """Starts a call against `endpoint`, sends SIGINT, returns (seconds until it stopped, its output)."""
    process = subprocess.Popen([sys.executable, "-c", SCRIPT, endpoint], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=dict(os.environ), preexec_fn=default_sigint)
    assert process.stdout.readline().strip() == "calling"
    time.sleep(0.5)  # the call is blocked in the library by now
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        output, errors = process.communicate(timeout=30)
    finally:
        process.kill()
    latency = time.monotonic() - sent
    assert process.returncode == 0, (output, errors)
    return latency, output


def test_ctrl_c_stops_a_blocked_call_within_a_second(silent_server):
    endpoint, held = silent_server
    latency, output = _run_and_interrupt(endpoint)
    print(f"Ctrl-C latency: {latency * 1000:.0f} ms (process exit included)")
    assert output.strip() == "interrupted"
    assert latency < 1.0
    assert held, "the call never reached the server"
    # The request was cancelled: its connection is closed, not left open for the server to hold.
    held[0].settimeout(5)
    received = b""
    while True:
        chunk = held[0].recv(65536)
        if not chunk:
            break
        received += chunk
    assert received.startswith(b"GET /services/rest/?")


def test_a_program_s_own_sigint_handler_is_left_alone(silent_server, tmp_path):
    """Only the default handler is stood in for: a program's own runs, and the call goes on."""
    endpoint, _ = silent_server
    script = tmp_path / "own_handler.py"
    script.write_text(textwrap.dedent("""
        import signal, sys, flickr
        seen = []
        signal.signal(signal.SIGINT, lambda *a: seen.append(1))
        api = flickr.Flickr("key", "secret", rest_endpoint=sys.argv[1], timeout_ms=1500, max_retries=0)
        print("calling", flush=True)
        try:
            api.call("flickr.test.echo")
        except flickr.Timeout:
            print("timed out, handler ran:", bool(seen), flush=True)
    """))
    process = subprocess.Popen([sys.executable, str(script), endpoint], stdout=subprocess.PIPE, text=True,
                               env=dict(os.environ), preexec_fn=default_sigint)
    assert process.stdout.readline().strip() == "calling"
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=30)
    assert output.strip() == "timed out, handler ran: True"
