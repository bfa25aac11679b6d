#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when the stripped libflickr.so is larger than the limit (issue 34 §3: 900 KiB).

The size is `strip --strip-all` of a copy, as bench/run.py's footprint measures it. Registered for
Release builds in Embedded Swift only, where the size is the same on every build of one
toolchain; bench/NOTES.md (Change 22) says where the bytes went and how they were cut.

    check_library_size.py STRIP LIBRARY LIMIT_BYTES
"""
import os
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    strip, library, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with tempfile.TemporaryDirectory() as scratch:
        stripped = os.path.join(scratch, "libflickr.so")
        subprocess.run([strip, "--strip-all", "-o", stripped, library], check=True)
        size = os.path.getsize(stripped)
    print(f"stripped {os.path.basename(library)}: {size:,} bytes ({size / 1024:,.0f} KiB), "
          f"limit {limit:,} bytes ({limit / 1024:,.0f} KiB), {limit - size:,} bytes to spare")
    if size > limit:
        print("FAILED: the stripped library is over its limit; see bench/NOTES.md, Change 22, "
              "for what made it smaller", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
