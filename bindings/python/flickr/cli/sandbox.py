# SPDX-License-Identifier: MIT
"""`flickr sandbox ...`: the same as `python -m flickr.sandbox ...`."""
from __future__ import annotations


def add_parser(subparsers) -> None:
    # No arguments of its own: everything after "sandbox" (--help too) is left over by the parse and
    # handed to the sandbox's command line (argparse's REMAINDER would refuse a leading --option).
    parser = subparsers.add_parser("sandbox", help="run the local Flickr-compatible sandbox server",
                                   description="Run the sandbox; options as for python -m flickr.sandbox.",
                                   add_help=False)
    parser.set_defaults(handler=run, takes_rest=True)


def main(argv: list[str]) -> int:
    from ..sandbox.__main__ import main as sandbox_main

    return sandbox_main(argv) or 0


def run(args) -> int:
    return main(args.rest)
