# SPDX-License-Identifier: MIT
"""`flickr sandbox ...`: the same as `python -m flickr_sandbox ...`.

The sandbox is a distribution of its own (flickr-sandbox, sandbox/ in the checkout): the client
imports it only here, when the command runs, and says how to install it when it is missing.
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .common import EXIT_USAGE, CLIError

if TYPE_CHECKING:
    from .common import Subparsers

NOT_INSTALLED = "the sandbox is a separate package: pip install flickr-sandbox (from a checkout: pip install ./sandbox)"


def add_parser(subparsers: Subparsers) -> None:
    # No arguments of its own: everything after "sandbox" (--help too) is left over by the parse and
    # handed to the sandbox's command line (argparse's REMAINDER would refuse a leading --option).
    parser = subparsers.add_parser("sandbox", help="run the local Flickr-compatible sandbox server",
                                   description="Run the sandbox; options as for python -m flickr_sandbox.",
                                   add_help=False)
    parser.set_defaults(handler=run, takes_rest=True, completed_by=sandbox_parser)


def sandbox_parser() -> argparse.ArgumentParser | None:
    """The sandbox's own parser, which completion reads for the words after "sandbox"; None when
    the sandbox is not installed."""
    try:
        from flickr_sandbox.__main__ import build_parser
    except ImportError:
        return None
    parser: argparse.ArgumentParser = build_parser()
    return parser


def main(argv: list[str]) -> int:
    try:
        # Not a dependency of the client (pyproject.toml lets mypy check without it).
        from flickr_sandbox.__main__ import main as sandbox_main
    except ModuleNotFoundError as error:
        if error.name != "flickr_sandbox":
            raise  # installed but broken: a bug to report, not an install to suggest
        raise CLIError(NOT_INSTALLED, EXIT_USAGE) from None
    return sandbox_main(argv, prog="flickr sandbox") or 0


def run(args: argparse.Namespace) -> int:
    return main(args.rest)
