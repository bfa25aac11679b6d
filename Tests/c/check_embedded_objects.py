#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when the Embedded Swift objects of libflickr.so call swift_deallocPartialClassInstance.

Swift calls it when a class's designated initializer throws (or fails) after the object is
allocated. Embedded Swift's runtime (6.3) destroys the fields there but never frees the object:
a leak per failed call. The sources throw from convenience initializers instead, before the
object exists (Sources/FlickrCore/Support/EmbeddedPlatform.swift); this check keeps it so.

    check_embedded_objects.py OBJECT...
"""
import re
import subprocess
import sys


def callers(path):
    """The functions of `path` that reference swift_deallocPartialClassInstance."""
    listing = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", path],
                             capture_output=True, text=True, check=True).stdout
    found, function = [], None
    for line in listing.splitlines():
        header = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if header:
            function = header.group(1)
        elif re.search(r"R_X86_64_\w+\s+swift_deallocPartialClassInstance\b", line) \
                or re.search(r"\bcall\s+\S*\s*<swift_deallocPartialClassInstance>", line):
            if function != "swift_deallocPartialClassInstance":
                found.append(function)
    return found


def main():
    objects = sys.argv[1:]
    if not objects:
        print(__doc__)
        return 2
    bad = {path: callers(path) for path in objects}
    count = sum(len(v) for v in bad.values())
    for path, functions in bad.items():
        for function in sorted(set(functions)):
            demangled = subprocess.run(["swift", "demangle", "--compact", function],
                                       capture_output=True, text=True).stdout.strip() or function
            print(f"{path}: {demangled} can throw out of a class initializer after allocating")
    print(f"{len(objects)} objects checked, {count} partial-instance deallocations")
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
