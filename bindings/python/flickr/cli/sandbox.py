# SPDX-License-Identifier: MIT
"""`flickr sandbox ...`: the same as `python -m flickr.sandbox ...`."""
from __future__ import annotations

import argparse


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("sandbox", help="run the local Flickr-compatible sandbox server",
                                   description="Run the sandbox; options as for python -m flickr.sandbox.",
                                   add_help=False)
    parser.add_argument("options", nargs=argparse.REMAINDER)
    parser.set_defaults(handler=run)


def main(argv: list[str]) -> int:
    from ..sandbox.__main__ import main as sandbox_main

    return sandbox_main(argv) or 0


def run(args) -> int:
    return main(args.options)
