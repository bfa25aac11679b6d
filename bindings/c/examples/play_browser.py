#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the oauth_login example against a fresh sandbox, playing the user and
the browser: reads the authorize URL the example prints, fetches it without
following the redirect, and writes the Location header (the callback URL) to
the example's stdin; with --oob, writes the verifier shown on the page instead.

usage: play_browser.py [--oob] EXAMPLE [ARGS...]
Exits with the example's status (1 when the browser step itself fails).
"""
import os
import pathlib
import re
import subprocess
import sys
import urllib.error
import urllib.request

REPO = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "sandbox"))
from flickr_sandbox import SandboxProcess, SandboxStartError  # noqa: E402


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # let the 302 surface as an HTTPError with its headers


def authorize(url: str, oob: bool) -> str:
    """What the user would paste back after approving at `url`."""
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(url, timeout=20) as page:
            status, location, body = page.status, None, page.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as answer:
        status, location, body = answer.code, answer.headers.get("Location"), answer.read().decode("utf-8", "replace")
    if oob:
        found = re.search(r'id="verifier"[^>]*>([^<]+)<', body)
        if status != 200 or not found:
            sys.exit(f"play_browser: no verifier on the authorize page (HTTP {status})")
        return found.group(1)
    if status not in (301, 302, 303, 307) or not location:
        sys.exit(f"play_browser: the authorize page did not redirect (HTTP {status})")
    return location


def main() -> int:
    args = sys.argv[1:]
    oob = args[:1] == ["--oob"]
    if oob:
        args = args[1:]
    try:
        sandbox = SandboxProcess()
    except SandboxStartError as err:
        sys.exit(f"play_browser: the sandbox did not start: {err}")
    with sandbox:
        base = sandbox.url
        # The example logs in itself: the sandbox's pre-authorised token is not handed over.
        env = dict(os.environ, **sandbox.settings.client_environment(token=False))
        example = subprocess.Popen(args + (["--oob"] if oob else []), stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True, env=env)
        url = None
        for line in example.stdout:
            print(line, end="")
            if line.startswith(base) and "/services/oauth/authorize?" in line:
                url = line.strip()
                break
        if url is None:
            example.kill()
            sys.exit("play_browser: the example printed no authorize URL")
        answer = authorize(url, oob)
        print(f"[browser] {answer}")
        example.stdin.write(answer + "\n")
        example.stdin.close()
        for line in example.stdout:
            print(line, end="")
        return example.wait(timeout=60)


if __name__ == "__main__":
    sys.exit(main())
