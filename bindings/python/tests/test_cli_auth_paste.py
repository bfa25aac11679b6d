# SPDX-License-Identifier: MIT
"""`flickr auth login` on a machine without a browser (issue 41 §5): it printed the authorize URL
and waited for a loopback callback that a browser on another machine cannot send. Now, when no
browser is started, the code Flickr shows or the whole address the browser was sent to can be
pasted, while the loopback callback still counts if it comes first.

The test plays the user at a browser elsewhere: it opens the authorize URL the command prints
without following the sandbox's redirect (so the command's loopback server never hears of it),
and pastes what the browser would have shown."""
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

import pytest

from test_cli_auth import _NoRedirect, env, store_path  # noqa: F401 (env: the fixture)

NO_DISPLAY = ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")


def start_login(environment, *args):
    process = subprocess.Popen([sys.executable, "-m", "flickr", "auth", "login", "--timeout", "30", *args],
                               env=environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    printed, url = [], None
    # Line by line up to the last one before the wait: nothing is left in the reader's buffer.
    for line in iter(process.stdout.readline, ""):
        printed.append(line)
        if "/services/oauth/authorize?" in line:
            url = line.strip()
        if line.startswith("Waiting for the approval"):
            return process, url, "".join(printed)
    process.kill()
    raise AssertionError(f"no wait for the approval: {''.join(printed)}{process.stderr.read()}")


def redirect_of(url):
    """Where the sandbox sends the browser once the user approved: the callback address."""
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.build_opener(_NoRedirect).open(url, timeout=20)
    assert answer.value.code == 302
    return answer.value.headers["Location"]


def without_browser(environment, how):
    """The environment and flags of each way of having no browser."""
    environment = {k: v for k, v in environment.items() if k not in NO_DISPLAY}
    if how == "no-display":
        return environment, []
    if how == "browser-fails":  # `false` as the user's browser: it exits with 1, so it did not start
        return dict(environment, BROWSER="false"), []
    return dict(environment, BROWSER="true", DISPLAY=":99"), ["--no-browser"]


@pytest.mark.parametrize("how, paste", [("no-display", "address"), ("browser-fails", "code"),
                                        ("flag", "address"), ("flag", "code")])
def test_the_code_or_the_address_is_pasted(env, how, paste):
    environment, flags = without_browser(env, how)
    process, url, printed = start_login(environment, "--perms", "write", *flags)
    location = redirect_of(url)
    answer = location if paste == "address" else urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)[
        "oauth_verifier"][0]
    out, err = process.communicate(answer + "\n", timeout=60)
    out = printed + out
    print(f"{how}/{paste}: exit {process.returncode}\n{out}{err}")
    assert process.returncode == 0, err
    assert "paste here the code Flickr shows or the address the browser was sent to" in out
    if how != "flag":
        assert ("(no browser found" if how == "no-display" else "(could not start the browser") in out
    assert "Logged in as sandbox (12037949@N00) with write permission" in out
    assert os.path.exists(store_path(env))


def test_an_address_for_another_request_is_refused(env):
    environment, flags = without_browser(env, "flag")
    process, url, _ = start_login(environment, *flags)
    parts = urllib.parse.urlsplit(redirect_of(url))
    query = dict(urllib.parse.parse_qsl(parts.query), oauth_token="72157600000000099-0123456789abcdef")
    forged = urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))
    out, err = process.communicate(forged + "\n", timeout=60)
    print(f"exit {process.returncode}, stderr {err!r}")
    assert process.returncode == 5
    assert err == "flickr: the pasted URL is for another request token\n"
    assert not os.path.exists(store_path(env))


@pytest.mark.parametrize("stdin", ["empty", "empty-line", "devnull", "closed"])
def test_the_input_ending_ends_the_login(env, stdin):
    """Ctrl-D (or an empty, null or closed stdin) before any answer: one line, exit 5, as at the
    --oob prompt; an empty line says no code was entered."""
    environment, flags = without_browser(env, "no-display")
    command = [sys.executable, "-m", "flickr", "auth", "login", "--timeout", "30", *flags]
    if stdin == "closed":
        command = ["bash", "-c", 'exec 0<&- && exec "$@"', "bash", *command]
    given = {"stdin": subprocess.DEVNULL} if stdin in ("devnull", "closed") else {
        "input": "\n" if stdin == "empty-line" else ""}
    ran = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=60, **given)
    print(f"{stdin}: exit {ran.returncode}, stderr {ran.stderr!r}")
    assert "/services/oauth/authorize?" in ran.stdout and "paste here" in ran.stdout
    assert ran.returncode == 5
    ended = "" if stdin == "empty-line" else " (the input ended)"
    assert ran.stderr == f"flickr: no verification code was entered{ended}\n"
    assert not os.path.exists(store_path(env))


def test_the_callback_still_counts_while_nothing_is_pasted(env):
    """The loopback's redirect arrives first; the input ends only afterwards and changes nothing."""
    environment, flags = without_browser(env, "no-display")
    process, url, printed = start_login(environment, *flags)
    with urllib.request.urlopen(url, timeout=20) as page:  # follows the redirect to the loopback
        assert b"Approved" in page.read()
    out, err = process.communicate(timeout=60)  # closes stdin: the input ends now
    print(f"exit {process.returncode}, stderr {err!r}")
    assert process.returncode == 0, err
    assert "Logged in as sandbox" in out
