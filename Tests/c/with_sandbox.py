#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs a test program against a fresh sandbox: starts `python -m flickr_sandbox
--port 0` (with --tls for `--tls`, --seed-photos N for `--seed-photos N`) through flickr_sandbox.launch, passes its URL and
credentials to the program in FLICKR_SANDBOX_* environment variables (and in the
FLICKR_* ones the examples and the CLI read), and stops the sandbox afterwards.

usage: with_sandbox.py [--tls] [--seed-photos N] PROGRAM [ARGS...]
"""
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "sandbox"))
from flickr_sandbox import SandboxProcess, SandboxStartError  # noqa: E402

args = sys.argv[1:]
options = []
while args[:1] in (["--tls"], ["--seed-photos"]):
    taken = 1 if args[0] == "--tls" else 2
    options += args[:taken]
    args = args[taken:]

try:
    sandbox = SandboxProcess(*options)
except SandboxStartError as err:
    sys.exit(f"the sandbox did not start: {err}")
with sandbox:
    env = dict(os.environ, **sandbox.settings.sandbox_environment())
    # The variables the examples (and the CLI) read, so they run against this sandbox.
    env.update(sandbox.settings.client_environment())
    sys.exit(subprocess.run(args, env=env).returncode)
