#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the built libflickr.so as users meet it: SONAME, self-contained
(no Swift runtime libraries needed at run time), and exports exactly the
functions declared in include/flickr/*.h."""
import pathlib
import re
import subprocess
import sys

lib, include = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAILED: {what}", file=sys.stderr)


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


dynamic = run("readelf", "-d", str(lib))
soname = re.search(r"\(SONAME\)\s+Library soname: \[(.+)\]", dynamic)
check(soname is not None and soname.group(1) == "libflickr.so.0", f"SONAME is libflickr.so.0, got {soname}")

needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+)\]", dynamic)
ldd = run("ldd", str(lib))
for forbidden in ("libswift", "libFoundation", "libdispatch", "libBlocksRuntime", "not found"):
    check(forbidden not in ldd, f"ldd must not list {forbidden}:\n{ldd}")
check(len(needed) > 0, "lists its system libraries")

header_text = "\n".join(p.read_text() for p in sorted(include.rglob("*.h")))
declared = set(re.findall(r"FLICKR_API\b[^;(]*?\b(flickr_\w+)\s*\(", header_text))
exported = set()
for line in run("nm", "-D", "--defined-only", str(lib)).splitlines():
    fields = line.split()
    if len(fields) == 3 and fields[1] != "A":  # "A" is the version node (FLICKR_0)
        exported.add(fields[2].split("@")[0])
check(len(declared) > 0, "found declarations in the header")
check(not (exported - declared), f"exported but not declared: {sorted(exported - declared)}")
check(not (declared - exported), f"declared but not exported: {sorted(declared - exported)}")
check(all(name.startswith("flickr_") for name in exported), "only flickr_* symbols are exported")

print(f"{len(exported)} exported symbols match the header's {len(declared)} declarations")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
