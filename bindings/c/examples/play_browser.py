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
    env = dict(os.environ, PYTHONPATH=str(REPO / "bindings" / "python"))
    sandbox = subprocess.Popen([sys.executable, "-m", "flickr.sandbox", "--port", "0"],
                               stdout=subprocess.PIPE, text=True, env=env)
    try:
        base = sandbox.stdout.readline().strip()
        if not base.startswith("http"):
            sys.exit(f"play_browser: the sandbox did not start ({base!r})")
        info = {}
        while not {"api_key", "api_secret"} <= info.keys():
            name, _, value = sandbox.stdout.readline().strip().partition("=")
            if not name:
                break
            info[name] = value
        env.update(FLICKR_API_KEY=info["api_key"], FLICKR_API_SECRET=info["api_secret"], FLICKR_ENDPOINT=base)
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
    finally:
        sandbox.terminate()
        try:
            sandbox.wait(timeout=10)
        except subprocess.TimeoutExpired:
            sandbox.kill()


if __name__ == "__main__":
    sys.exit(main())
