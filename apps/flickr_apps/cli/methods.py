# SPDX-License-Identifier: MIT
"""`flickr methods [PATTERN]`, `flickr help METHOD`: the method catalogue (compiled into libflickr
from flickr.reflection) at the command line. Completion is in completion.py."""
from __future__ import annotations

import argparse
import difflib
import fnmatch
from typing import TYPE_CHECKING

from flickr.api import MethodInfo, method_info, methods
from .common import EXIT_USAGE, CLIError, add_global_options

if TYPE_CHECKING:
    from .common import Subparsers


def add_parser(subparsers: Subparsers) -> None:
    listing = subparsers.add_parser(
        "methods", help="list Flickr's methods",
        description="List the methods of libflickr's catalogue: name, verb and permission. PATTERN is a "
                    "substring or a shell pattern (flickr.photos.*); no credentials needed.")
    listing.add_argument("pattern", nargs="?", default="", help="e.g. search, or 'flickr.groups.*'")
    listing.add_argument("--names", action="store_true", help="print only the names (for scripts and completion)")
    add_global_options(listing)
    listing.set_defaults(handler=run_methods)

    helping = subparsers.add_parser(
        "help", help="describe a Flickr method",
        description="A method's arguments (required, optional), permission, verb and Flickr documentation page.")
    helping.add_argument("method", help="e.g. flickr.photos.search (the flickr. prefix may be left out)")
    helping.add_argument("--arguments", action="store_true",
                         help="print only the argument names, one per line (for completion)")
    add_global_options(helping)
    helping.set_defaults(handler=run_help)


def matches(pattern: str) -> list[MethodInfo]:
    """The catalogue's methods whose name contains `pattern`, or matches it as a shell pattern."""
    found = methods().values()
    if not pattern:
        return list(found)
    if any(c in pattern for c in "*?["):
        return [m for m in found if fnmatch.fnmatchcase(m.name, pattern)]
    lowered = pattern.lower()
    return [m for m in found if lowered in m.name.lower()]


def run_methods(args: argparse.Namespace) -> int:
    found = matches(args.pattern)
    if not found:
        raise CLIError(f"no method of the catalogue matches {args.pattern!r}", EXIT_USAGE)
    width = max(len(m.name) for m in found)
    for m in found:
        print(m.name if args.names else f"{m.name:<{width}}  {m.verb:<4}  {m.permission}")
    return 0


def lookup(name: str) -> MethodInfo:
    info = method_info(name) or method_info("flickr." + name)
    if info is None:
        close = difflib.get_close_matches(name if name.startswith("flickr.") else "flickr." + name,
                                          list(methods()), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else " (flickr methods PATTERN lists them)"
        raise CLIError(f"{name} is not in libflickr's method catalogue{hint}", EXIT_USAGE)
    return info


def run_help(args: argparse.Namespace) -> int:
    info = lookup(args.method)
    if args.arguments:
        for name in info.required + info.optional:
            print(name)
        return 0
    print(info.name)
    print(f"  permission: {info.permission}   verb: {info.verb}")
    print(f"  required:   {', '.join(info.required) or '-'}")
    print(f"  optional:   {', '.join(info.optional) or '-'}")
    print(f"  docs:       {info.doc_url}")
    print(f"  call:       flickr call {info.name}" + "".join(f" {a}=..." for a in info.required))
    return 0
