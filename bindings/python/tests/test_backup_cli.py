# SPDX-License-Identifier: MIT
"""`flickr backup` as a command: JSON progress, --verify, two runs on one DIR, Ctrl-C, --user."""
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

import flickr.backup
from backuptest import (client, environ_without_flickr, jpeg, media_files, partial_files, run_cli, small_account,
                        start_cli, upload)
from flickr_apps.backup.lock import DirLock
from flickr_apps.backup.safedir import SafeDir
from libtest import PYTHONPATH, running_sandbox

ITEMS = 8


@pytest.fixture(scope="module")
def server(library_path):
    with running_sandbox("--latency-ms", "30") as server:
        with client(server) as api:
            small_account(api, ITEMS)
        yield server


def test_json_progress_and_verify(server, tmp_path):
    done = run_cli(server, "backup", str(tmp_path), "--progress", "json")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert events[-1]["event"] == "end" and events[-1]["report"]["ok"]
    assert [e["done"] for e in events if e["event"] == "item"] == list(range(1, ITEMS + 1))
    assert "backup of" in done.stderr and f"{ITEMS} files fetched" in done.stderr
    print(done.stderr)

    # --verify needs no credentials, no server: none is given.
    env = dict(environ_without_flickr(), PYTHONPATH=PYTHONPATH)
    verify = [sys.executable, "-m", "flickr", "backup", "--verify", str(tmp_path)]
    good = subprocess.run(verify, capture_output=True, text=True, env=env, timeout=60)
    assert good.returncode == 0 and "all match" in good.stderr, good.stderr
    # An option --verify would ignore is refused, before anything is read (before: --embedded-copies, --fill, --prune
    # were dropped in silence and the check ran, exit 0).
    for ignored in (["--embedded-copies"], ["--fill"], ["--prune", "--quick"]):
        refused = subprocess.run(verify + ignored, capture_output=True, text=True, env=env, timeout=60)
        assert refused.returncode == 2 and refused.stderr == (
            f"flickr: --verify checks the files already recorded in DIR, with no API call: {', '.join(ignored)} "
            "is for a backup run\n"), refused.stderr
    files = sorted(media_files(tmp_path).values())
    with open(files[0], "r+b") as truncated:
        truncated.truncate(100)
    files[1].with_name(files[1].name.rsplit(".", 1)[0] + ".json").unlink()
    bad = subprocess.run(verify, capture_output=True, text=True, env=env, timeout=60)
    print(bad.stderr)
    assert bad.returncode == 1
    assert f"changed: {files[0].relative_to(tmp_path)}" in bad.stderr
    assert f"missing: {files[1].relative_to(tmp_path).with_suffix('.json')}" in bad.stderr
    assert "1 missing, 1 changed" in bad.stderr
    # The next run makes both again (a stat of each recorded file finds them), and fetches only the one.
    again = run_cli(server, "backup", str(tmp_path), "--progress", "json")
    report = json.loads(again.stdout.splitlines()[-1])["report"]
    assert again.returncode == 0 and (report["fetched"], report["sidecars"]) == (1, 2), again.stderr
    assert flickr.backup.verify(tmp_path)["ok"] and files[0].read_bytes() == jpeg(0)


def test_a_second_run_refuses(server, tmp_path):
    with SafeDir.open_root(str(tmp_path)) as root, root.subdir(".flickr-backup") as state_dir:
        held = DirLock(state_dir)  # as a run in progress holds it
        try:
            refused = run_cli(server, "backup", str(tmp_path))
            with client(server) as api, pytest.raises(flickr.backup.BackupLocked):
                flickr.backup.run(api, tmp_path)
        finally:
            held.release()
    print(refused.stderr)
    assert refused.returncode == 1
    assert f"another backup is running on this directory (process {os.getpid()})" in refused.stderr
    assert not media_files(tmp_path)


def interrupt_at(server, event: str, *argv, env_extra=None):
    """Runs `flickr backup ARGV --progress json`, sends SIGINT once it reports `event`: (that event,
    the exit code, the seconds from SIGINT to exit, stderr)."""
    process = start_cli(server, "backup", *argv, "--progress", "json", env_extra=env_extra,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        seen = json.loads(next(line for line in process.stdout if f'"event": "{event}"' in line))
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=10)
        took = time.monotonic() - sent
        stderr = process.stderr.read()
    finally:
        process.kill()
        process.wait()
    print(f"stopped {took:.2f} s after SIGINT: {stderr.strip()}")
    return seen, code, took, stderr


@pytest.fixture
def slow_files(library_path):
    """A sandbox of ITEMS items whose every file takes a quarter of a second: a Ctrl-C sent after
    the first item lands mid-run even on a loaded machine (with the module's sandbox the whole run
    took 0.5 s, and once, right after the sandbox's own suite, it ended before the signal came)."""
    with running_sandbox("--latency-ms", "30", "--fault", "latency=250@/photos/") as server:
        with client(server) as api:
            small_account(api, ITEMS)
        yield server


def test_ctrl_c_stops_within_a_second_and_resumes(slow_files, tmp_path):
    server = slow_files
    first, code, took, stderr = interrupt_at(server, "item", str(tmp_path), "--concurrency", "1")
    assert first["done"] == 1
    assert code == 130 and took < 1.0, stderr
    assert "run the same command again to resume" in stderr and "Traceback" not in stderr
    before = len(media_files(tmp_path))
    assert 1 <= before < ITEMS and not partial_files(tmp_path)
    again = run_cli(server, "backup", str(tmp_path), "--progress", "json")
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout.splitlines()[-1])["report"]
    assert report["fetched"] == ITEMS - before  # nothing finished is fetched again
    assert len(media_files(tmp_path)) == ITEMS and flickr.backup.verify(tmp_path)["ok"]


def test_another_users_public_items(server, tmp_path):
    with client(server) as api:
        private = upload(api, jpeg(99), title="only mine", is_public=0)
        nsid = api.call("flickr.test.login")["user"]["id"]
    try:
        done = run_cli(server, "backup", str(tmp_path), "--user", nsid, env_extra={"FLICKR_OAUTH_TOKEN": "",
                                                                                  "FLICKR_OAUTH_TOKEN_SECRET": ""})
        print(done.stderr)
        assert done.returncode == 0, done.stderr
        found = media_files(tmp_path)
        assert len(found) == ITEMS and private not in found
    finally:
        with client(server) as api:
            api.call("flickr.photos.delete", photo_id=private)


def test_live_line_and_one_account_per_directory(server, tmp_path):
    done = run_cli(server, "backup", str(tmp_path), "--progress", "line")
    assert done.returncode == 0, done.stderr
    # Redrawn in place ("\r", then erase the line: the text mode read "\r" as a line end).
    assert f"\x1b[K{ITEMS} items listed" in done.stderr and f"\x1b[K{ITEMS}/{ITEMS} items" in done.stderr
    assert "ETA" in done.stderr
    other = run_cli(server, "backup", str(tmp_path), "--user", "otheruser")
    print(other.stderr)
    assert other.returncode == 1
    assert "holds the backup of 12037949@N00, not" in other.stderr and "use another directory" in other.stderr


def test_dir_that_is_not_a_folder(server, tmp_path):
    (tmp_path / "file").write_text("not a folder")
    done = run_cli(server, "backup", str(tmp_path / "file"))
    print(done.stderr)
    assert done.returncode == 1 and "Traceback" not in done.stderr and "unexpected" not in done.stderr
    assert f"{tmp_path / 'file'}: " in done.stderr


def test_over_the_keys_budget_it_waits_and_says_until_when(server, tmp_path):
    """--budget 5 (the key's calls an hour, in a budget file of this test's own): the run makes five
    calls, then waits for the hour to free a slot, saying when; Ctrl-C ends the wait at once."""
    waiting, code, took, stderr = interrupt_at(server, "wait", str(tmp_path / "backup"), "--budget", "5",
                                               env_extra={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    print(waiting)
    assert waiting["api_calls"] == 5 and 3500 < waiting["resume"] - time.time() <= 3600
    assert code == 130 and took < 1.0 and "Traceback" not in stderr


def test_a_wait_for_the_budget_is_said_on_stderr_when_piped(server, tmp_path):
    """Piped (cron, a log), no progress display: a backup waiting for the key's budget says so on
    stderr, until when and why, in hours, minutes and seconds (not "in 3599353 ms")."""
    process = start_cli(server, "backup", str(tmp_path / "backup"), "--budget", "5", stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True,
                        env_extra={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    lines: "queue.Queue[str]" = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stderr], daemon=True).start()
    try:
        said = []
        while not any("waiting until" in line for line in said):
            said.append(lines.get(timeout=60))  # queue.Empty, loudly, when the wait is never said
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=10)
    finally:
        process.kill()
        process.wait()
    waiting = said[-1].strip()
    print(f"{len(said)} lines on stderr before the wait was said: {waiting}; exit {code}")
    assert re.fullmatch(r"flickr: waiting until \d\d:\d\d:\d\d: the API key's budget .* a slot frees up in"
                        r" (59 min \d+ s|1 h 0 min)", waiting), waiting
    assert "--budget" in waiting or "budget_per_hour: 5" in waiting
    assert code == 130 and process.stdout.read() == ""
