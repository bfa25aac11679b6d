#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when a file of Sources/FlickrCore/Support/ names a type declared in another folder of
FlickrCore: Support is the leaf every folder may use (the clock, locks, saturating arithmetic),
so it depends on none of them (issue 41 §3; docs/architecture.md).

A type is a class, struct, enum, protocol, actor or typealias declared outside Support (a name
Support declares itself, such as a nested `State`, is Support's own). Comments and string
literals are left out before the search, so a comment may still say who calls Support.

usage: check_swift_layers.py SOURCES_DIR   (the repository's Sources/FlickrCore)
"""
import pathlib
import re
import sys

DECLARATION = re.compile(r"\b(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)")
# Block comments, line comments, and string literals (plain and multi-line), in source order.
NOT_CODE = re.compile(r'/\*.*?\*/|//[^\n]*|"""(?:\\.|[^\\])*?"""|"(?:\\.|[^"\\\n])*"', re.S)


def code(path):
    """The Swift source of `path` without its comments and string literals."""
    return NOT_CODE.sub(" ", path.read_text(encoding="utf-8"))


def declared(paths):
    return {name for path in paths for name in DECLARATION.findall(code(path))}


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    root = pathlib.Path(sys.argv[1])
    support = sorted((root / "Support").glob("*.swift"))
    others = sorted(p for p in root.rglob("*.swift") if (root / "Support") not in p.parents)
    if not support or not others:
        print(f"FAILED: no Swift files under {root}/Support or elsewhere in {root}", file=sys.stderr)
        return 1
    outside = declared(others) - declared(support)
    found = []
    for path in support:
        names = set(re.findall(r"\b[A-Za-z_]\w*\b", code(path)))
        found += [(path.name, name) for name in sorted(names & outside)]
    for file, name in found:
        print(f"FAILED: Support/{file} names {name}, declared outside Support/", file=sys.stderr)
    print(f"{len(support)} files of Support/ checked against {len(outside)} types of {len(others)} other"
          f" files: {len(found)} names from outside")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
