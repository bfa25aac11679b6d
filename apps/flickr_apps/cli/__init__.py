# SPDX-License-Identifier: MIT
"""The `flickr` command line (also `python -m flickr`).

Each subcommand lives in its own module with `add_parser(subparsers)`, which
registers it and sets `handler`. Exit codes tell failures apart:
0 success, 1 other failure, 2 usage error, 3 Flickr API error (stat="fail"),
4 network, timeout, TLS or HTTP failure, 5 authentication needed or refused,
6 libflickr could not be loaded, 7 the disk is full (nothing was lost; free some space and run it again),
8 incomplete (a harvest, a `flickr backup --from-export` archive), 130 interrupted (Ctrl-C), 141 stdout closed early (a closed
pipe, as in `flickr walk ... | head`: the output stops quietly, as a C tool's would on SIGPIPE).
Messages go to stderr, one line each, with control characters escaped; no traceback reaches
the terminal (an unexpected error is one line too, with its traceback only under -v).
"""
from __future__ import annotations

import argparse
import errno
import os
import sys
import traceback

from flickr import errors
from . import auth, backup, call, completion, download, harvest, lifeboat, methods, sandbox, upload, walk
from .common import (EXIT_API, EXIT_AUTH, EXIT_BROKEN_PIPE, EXIT_FAILURE, EXIT_INCOMPLETE, EXIT_INTERRUPTED,
                     EXIT_NETWORK, EXIT_NO_SPACE, EXIT_USAGE, CLIError, IntermixedParser, add_global_options,
                     configure_logging, error_text, exit_codes_help, load_library, print_error)

COMMANDS = [call, upload, download, walk, harvest, backup, lifeboat, auth, sandbox, methods, completion]


def build_parser() -> argparse.ArgumentParser:
    parser = IntermixedParser(
        prog="flickr",
        description="Call the Flickr API from the command line (libflickr).",
        epilog="Credentials: --api-key/--api-secret, else FLICKR_API_KEY/FLICKR_API_SECRET. "
        "--endpoint points every service at another base URL (e.g. a sandbox: flickr sandbox). "
        "--timeout, --retries, --budget and -v go before or after the command; a command's options may stand "
        "anywhere after it. " + exit_codes_help(),
    )
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="print the binding's and the library's versions (exit 6 when the library cannot load)")
    add_global_options(parser, command=False)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for module in COMMANDS:
        module.add_parser(subparsers)
    _give_exit_codes(parser)
    return parser


class _Version(argparse.Action):
    """--version: the binding's version, then the library's, which loads it: an install's first check."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        import flickr

        print(f"flickr {flickr.__version__}")
        try:
            load_library()
        except CLIError as error:
            print_error(str(error))
            parser.exit(error.exit_code)
        print(f"libflickr {flickr.library_version()}")
        parser.exit()


def _give_exit_codes(parser: argparse.ArgumentParser) -> None:
    """Every command's --help lists its exit codes: those without a list of their own (harvest, backup and
    lifeboat have one) get the common list, less 8, which only those give. An action's parser too (auth login)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                if not command.epilog:
                    command.epilog = exit_codes_help(leave_out=(EXIT_INCOMPLETE,))
                _give_exit_codes(command)


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
        try:
            code = _run(sys.argv[1:] if argv is None else list(argv))
        except SystemExit:
            # argparse's --help (or a usage error) leaves: its text must reach stdout too, or say why not
            # (argparse itself ignores a failed write, and Python's flush at exit then exits 0: > /dev/full).
            sys.stdout.flush()
            raise
        sys.stdout.flush()  # a closed pipe or a full disk shows here, inside the try, not in the flush at exit
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
    except OSError as error:  # from a flush above: stdout cannot be written (> /dev/full)
        return _unwritable_stdout(error)


def _unwritable_stdout(error: OSError) -> int:
    """One line for output that cannot be written, and its exit code; the rest of the output is dropped
    (else Python's flush at exit fails again, with a warning and exit code 120)."""
    _discard_stdout()
    if error.errno == errno.ENOSPC:
        return _disk_full(error)
    print_error(f"cannot write the output: {error.strerror or error}")
    return EXIT_FAILURE


def _disk_full(error: OSError) -> int:
    print_error(f"the disk is full ({error.strerror}): free some space and run it again")
    return EXIT_NO_SPACE


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
        if isinstance(error, OSError) and error.errno == errno.ENOSPC:
            # A full disk (a file written, or stdout: > /dev/full) is no bug: say it, with its code.
            try:
                sys.stdout.flush()
            except OSError:
                _discard_stdout()
            return _disk_full(error)
        # A bug, or a failure nobody foresaw: one line for the user, the traceback for a report.
        if args.verbose:
            traceback.print_exc()
        print_error(f"unexpected error: {type(error).__name__}: {error} (-v shows where)")
        return EXIT_FAILURE
