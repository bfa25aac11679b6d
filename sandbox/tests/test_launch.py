# SPDX-License-Identifier: MIT
"""flickr_sandbox.launch and settings: one way to start a sandbox and hand its settings over."""
import json
import os
import subprocess
import sys
import urllib.request

import pytest

from flickr_sandbox import Sandbox, SandboxProcess, SandboxStartError, Settings
from flickr_sandbox import constants as C

SETTINGS = Settings("http://127.0.0.1:8", C.API_KEY, C.API_SECRET, C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET,
                    C.AUTH_TOKEN, "/tmp/state")


def test_the_lines_for_people_are_unchanged():
    assert SETTINGS.lines() == [
        "http://127.0.0.1:8", f"api_key={C.API_KEY}", f"api_secret={C.API_SECRET}", f"oauth_token={C.OAUTH_TOKEN}",
        f"oauth_token_secret={C.OAUTH_TOKEN_SECRET}", f"auth_token={C.AUTH_TOKEN}", "data_dir=/tmp/state"]
    with_tls = Settings(**{**vars(SETTINGS), "ca_file": "/tmp/state/tls/ca.pem"})
    assert with_tls.lines()[-1] == "ca_file=/tmp/state/tls/ca.pem"


def test_json_round_trip_and_refusals():
    assert Settings.from_json(SETTINGS.to_json()) == SETTINGS
    assert "\n" not in SETTINGS.to_json()
    newer = json.dumps({**json.loads(SETTINGS.to_json()), "added_later": 1})
    assert Settings.from_json(newer) == SETTINGS  # names a later version adds are ignored
    for bad in ("[]", '{"url": "http://x"}', "http://127.0.0.1:8"):
        with pytest.raises(ValueError):
            Settings.from_json(bad)


def test_environments():
    assert SETTINGS.client_environment() == {
        "FLICKR_ENDPOINT": SETTINGS.url, "FLICKR_API_KEY": C.API_KEY, "FLICKR_API_SECRET": C.API_SECRET,
        "FLICKR_OAUTH_TOKEN": C.OAUTH_TOKEN, "FLICKR_OAUTH_TOKEN_SECRET": C.OAUTH_TOKEN_SECRET}
    assert "FLICKR_OAUTH_TOKEN" not in SETTINGS.client_environment(token=False)
    env = SETTINGS.sandbox_environment()
    assert env["FLICKR_SANDBOX_URL"] == SETTINGS.url and env["FLICKR_SANDBOX_AUTH_TOKEN"] == C.AUTH_TOKEN
    assert "FLICKR_SANDBOX_CA_FILE" not in env


def test_a_process_hands_its_settings_over_and_stops_cleanly():
    with SandboxProcess() as sandbox:
        assert sandbox.settings == Settings(sandbox.url, C.API_KEY, C.API_SECRET, C.OAUTH_TOKEN,
                                            C.OAUTH_TOKEN_SECRET, C.AUTH_TOKEN, sandbox.data_dir)
        with urllib.request.urlopen(f"{sandbox.url}/services/rest/?method=flickr.test.echo&api_key="
                                    f"{sandbox.api_key}", timeout=10) as reply:
            assert b'<rsp stat="ok">' in reply.read()
        assert os.path.isdir(sandbox.data_dir)
    assert sandbox.process.returncode == 0
    assert not os.path.exists(sandbox.data_dir)  # its temporary state is gone
    assert sandbox.stop() == 0  # stopping twice is harmless


def test_options_and_environment_reach_the_child(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # launch finds the package itself
    with SandboxProcess("--tls", "--data", str(tmp_path), env=env) as sandbox:
        assert sandbox.url.startswith("https://") and sandbox.data_dir == str(tmp_path)
        assert sandbox.ca_file == str(tmp_path / "tls" / "ca.pem") and os.path.exists(sandbox.ca_file)
    assert (tmp_path / "sandbox.sqlite3").exists()  # --data is kept


def test_a_child_that_fails_is_reported(tmp_path):
    with pytest.raises(SandboxStartError, match="exited \\(status 2\\)"):
        SandboxProcess("--latency-ms", "soon", stderr=subprocess.DEVNULL)  # argparse refuses it
    with pytest.raises(SandboxStartError, match="printed '-m flickr_sandbox --print-settings json"):
        SandboxProcess(python="/bin/echo")  # says something else
    silent = tmp_path / "silent"
    silent.write_text("#!/bin/sh\nexec sleep 60\n")
    silent.chmod(0o755)
    with pytest.raises(SandboxStartError, match="no settings within 0.5 s"):
        SandboxProcess(python=str(silent), timeout=0.5)  # and is stopped


def test_the_in_process_sandbox_has_the_same_settings():
    with Sandbox() as sb:
        assert sb.settings == Settings(sb.url, C.API_KEY, C.API_SECRET, C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET,
                                       C.AUTH_TOKEN, sb.data_dir)
        assert (sb.api_key, sb.ca_file) == (C.API_KEY, None)


def test_start_inside_with_serves_once_and_stops():
    """`with Sandbox() as s: s.start()` used to run two serving threads, one of which outlived
    stop() (which then hung joining it): run on a thread so that a hang fails instead."""
    import threading
    before = threading.active_count()
    seen: list = []

    def serve_twice() -> None:
        with Sandbox() as sandbox:
            seen.append(sandbox.start() is sandbox)
            with urllib.request.urlopen(sandbox.url + "/services/rest/?method=flickr.test.echo&api_key="
                                        + C.API_KEY, timeout=10) as answer:
                seen.append(answer.status)
        seen.append(sandbox)

    runner = threading.Thread(target=serve_twice, daemon=True)
    runner.start()
    runner.join(timeout=30)
    assert not runner.is_alive(), "stop() hung after a second start()"
    assert seen[:2] == [True, 200]
    assert threading.active_count() == before
    with pytest.raises(RuntimeError, match="has stopped"):
        seen[2].start()
