#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when a function declared with FLICKR_API in include/flickr/*.h has no
BOUNDARY(name) section in test_boundary.c, or is never called there: a new
function cannot join the header without boundary checks.

usage: check_boundary_coverage.py INCLUDE_DIR TEST_BOUNDARY_C
"""
import pathlib
import re
import sys

include, test = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
header_text = "\n".join(p.read_text() for p in sorted(include.rglob("*.h")))
declared = sorted(set(re.findall(r"FLICKR_API\b[^;(]*?\b(flickr_\w+)\s*\(", header_text)))
source = test.read_text()
sections = set(re.findall(r"^\s*BOUNDARY\((flickr_\w+)\)", source, re.M))
# Calls, not counting the BOUNDARY markers themselves.
calls = set(re.findall(r"\b(flickr_\w+)\s*\(", re.sub(r"BOUNDARY\(flickr_\w+\)", "", source)))

missing_section = [name for name in declared if name not in sections]
never_called = [name for name in declared if name not in calls]
stale = sorted(sections - set(declared))
for name in missing_section:
    print(f"FAILED: {name} has no BOUNDARY({name}) section in {test.name}", file=sys.stderr)
for name in never_called:
    print(f"FAILED: {name} is never called in {test.name}", file=sys.stderr)
for name in stale:
    print(f"FAILED: BOUNDARY({name}) names no function of the headers", file=sys.stderr)
failed = len(missing_section) + len(never_called) + len(stale)
print(f"{len(declared)} declared functions, {len(sections & set(declared))} with boundary sections")
print(f"{len(declared) * 2 - len(missing_section) - len(never_called)} passed, {failed} failed")
sys.exit(1 if failed else 0)
