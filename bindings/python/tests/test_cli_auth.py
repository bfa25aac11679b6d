# SPDX-License-Identifier: MIT
"""`flickr auth login|status|logout` and stored tokens in the other commands, as a user runs them."""
import json
import os
import re
import stat
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from libtest import CLIENT_PATH


@pytest.fixture
def env(library_path, sandbox, tmp_path):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("FLICKR_")}
    environment.update(PYTHONPATH=CLIENT_PATH, FLICKR_LIBRARY=str(library_path),
                       FLICKR_API_KEY=sandbox.api_key, FLICKR_API_SECRET=sandbox.api_secret,
                       FLICKR_ENDPOINT=sandbox.url, XDG_CONFIG_HOME=str(tmp_path / "config"),
                       HOME=str(tmp_path / "home"), BROWSER="")
    return environment


def flickr_cli(env, *args, stdin=None):
    return subprocess.run([sys.executable, "-m", "flickr", *args], env=env, input=stdin, capture_output=True,
                          text=True, timeout=60)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def login(env, *args, user=None, mode="oob"):
    """Runs `flickr auth login`, playing the user: reads the authorize URL it prints, approves it
    and answers (the code for --oob; the loopback callback otherwise)."""
    command = [sys.executable, "-m", "flickr", "auth", "login", *args]
    if mode == "oob":
        command.append("--oob")
    else:
        command += ["--no-browser", "--timeout", "20"]
    process = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    url = None
    for line in process.stdout:
        if "/services/oauth/authorize?" in line:
            url = line.strip() + (f"&sandbox_user={user}" if user else "")
            break
    assert url, process.stderr.read()
    if mode == "oob":
        with urllib.request.build_opener(_NoRedirect).open(url, timeout=20) as page:
            code = re.search(r'id="verifier"[^>]*>([^<]+)<', page.read().decode()).group(1)
        process.stdin.write(code + "\n")
        process.stdin.flush()
    else:
        urllib.request.urlopen(url, timeout=20).read()  # the redirect reaches the CLI's loopback server
    out, err = process.communicate(timeout=60)
    return process.returncode, out, err


def store_path(env):
    return os.path.join(env["XDG_CONFIG_HOME"], "flickr", "tokens.json")


def test_login_status_call_logout(env):
    code, out, err = login(env, "--perms", "write")
    assert code == 0, err
    assert "Logged in as sandbox (12037949@N00) with write permission" in out
    assert stat.S_IMODE(os.stat(store_path(env)).st_mode) == 0o600

    status = flickr_cli(env, "auth", "status")
    assert status.returncode == 0, status.stderr
    assert "* sandbox (12037949@N00) perms=write" in status.stdout
    assert "Token valid: sandbox (12037949@N00), perms write" in status.stdout

    # Other commands pick the stored token up.
    answer = flickr_cli(env, "call", "flickr.test.login")
    assert answer.returncode == 0, answer.stderr
    assert json.loads(answer.stdout)["user"]["id"] == "12037949@N00"
    assert json.loads(flickr_cli(env, "call", "flickr.test.echo").stdout)["api_auth_is_oauth"]["_text"] == "1"

    logout = flickr_cli(env, "auth", "logout")
    assert logout.returncode == 0 and "Forgot the login of sandbox" in logout.stdout
    assert flickr_cli(env, "auth", "status").returncode == 5
    unsigned = flickr_cli(env, "call", "flickr.test.echo")
    assert "api_auth_is_oauth" not in json.loads(unsigned.stdout)


def test_browser_login_and_several_users(env):
    code, out, err = login(env, mode="browser")
    assert code == 0, err
    assert "Logged in as sandbox" in out
    code, out, err = login(env, "--perms", "delete", user="marie")
    assert code == 0, err
    assert "Logged in as marie (48600090482@N01) with delete permission" in out

    status = flickr_cli(env, "auth", "status", "--offline")
    assert "* marie (48600090482@N01) perms=delete" in status.stdout
    assert "  sandbox (12037949@N00) perms=read" in status.stdout
    who = lambda *args: json.loads(flickr_cli(env, "call", "flickr.test.login", *args).stdout)["user"]["id"]
    assert who() == "48600090482@N01"
    assert who("--user", "sandbox") == "12037949@N00"
    assert who("--user", "12037949@N00") == "12037949@N00"
    assert json.loads(flickr_cli(dict(env, FLICKR_USER="sandbox"), "call", "flickr.test.login").stdout)[
        "user"]["id"] == "12037949@N00"
    missing = flickr_cli(env, "call", "flickr.test.login", "--user", "nobody")
    assert missing.returncode == 5 and "no stored login for user 'nobody'" in missing.stderr

    # Flags and environment tokens win over the store.
    explicit = flickr_cli(dict(env, FLICKR_OAUTH_TOKEN="72157600000000001-5a1d6b0c0f1e2d3c",
                               FLICKR_OAUTH_TOKEN_SECRET="0a1b2c3d4e5f6a7b"), "call", "flickr.test.login")
    assert json.loads(explicit.stdout)["user"]["id"] == "12037949@N00"

    assert flickr_cli(env, "auth", "logout", "--user", "marie").returncode == 0
    assert who() == "12037949@N00"
    assert flickr_cli(env, "auth", "logout", "--all").returncode == 0
    assert flickr_cli(env, "auth", "status").returncode == 5


def test_status_reports_a_dead_token(env):
    os.makedirs(os.path.dirname(store_path(env)))
    with open(store_path(env), "w") as f:
        json.dump({"format": 1, "tokens": [{"api_key": env["FLICKR_API_KEY"], "oauth_token": "72157699999-00",
                                            "oauth_token_secret": "0000", "user_nsid": "1@N00", "username": "gone",
                                            "saved_at": 1}]}, f)
    status = flickr_cli(env, "auth", "status")
    assert status.returncode == 5
    assert "no longer valid" in status.stdout and "token_rejected" in status.stdout


def test_login_failures(env):
    # stdin stays open and silent (the input ending would end the login: test_cli_auth_paste.py).
    keyboard, silent = os.pipe()
    try:
        timed_out = subprocess.run([sys.executable, "-m", "flickr", "auth", "login", "--no-browser", "--timeout",
                                    "0.5"], env=env, stdin=keyboard, capture_output=True, text=True, timeout=60)
    finally:
        os.close(keyboard)
        os.close(silent)
    assert timed_out.returncode == 4 and "no authorization arrived" in timed_out.stderr
    assert not os.path.exists(store_path(env))
    wrong_code = flickr_cli(env, "auth", "login", "--oob", stdin="111-222-333\n")
    assert wrong_code.returncode == 5 and "verifier_invalid" in wrong_code.stderr
    no_secret = flickr_cli({k: v for k, v in env.items() if k != "FLICKR_API_SECRET"}, "auth", "login")
    assert no_secret.returncode == 2 and "API secret" in no_secret.stderr
    bad_perms = flickr_cli(env, "auth", "login", "--perms", "admin")
    assert bad_perms.returncode == 2
    damaged = dict(env)
    os.makedirs(os.path.dirname(store_path(env)), exist_ok=True)
    with open(store_path(env), "w") as f:
        f.write("garbage")
    call = flickr_cli(damaged, "call", "flickr.test.echo")
    assert call.returncode == 0 and "damaged" in call.stderr  # a warning, the call still runs


@pytest.mark.parametrize("stdin", ["empty", "devnull", "closed"])
def test_login_prompt_at_the_end_of_input(env, stdin):
    """Ctrl-D at the code prompt (or a stdin empty, /dev/null or closed) once ended in
    `unexpected error: EOFError` (closed: RuntimeError, lost sys.stdin): one line and exit 5 now,
    as for an empty code, and no token stored."""
    command = [sys.executable, "-m", "flickr", "auth", "login", "--oob"]
    if stdin == "closed":
        command = ["bash", "-c", 'exec 0<&- && exec "$@"', "bash", *command]
    given = {"input": ""} if stdin == "empty" else {"stdin": subprocess.DEVNULL}
    ran = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, **given)
    print(f"{stdin}: exit {ran.returncode}, stderr {ran.stderr!r}")
    assert "/services/oauth/authorize?" in ran.stdout  # the prompt was reached
    assert ran.returncode == 5
    assert ran.stderr == "flickr: no verification code was entered (the input ended)\n"
    assert not os.path.exists(store_path(env))
