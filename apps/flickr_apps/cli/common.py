# SPDX-License-Identifier: MIT
"""What the subcommands share: credentials, endpoints, transport and log options, errors, exit codes."""
from __future__ import annotations

import argparse
import json
import logging
import math
import os
import re
import sys
from typing import TYPE_CHECKING, Any, Optional, Sequence

from flickr.client import NUMBER_OPTION_DEFAULTS, NUMBER_OPTION_RANGES
from flickr.limits import CALLS_PER_HOUR

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from flickr.client import Flickr
    from flickr.tokens import StoredToken

    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

EXIT_FAILURE, EXIT_USAGE, EXIT_API, EXIT_NETWORK, EXIT_AUTH, EXIT_NO_LIBRARY = 1, 2, 3, 4, 5, 6
EXIT_NO_SPACE = 7  # the disk is full: nothing was lost; free some space and run the same command again
# A harvest that ended with items Flickr would not serve (docs/harvest.md); an archive made from an
# account export that lacks what its report lists (`flickr backup --from-export`, docs/export.md).
EXIT_INCOMPLETE = 8
EXIT_INTERRUPTED = 128 + 2  # 128 + SIGINT, as shells report it
EXIT_BROKEN_PIPE = 128 + 13  # 128 + SIGPIPE: what a C tool killed by the closed pipe reports

#: Every exit code of the `flickr` command, with what it means: `flickr --help` prints this list, a
#: command without a list of its own prints it less 8 (test_cli_exit_codes.py holds README.md and docs/ to it).
EXIT_CODES = {
    0: "success (the job's work is done; what is pending is said)",
    EXIT_FAILURE: "other failure",
    EXIT_USAGE: "usage error",
    EXIT_API: "Flickr API error",
    EXIT_NETWORK: "network, timeout, TLS or HTTP failure",
    EXIT_AUTH: "authentication needed or refused",
    EXIT_NO_LIBRARY: "libflickr could not be loaded",
    EXIT_NO_SPACE: "the disk is full (free some space and run it again)",
    EXIT_INCOMPLETE: "incomplete (a harvest with items Flickr would not serve, a --from-export archive lacking files)",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
    EXIT_BROKEN_PIPE: "stdout closed early (flickr walk ... | head)",
}


def exit_codes_help(*, leave_out: tuple[int, ...] = ()) -> str:
    """The epilog line listing EXIT_CODES (less `leave_out`)."""
    return "Exit codes: " + "; ".join(f"{code} {meaning}" for code, meaning in EXIT_CODES.items()
                                      if code not in leave_out) + "."

# What must not reach a terminal raw from a file name or a server: C0 (newline and tab included: a
# message is printed as one line), DEL and C1 (ESC 0x1b and CSI 0x9b start the sequences that move
# the cursor, clear the screen or retitle the window), the bidirectional formatting characters
# (they reorder what follows: "photo\u202egpj.exe" shows as "photoexe.jpg"), the line and paragraph separators,
# and lone surrogates (a file name's bytes that are not UTF-8, as os.fsdecode gives them, or a
# server's broken \ud800), which no terminal encoding can write.
_C0 = "\x00-\x1f"
_BEYOND_C0 = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_CONTROL = re.compile(f"[{_C0}{_BEYOND_C0}]")
# What json.dumps(ensure_ascii=False) leaves raw: it escapes C0 itself.
_JSON_RAW_CONTROL = re.compile(f"[{_BEYOND_C0}]")
# In XML output tab and newline are layout, and stay.
_XML_CONTROL = re.compile(f"[\x00-\x08\x0b-\x1f{_BEYOND_C0}]")


def _escape(character: str) -> str:
    code = ord(character)
    if 0xDC80 <= code <= 0xDCFF:  # os.fsdecode's stand-in for the byte 0x80 to 0xff of a name
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


class CLIError(Exception):
    """A failure the CLI reports itself, with its exit code."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE):
        super().__init__(message)
        self.exit_code = exit_code


class IntermixedParser(argparse.ArgumentParser):
    """An ArgumentParser whose options may stand anywhere among a command's positionals.

    argparse's plain parse binds a `nargs="*"` positional at its first run of positionals, so in
    `flickr call flickr.test.echo --xml a=b` the `a=b` after the option is "unrecognized".
    Intermixed parsing reads the options first, then the positionals. A parser that hands the rest
    of the line on (subcommands, REMAINDER) cannot be intermixed and parses as usual; its
    subcommands' parsers are of this class too (argparse makes them of the parent's class)."""

    _intermixing = False

    # override: the stub's overloads promise a namespace of the caller's own class back; the CLI
    # passes none, so this one states the plain case only.
    def parse_known_args(self, args: Optional[Sequence[str]] = None,  # type: ignore[override]
                         namespace: Optional[argparse.Namespace] = None) -> tuple[argparse.Namespace, list[str]]:
        handing_on = any(action.nargs in (argparse.PARSER, argparse.REMAINDER)
                         for action in self._get_positional_actions())
        if handing_on or self._intermixing:  # intermixed parsing calls back here for its two passes
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False


    def _print_message(self, message: str, file: Optional[SupportsWrite[str]] = None) -> None:
        # argparse ignores an OSError writing --help: `flickr --help > /dev/full` would exit 0 with nothing
        # written. On stdout it reaches main, which says so (exit 7 for a full disk, 141 for a closed pipe).
        if message and file is sys.stdout:
            file.write(message)
        else:
            super()._print_message(message, file)


def terminal_safe(text: str) -> str:
    """`text` with every character above written as \\xNN or \\uNNNN (a name's undecodable byte
    as \\xNN), so that a file name or text from a server (an error page, a title) cannot drive
    the terminal it is printed on. Every such text the CLI prints goes through here, or through
    dumps_json or xml_safe, whether or not the output is a terminal: a pipe or a log file is
    often shown on one later."""
    return _CONTROL.sub(lambda match: _escape(match.group()), text)


def print_error(message: str) -> None:
    print(f"flickr: {terminal_safe(message)}", file=sys.stderr)


# The options this command's flags set, by the library's name (FLICKR_OPT_...): a message about
# the time limit names --timeout. An option without a flag is named by the binding's keyword.
_ENDPOINTS = ("BASE_URL", "REST_ENDPOINT", "UPLOAD_ENDPOINT", "REPLACE_ENDPOINT", "OAUTH_ENDPOINT",
              "AUTH_ENDPOINT", "PHOTO_ENDPOINT")
OPTION_FLAGS = {"TIMEOUT_MS": "--timeout", "MAX_RETRIES": "--retries", "CA_FILE": "--ca-file",
                "BUDGET_PER_HOUR": "--budget",
                "OAUTH_TOKEN": "--oauth-token", "OAUTH_TOKEN_SECRET": "--oauth-token-secret",
                **{name: "--endpoint" for name in _ENDPOINTS}}


def error_text(error: Exception) -> str:
    """What to print of a failure: a FlickrError's message naming this command's flags, where the
    library names its C options (the binding's message names Python keywords)."""
    from flickr import errors

    if not isinstance(error, errors.FlickrError):
        return str(error)
    return error.message_naming(lambda option: OPTION_FLAGS.get(option, option.lower()))


def dumps_json(value: Any, **options: Any) -> str:
    """json.dumps without ASCII escapes, but with the characters above escaped too (\\u0085;
    json escapes only C0), so its output is still JSON of the same value."""
    text = json.dumps(value, ensure_ascii=False, **options)
    return _JSON_RAW_CONTROL.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def xml_safe(text: str) -> str:
    """XML with the characters above but tab and newline written as character references
    (&#x9b;): text and attribute values mean the same to an XML parser, and nothing reaches a
    terminal raw. (A reference inside a comment or CDATA would not be read as one; Flickr's
    answers have neither. C0 controls and lone surrogates are not XML characters at all: a body
    holding them is not well-formed either way.)"""
    return _XML_CONTROL.sub(lambda match: f"&#x{ord(match.group()):x};", text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0 or value * 1000 >= 2**63:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, 0 or more, not {text!r}")
    return value


def _whole_number(text: str, low: int, high: int, what: str) -> int:
    """`text` as a whole number in low..high (the library's range of its option), else argparse's error."""
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"expected {low} to {high} {what}, not {text!r}")
    return value


def _retries(text: str) -> int:
    return _whole_number(text, *NUMBER_OPTION_RANGES["max_retries"], "retries")


#: The CLI's calls an hour per API key, shared by every flickr command (and program using the key with
#: budget_per_hour) at once: Flickr's own limit. The library's default is no budget.
DEFAULT_BUDGET = CALLS_PER_HOUR


def _budget(text: str) -> int:
    return _whole_number(text, *NUMBER_OPTION_RANGES["budget_per_hour"], "calls an hour")


def add_global_options(parser: argparse.ArgumentParser, *, command: bool = True, timeout: bool = True) -> None:
    """--timeout, --retries, --budget and -v/--verbose, on the main parser (given before the command) and on
    every command's (given after it). A command's defaults are suppressed: argparse copies them over
    the main parser's results, which would drop an option given before the command."""
    default = argparse.SUPPRESS if command else None
    group = parser.add_argument_group("transport and logging")
    if timeout:
        group.add_argument("--timeout", dest="request_timeout", type=_seconds, default=default,
                           metavar="SECONDS", help="time limit of each request (0: none; default "
                           f"{NUMBER_OPTION_DEFAULTS['timeout_ms'] / 1000:g}; uploads have their own idle limits)")
    group.add_argument("--retries", type=_retries, default=default, metavar="N",
                       help="retries after a passing failure, {} to {} (default {}; POSTs are not retried)".format(
                           *NUMBER_OPTION_RANGES["max_retries"], NUMBER_OPTION_DEFAULTS["max_retries"]))
    group.add_argument("--budget", type=_budget, default=default, metavar="N",
                       help=f"at most N API calls an hour for the key, shared by every process using it "
                       f"(default {DEFAULT_BUDGET}, Flickr's limit; 0: none)")
    group.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS if command else False,
                       help="print the library's log to stderr: a line per request and per retry")


def transport_options(args: argparse.Namespace) -> dict[str, Any]:
    """Option keywords for --timeout and --retries when given, and for --budget always."""
    options: dict[str, Any] = {}
    budget = getattr(args, "budget", None)
    options["budget_per_hour"] = DEFAULT_BUDGET if budget is None else budget
    seconds = getattr(args, "request_timeout", None)
    if seconds is not None:
        options["timeout_ms"] = max(round(seconds * 1000), 1) if seconds else 0
    retries = getattr(args, "retries", None)
    if retries is not None:
        options["max_retries"] = retries
    return options


class _TerminalSafeFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return terminal_safe(super().format(record))


def configure_logging(verbose: bool) -> None:
    """-v: the `flickr` logger (the library's request and retry lines) to stderr."""
    if not verbose:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_TerminalSafeFormatter("flickr: %(message)s"))
    logger = logging.getLogger("flickr")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)


def add_credential_options(parser: argparse.ArgumentParser, login_user: bool = True) -> None:
    """The credential flags; `login_user=False` leaves --user to the command (the stored login is
    then chosen by $FLICKR_USER)."""
    group = parser.add_argument_group("credentials and endpoints")
    group.add_argument("--api-key", help="API key (default: $FLICKR_API_KEY)")
    group.add_argument("--api-secret", help="API secret (default: $FLICKR_API_SECRET)")
    group.add_argument("--oauth-token", help="OAuth access token (default: $FLICKR_OAUTH_TOKEN)")
    group.add_argument("--oauth-token-secret", help="OAuth access token secret (default: $FLICKR_OAUTH_TOKEN_SECRET)")
    group.add_argument("--endpoint", help="base URL of every service, e.g. http://127.0.0.1:8080 for a sandbox "
                       "(default: $FLICKR_ENDPOINT, else Flickr)")
    group.add_argument("--ca-file", help="PEM file of trusted CA certificates (e.g. a TLS sandbox's)")
    if login_user:
        group.add_argument("--user", help="which stored login (flickr auth login) to use: NSID or username "
                           "(default: $FLICKR_USER, else the latest login)")


def endpoint_options(base: str | None) -> dict[str, Any]:
    """Option keywords pointing every service at `base` (a Flickr-compatible server)."""
    if not base:
        return {}
    return {"base_url": base}  # REST, upload, replace, OAuth, auth and photo files, as the sandbox serves them


def credentials(args: argparse.Namespace, use_store: bool = True) -> dict[str, Any]:
    """api_key, secret and OAuth token from flags, then the environment, then (for the token,
    when neither flags nor environment give one) the token store of `flickr auth login`."""
    found = {
        "api_key": args.api_key or os.environ.get("FLICKR_API_KEY"),
        "secret": args.api_secret or os.environ.get("FLICKR_API_SECRET"),
        "oauth_token": args.oauth_token or os.environ.get("FLICKR_OAUTH_TOKEN"),
        "oauth_token_secret": args.oauth_token_secret or os.environ.get("FLICKR_OAUTH_TOKEN_SECRET"),
    }
    if not found["api_key"]:
        raise CLIError("no API key: pass --api-key or set FLICKR_API_KEY")
    if use_store and not found["oauth_token"] and not found["oauth_token_secret"]:
        stored = stored_token(found["api_key"], getattr(args, "user", None) or os.environ.get("FLICKR_USER"))
        if stored is not None:
            found["oauth_token"], found["oauth_token_secret"] = stored.oauth_token, stored.oauth_token_secret
    return found


def stored_token(api_key: str, user: str | None) -> StoredToken | None:
    """The token store's entry for api_key and user (the latest when None); None when there is none.
    A named user without a stored login is an error; a damaged store is reported, not fatal."""
    from flickr import errors
    from flickr.tokens import TokenStore

    try:
        found = TokenStore().load(api_key, user)
    except errors.FileError as error:
        print_error(f"warning: {error_text(error)}")
        return None
    if found is None and user:
        raise CLIError(f"no stored login for user {user!r}: run flickr auth login", EXIT_AUTH)
    return found


def load_library() -> None:
    """Loads libflickr, or fails with one line naming what was tried and how to point at it.

    The library loads on first use; without this a missing or mismatched one surfaces as an
    ImportError from deep inside the first call, with a traceback."""
    from flickr import library_version

    try:
        library_version()  # loads it
    except ImportError as error:
        raise CLIError(f"{error}; set FLICKR_LIBRARY to the path of libflickr.so.0", EXIT_NO_LIBRARY) from None


def open_api(args: argparse.Namespace, use_store: bool = True) -> Flickr:
    """A Flickr object configured from the command line, the environment and the token store."""
    from flickr import Flickr

    load_library()
    found = credentials(args, use_store)
    options = endpoint_options(args.endpoint or os.environ.get("FLICKR_ENDPOINT"))
    options.update(transport_options(args))
    if args.ca_file:
        options["ca_file"] = args.ca_file
    if found["oauth_token"] and found["oauth_token_secret"]:
        options["oauth_token"] = found["oauth_token"]
        options["oauth_token_secret"] = found["oauth_token_secret"]
    return Flickr(found["api_key"], found["secret"], **options)


def parse_pairs(pairs: list[str]) -> dict[str, Any]:
    """["key=value", ...] -> {key: value}."""
    params = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise CLIError(f"expected key=value, got {pair!r}")
        params[name] = value
    return params
