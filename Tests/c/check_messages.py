#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Greps every error message the C test suite read (collected by message_log.c into
LOG) for the sandbox's shared secret and OAuth token secret, which the suite's contexts
hold. Fails when one appears, when the module was never loaded ("#loaded PROGRAM"
markers), or when test_boundary ran but fewer than MIN_MESSAGES messages were collected
(it alone reads over a thousand: fewer means the interposition is broken).

usage: check_messages.py LOG [MIN_MESSAGES]
"""
import pathlib
import sys

SECRETS = ("9c8b7a6f5e4d3c2b", "0a1b2c3d4e5f6a7b")  # the sandbox's api_secret and oauth_token_secret

log = pathlib.Path(sys.argv[1])
minimum = int(sys.argv[2]) if len(sys.argv) > 2 else 100
everything = log.read_text(errors="replace").splitlines() if log.exists() else []
programs = [line.split(" ", 1)[1] for line in everything if line.startswith("#loaded ")]
processes = len(programs)
lines = [line for line in everything if not line.startswith("#loaded ")]
leaks = [line for line in lines if any(secret in line for secret in SECRETS)]
for line in leaks[:20]:
    print(f"FAILED: a message holds a secret: {line}", file=sys.stderr)
too_few = processes == 0 or ("test_boundary" in programs and len(lines) < minimum)
if too_few:
    print(f"FAILED: {len(lines)} messages from {processes} processes (expected at least {minimum} "
          "when test_boundary runs): is message_log preloaded?", file=sys.stderr)
print(f"{len(lines)} messages ({len(set(lines))} distinct) from {processes} test processes checked "
      f"for {len(SECRETS)} secrets: {len(leaks)} hold one")
failed = len(leaks) + too_few
print(f"{0 if failed else 1} passed, {1 if failed else 0} failed")
sys.exit(1 if failed else 0)
