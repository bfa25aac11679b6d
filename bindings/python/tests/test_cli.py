# SPDX-License-Identifier: MIT
"""The `flickr` command line (python -m flickr) against the sandbox, as a user runs it."""
import json
import os
import subprocess
import sys

import pytest

from libtest import PACKAGE_DIR


def run(sandbox, *argv, token=True, env_extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLICKR_") or k == "FLICKR_LIBRARY"}
    env.update(PYTHONPATH=str(PACKAGE_DIR), FLICKR_API_KEY=sandbox.api_key, FLICKR_API_SECRET=sandbox.api_secret,
               FLICKR_ENDPOINT=sandbox.url, FLICKR_TOKEN_STORE=os.devnull + ".none")
    if token:
        env.update(FLICKR_OAUTH_TOKEN=sandbox.oauth_token, FLICKR_OAUTH_TOKEN_SECRET=sandbox.oauth_token_secret)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "flickr", *argv], capture_output=True, text=True, env=env,
                          timeout=120)


@pytest.fixture
def photo(tmp_path):
    path = tmp_path / "cli photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 400)
    return path


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


@pytest.mark.parametrize("command", ["call", "upload", "replace", "walk", "auth", "sandbox", None])
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
