# SPDX-License-Identifier: MIT
"""The `flickr` command line (also `python -m flickr`).

Each subcommand lives in its own module with `add_parser(subparsers)`, which
registers it and sets `handler`. Exit codes tell failures apart:
0 success, 1 other failure, 2 usage error, 3 Flickr API error (stat="fail"),
4 network, timeout, TLS or HTTP failure, 5 authentication needed or refused,
6 libflickr could not be loaded, 7 the disk is full (`flickr backup`, `flickr lifeboat`: nothing was lost; free
some space and run it again), 130 interrupted (Ctrl-C), 141 stdout closed early (a closed
pipe, as in `flickr walk ... | head`: the output stops quietly, as a C tool's would on SIGPIPE).
Messages go to stderr, one line each, with control characters escaped; no traceback reaches
the terminal (an unexpected error is one line too, with its traceback only under -v).
"""
from __future__ import annotations

import argparse
import os
import sys
import traceback

from flickr import errors
from . import auth, backup, call, completion, download, harvest, lifeboat, methods, sandbox, upload, walk
from .common import (EXIT_API, EXIT_AUTH, EXIT_BROKEN_PIPE, EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_NETWORK,
                     EXIT_USAGE, CLIError, IntermixedParser, add_global_options, configure_logging, error_text,
                     print_error)

COMMANDS = [call, upload, download, walk, harvest, backup, lifeboat, auth, sandbox, methods, completion]


def build_parser() -> argparse.ArgumentParser:
    parser = IntermixedParser(
        prog="flickr",
        description="Call the Flickr API from the command line (libflickr).",
        epilog="Credentials: --api-key/--api-secret, else FLICKR_API_KEY/FLICKR_API_SECRET. "
        "--endpoint points every service at another base URL (e.g. a sandbox: flickr sandbox). "
        "--timeout, --retries, --budget and -v go before or after the command; a command's options may stand "
        "anywhere after it.",
    )
    add_global_options(parser, command=False)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for module in COMMANDS:
        module.add_parser(subparsers)
    return parser


def _exit_code(error: errors.FlickrError) -> int:
    if isinstance(error, errors.APIError):
        return EXIT_API
    if isinstance(error, errors.OAuthError):
        return EXIT_AUTH
    if isinstance(error, errors.TransportError):
        return EXIT_NETWORK
    if isinstance(error, errors.InvalidArgument):
        return EXIT_USAGE
    return EXIT_FAILURE


def main(argv: list[str] | None = None) -> int:
    try:
        code = _run(sys.argv[1:] if argv is None else list(argv))
        sys.stdout.flush()  # a closed pipe shows here, inside the try, not in the flush at exit
        return code
    except KeyboardInterrupt:
        # Ctrl-C anywhere, even while an error is being reported: one line, no traceback.
        print_error("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # Whoever read stdout has gone (`| head`): nothing to say to them. What is still buffered
        # goes to /dev/null, or Python's own flush at exit would fail again and print a warning.
        _discard_stdout()
        return EXIT_BROKEN_PIPE


def _discard_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (a replaced sys.stdout): nothing to redirect
        pass


def _run(argv: list[str]) -> int:
    parser = build_parser()
    if argv[:1] == [completion.COMPLETE]:  # a shell asking at a TAB: not a command to list in --help
        return completion.complete(parser, argv[1:])
    args, rest = parser.parse_known_args(argv)
    if rest and not getattr(args, "takes_rest", False):
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    args.rest = rest
    configure_logging(args.verbose)
    try:
        return args.handler(args) or 0
    except CLIError as error:
        print_error(str(error))
        return error.exit_code
    except errors.FlickrError as error:
        detail = f" (Flickr error {error.api_code})" if error.api_code else ""
        print_error(f"{error_text(error)}{detail}")
        return _exit_code(error)
    except BrokenPipeError:
        raise  # main's to handle, like KeyboardInterrupt (not an Exception)
    except EOFError:
        # A prompt met the end of its input (Ctrl-D, stdin closed): the user's answer, not a bug.
        print_error("the input ended before an answer was given")
        return EXIT_FAILURE
    except Exception as error:
        # A bug, or a failure nobody foresaw: one line for the user, the traceback for a report.
        if args.verbose:
            traceback.print_exc()
        print_error(f"unexpected error: {type(error).__name__}: {error} (-v shows where)")
        return EXIT_FAILURE
