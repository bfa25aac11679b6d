# SPDX-License-Identifier: MIT
"""The `flickr` command line (python -m flickr) against the sandbox, as a user runs it."""
import http.server
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid

import pytest

from libtest import CLIENT_PATH, run_cli as run


def test_call_json_and_xml(library_path, sandbox):
    result = run(sandbox, "call", "flickr.test.echo", "greeting=héllo wörld")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["greeting"]["_text"] == "héllo wörld"
    result = run(sandbox, "call", "flickr.test.login", "--xml")
    assert result.returncode == 0
    assert result.stdout.startswith("<?xml") and 'stat="ok"' in result.stdout
    result = run(sandbox, "call", "flickr.test.echo", "x=1", "--post")
    assert json.loads(result.stdout)["x"]["_text"] == "1"


def test_exit_codes(library_path, sandbox):
    assert run(sandbox, "call", "flickr.fakeMethod").returncode == 3  # API error
    failed = run(sandbox, "call", "flickr.test.echo", env_extra={"FLICKR_ENDPOINT": "http://127.0.0.1:9"})
    assert failed.returncode == 4  # network
    assert run(sandbox, "call", "flickr.test.echo", "not-a-pair").returncode == 2  # usage
    assert run(sandbox).returncode == 2  # no command
    assert run(sandbox, "upload", "/nonexistent.jpg").returncode == 2
    assert run(sandbox, "upload", "x", token=False).returncode in (2, 5)


@pytest.mark.parametrize("command", ["call", "upload", "replace", "download", "walk", "auth", "sandbox", None])
def test_help_everywhere(library_path, sandbox, command):
    result = run(sandbox, *([command] if command else []), "--help")
    assert result.returncode == 0
    assert "usage" in (result.stdout + result.stderr).lower()


def test_upload_files_with_progress_and_summary(library_path, sandbox, photo, tmp_path):
    second = tmp_path / "second.jpg"
    second.write_bytes(photo.read_bytes()[:5000])
    result = run(sandbox, "upload", str(photo), str(second), "--title", "From the CLI", "--tags", "cli test",
                 "--private", "--json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["file"] for line in lines] == [str(photo), str(second)]
    assert "uploaded 2 of 2 files" in result.stderr
    assert "100%" in result.stderr and "cli photo.jpg" in result.stderr
    # 5,000 bytes and the form around them: in KiB (it read 0.0/0.0 MB), as every command's amounts.
    assert re.search(r"second\.jpg \[#+\] 100% ([4-9]\.\d)/\1 KiB [\d.]+ [KM]iB/s\n", result.stderr), result.stderr
    info = json.loads(run(sandbox, "call", "flickr.photos.getInfo", f"photo_id={lines[0]['photo_id']}").stdout)
    assert info["photo"]["title"]["_text"] == "From the CLI"
    assert info["photo"]["visibility"]["ispublic"] == "0"

    replaced = run(sandbox, "replace", str(second), lines[0]["photo_id"], "--json")
    assert replaced.returncode == 0, replaced.stderr
    assert json.loads(replaced.stdout)["photo_id"] == lines[0]["photo_id"]


def test_upload_async_waits_for_tickets(library_path, sandbox, photo):
    result = run(sandbox, "upload", str(photo), "--async", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["photo_id"].isdigit()


def test_upload_failure_is_reported(library_path, sandbox, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not an image")
    result = run(sandbox, "upload", str(text))
    assert result.returncode == 3
    assert "uploaded 0 of 1 files" in result.stderr


def test_walk_json_lines(library_path, sandbox):
    result = run(sandbox, "walk", "flickr.photos.getRecent", "per_page=25", "--limit", "60")
    assert result.returncode == 0, result.stderr
    items = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(items) == 60 and len({i["id"] for i in items}) == 60
    everything = run(sandbox, "walk", "flickr.photos.search", "text=a", "per_page=50")
    assert everything.returncode == 0
    assert len(everything.stdout.splitlines()) > 0


def test_walk_the_callers_photostream(library_path, sandbox):
    """The README's `flickr walk flickr.people.getPhotos user_id=me`: every photo of the caller."""
    total = json.loads(run(sandbox, "call", "flickr.people.getPhotos", "user_id=me", "per_page=1").stdout)
    result = run(sandbox, "walk", "flickr.people.getPhotos", "user_id=me")
    assert result.returncode == 0, result.stderr
    items = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(items) == len({i["id"] for i in items}) == int(total["photos"]["total"])
    assert {i["owner"] for i in items} == {"12037949@N00"}
    assert run(sandbox, "walk", "flickr.people.getPhotos", "user_id=me", token=False).returncode == 3


# -- global options: --timeout, --retries, -v -------------------------------------------------------


def fault(kind: str, times: int) -> str:
    return f"{kind};times={times};key={uuid.uuid4().hex}"


@pytest.mark.parametrize("where", ["before", "after"])
def test_timeout_option(library_path, sandbox, where):
    options = ["--timeout", "0.3", "--retries", "0"]
    command = ["call", "flickr.test.echo", "sandbox_fault=latency=3000"]
    started = time.monotonic()
    result = run(sandbox, *(options + command if where == "before" else command + options))
    assert result.returncode == 4, result.stderr  # a timeout (the default, 30 s, would let it succeed)
    assert "timed out" in result.stderr.lower()
    assert time.monotonic() - started < 2.5


@pytest.mark.parametrize("where", ["before", "after"])
def test_retries_option_and_verbose_log(library_path, sandbox, where):
    options = ["-v", "--retries", "1"]
    command = ["call", "flickr.test.echo", f"sandbox_fault={fault('http503', 5)}"]
    result = run(sandbox, *(options + command if where == "before" else command + options))
    assert result.returncode == 4, result.stderr
    lines = result.stderr.splitlines()
    assert len([line for line in lines if line.startswith("flickr: retry ")]) == 1  # not the default 3
    assert any("flickr.test.echo GET " in line and "HTTP 503" in line and "1 retries" in line for line in lines)
    retried = run(sandbox, "--retries", "2", "call", "flickr.test.echo", "x=1", f"sandbox_fault={fault('http503', 2)}")
    assert retried.returncode == 0, retried.stderr
    assert json.loads(retried.stdout)["x"]["_text"] == "1"


def test_verbose_logs_requests_without_secrets(library_path, sandbox):
    quiet = run(sandbox, "call", "flickr.test.echo", "x=1")
    assert quiet.returncode == 0 and quiet.stderr == ""
    for argv in (["-v", "call", "flickr.test.echo", "x=1"], ["call", "flickr.test.echo", "x=1", "--verbose"]):
        result = run(sandbox, *argv)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["x"]["_text"] == "1"
        (line,) = result.stderr.splitlines()
        assert line.startswith("flickr: flickr.test.echo GET ") and "-> HTTP 200" in line
        assert sandbox.api_secret not in line and sandbox.oauth_token_secret not in line


@pytest.mark.parametrize("command", [["call"], ["upload"], ["replace"], ["download"], ["walk"], ["auth", "login"],
                                     ["auth", "status"], ["auth", "logout"], []])
def test_every_command_takes_the_global_options(library_path, sandbox, command):
    usage = run(sandbox, *command, "--help").stdout
    assert "--retries N" in usage and "-v, --verbose" in usage
    # auth login's own --timeout is the wait for the browser; the request limit goes before the command.
    assert "--timeout SECONDS" in usage
    parsed = run(sandbox, "--timeout", "5", "--retries", "0", "-v", *command, "--help")
    assert parsed.returncode == 0


@pytest.mark.parametrize("argv", [["--timeout", "-1"], ["--timeout", "nan"], ["--timeout", "x"],
                                  ["--retries", "11"], ["--retries", "-1"], ["--retries", "two"]])
def test_bad_global_option_values_are_usage_errors(library_path, sandbox, argv):
    result = run(sandbox, *argv, "call", "flickr.test.echo")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


# -- hostile text, interrupts ---------------------------------------------------------------------


RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")  # anything but the newline ending a line

HOSTILE_ANSWERS = {
    # path: (status, content type, body)
    "/page": (500, "text/html", b"<html><body>\x1b[2J\x07Server \x1b]0;pwned\x07error\x9b2J</body></html>"),
    "/oauth": (401, "text/plain", b"oauth_problem=\x1b[2J\x07signature_invalid"),
    "/fail": (200, "text/xml", '<?xml version="1.0" encoding="utf-8"?><rsp stat="fail">'
              '<err code="99" msg="bad \u009b2J \x7f thing"/></rsp>'.encode()),
    "/ok": (200, "text/xml", '<?xml version="1.0" encoding="utf-8"?><rsp stat="ok">'
            '<title>\u009b2J\x7f\u0085 café</title></rsp>'.encode()),
}


class HostileHandler(http.server.BaseHTTPRequestHandler):
    """Answers every request from the table above, by the first part of the path."""

    def do_GET(self):
        status, content_type, body = HOSTILE_ANSWERS["/" + self.path.split("/")[1].split("?")[0]]
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET

    def log_message(self, *args):
        pass


@pytest.fixture
def hostile_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), HostileHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("path, exit_code", [("/page", 4), ("/oauth", 5), ("/fail", 3)])
def test_hostile_error_text_is_escaped(library_path, sandbox, hostile_server, path, exit_code):
    result = run(sandbox, "call", "flickr.test.echo", "--retries", "0", "-v",
                 env_extra={"FLICKR_ENDPOINT": hostile_server + path})
    assert result.returncode == exit_code, result.stderr
    assert result.stderr.endswith("\n") and "2J" in result.stderr  # reported, but inert
    assert not RAW_CONTROL.search(result.stderr), repr(result.stderr)
    assert "\x1b" not in result.stdout + result.stderr and "\x07" not in result.stdout + result.stderr


def test_hostile_answer_text_is_escaped_in_json(library_path, sandbox, hostile_server):
    result = run(sandbox, "call", "flickr.test.echo", env_extra={"FLICKR_ENDPOINT": hostile_server + "/ok"})
    assert result.returncode == 0, result.stderr
    assert not RAW_CONTROL.search(result.stdout.replace("\n", "")), repr(result.stdout)
    assert json.loads(result.stdout)["title"]["_text"] == "\u009b2J\x7f\u0085 café"  # the same JSON value


def test_control_characters_in_cli_messages_are_escaped(library_path, sandbox):
    result = run(sandbox, "upload", "/nonexistent/\x1b[2J\x07evil\u009b.jpg")
    assert result.returncode == 2
    assert "no such file" in result.stderr and "\\x1b[2J\\x07evil\\x9b.jpg" in result.stderr
    assert not RAW_CONTROL.search(result.stderr), repr(result.stderr)


def test_terminal_safe_escapes_c0_del_c1():
    from flickr_apps.cli.common import terminal_safe

    assert terminal_safe("a\x1b[2J\x07b") == "a\\x1b[2J\\x07b"
    assert terminal_safe("\x00\t\n\r\x7f\x80\x9b\x9f") == "\\x00\\x09\\x0a\\x0d\\x7f\\x80\\x9b\\x9f"
    assert terminal_safe("café ✓ 日本語 \xa0 😀") == "café ✓ 日本語 \xa0 😀"


class StallingHandler(http.server.BaseHTTPRequestHandler):
    """Tells the test a request arrived, then answers slowly."""

    arrived = threading.Event()

    def do_GET(self):
        StallingHandler.arrived.set()
        time.sleep(2)
        body = b'<?xml version="1.0" encoding="utf-8"?><rsp stat="ok"></rsp>'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_interrupt_exits_130_with_one_line(library_path, sandbox):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), StallingHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    StallingHandler.arrived.clear()
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLICKR_") or k == "FLICKR_LIBRARY"}
    env.update(PYTHONPATH=CLIENT_PATH, FLICKR_API_KEY=sandbox.api_key, FLICKR_TOKEN_STORE=os.devnull + ".none",
               FLICKR_ENDPOINT=f"http://127.0.0.1:{server.server_address[1]}")
    # SIGINT as a terminal delivers it, even when this run inherited it ignored (started in the background).
    process = subprocess.Popen([sys.executable, "-m", "flickr", "call", "flickr.test.echo"], env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert StallingHandler.arrived.wait(30), "the CLI never called"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
        server.shutdown()
        server.server_close()
    assert process.returncode == 130
    assert err == "flickr: interrupted\n"
    assert out == ""
