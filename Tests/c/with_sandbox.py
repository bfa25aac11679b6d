#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs a test program against a fresh sandbox: starts `python -m flickr.sandbox
--port 0` (with --tls for `--tls`), passes its URL and credentials to the program
in FLICKR_SANDBOX_* environment variables, and stops the sandbox afterwards.

usage: with_sandbox.py [--tls] PROGRAM [ARGS...]
"""
import os
import pathlib
import subprocess
import sys

repo = pathlib.Path(__file__).resolve().parents[2]
args = sys.argv[1:]
tls = args[:1] == ["--tls"]
if tls:
    args = args[1:]

env = dict(os.environ, PYTHONPATH=str(repo / "bindings" / "python"))
command = [sys.executable, "-m", "flickr.sandbox", "--port", "0"] + (["--tls"] if tls else [])
sandbox = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
try:
    lines = {}
    url = sandbox.stdout.readline().strip()
    if not url.startswith("http"):
        sys.exit(f"the sandbox did not start (first line: {url!r})")
    while True:
        line = sandbox.stdout.readline().strip()
        if not line or "=" not in line:
            break
        name, value = line.split("=", 1)
        lines[name] = value
        if name == "data_dir" and not tls or name == "ca_file":
            break
    env["FLICKR_SANDBOX_URL"] = url
    for name in ("api_key", "api_secret", "oauth_token", "oauth_token_secret", "auth_token", "ca_file"):
        if name in lines:
            env["FLICKR_SANDBOX_" + name.upper()] = lines[name]
    # The variables the examples (and the CLI) read, so they run against this sandbox.
    env["FLICKR_ENDPOINT"] = url
    for name in ("api_key", "api_secret", "oauth_token", "oauth_token_secret", "ca_file"):
        if name in lines:
            env["FLICKR_" + name.upper()] = lines[name]
    sys.exit(subprocess.run(args, env=env).returncode)
finally:
    sandbox.terminate()
    try:
        sandbox.wait(timeout=10)
    except subprocess.TimeoutExpired:
        sandbox.kill()
