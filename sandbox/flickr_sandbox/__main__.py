# SPDX-License-Identifier: MIT
"""``python -m flickr_sandbox``: run the sandbox until SIGINT or SIGTERM.

The first stdout line is the base URL; ``name=value`` lines follow (see --help).  With
``--print-settings json`` stdout gets one JSON line instead, what flickr_sandbox.launch reads.
``--write-export OUT`` writes the account's export instead of serving (export.py).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
import threading
from types import FrameType

from . import constants as C
from . import export, faults
from .request import MAX_UPLOAD_BYTES
from .seed import seed
from .seed_photos import SeedMismatch
from .seed_photos import seed_photos as add_seeded_photos
from .server import Sandbox
from .store import Store
from .tls import TLSSetupError

EPILOG = f"""\
output (stdout, flushed before serving):
  http://127.0.0.1:PORT          base URL, always the first line (https:// with --tls)
  api_key=KEY                    fixed test consumer key
  api_secret=SECRET              fixed test consumer secret
  oauth_token=TOKEN              pre-authorised OAuth access token (perms delete)
  oauth_token_secret=SECRET      its secret
  auth_token=TOKEN               legacy auth token of the same user (perms delete)
  data_dir=DIR                   state directory (SQLite database, uploaded files)
  ca_file=PATH                   CA certificate to trust (--tls only)
  with --print-settings json, one line instead: {{"url": ..., "api_key": ..., ..., "ca_file": null}}

fixed credentials:
  api_key            {C.API_KEY}
  api_secret         {C.API_SECRET}
  user               {C.USER_NSID} (username {C.USER_NAME}, "{C.USER_REALNAME}")
  oauth_token        {C.OAUTH_TOKEN}
  oauth_token_secret {C.OAUTH_TOKEN_SECRET}
  auth_token         {C.AUTH_TOKEN}

fault injection (parameter sandbox_fault=SPEC or header X-Sandbox-Fault: SPEC):
{faults.__doc__.split("Syntax::", 1)[1].rstrip()}

Exit codes: 0 stopped (Ctrl-C, SIGTERM) or the export written; 1 cannot serve (the port taken, TLS
set-up failed, a --data of another seed); 2 usage error.
"""

#: The longest --latency-ms: an hour. Beyond, a request's sleep would overflow (OverflowError, a traceback).
MAX_LATENCY_MS = 3_600_000


def build_parser(prog: str = "python -m flickr_sandbox") -> argparse.ArgumentParser:
    """The command line's parser (also what `flickr sandbox` completes from, and runs as `prog`)."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="A local Flickr-compatible API server (REST, OAuth 1.0a, upload) for tests.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=port, help="TCP port; 0 picks a free one (required but with --write-export)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--data", metavar="DIR",
                        help="state directory, kept at exit (default: a temporary one, removed at exit)")
    parser.add_argument("--tls", action="store_true", help="serve HTTPS with a generated private CA")
    parser.add_argument("--latency-ms", type=latency, default=0, metavar="N",
                        help=f"add N milliseconds before every response (0 to {MAX_LATENCY_MS})")
    parser.add_argument("--max-upload-bytes", type=count, default=MAX_UPLOAD_BYTES, metavar="N",
                        help=f"largest upload or replace body, refused with 413 beyond (default {MAX_UPLOAD_BYTES}: "
                             "a 1 GiB file and 1 MiB of fields)")
    parser.add_argument("--seed-photos", type=count, default=0, metavar="N",
                        help="add a deterministic account of N items (photos, videos, private ones, refused "
                             "originals, albums, collections) to the sandbox user's; the user becomes a free account")
    parser.add_argument("--budget-per-hour", type=count, default=0, metavar="N",
                        help="answer a key's calls past N in a rolling hour with HTTP 429, as Flickr does "
                             "(default 0: no limit)")
    parser.add_argument("--clock-speed", type=speed, default=1.0, metavar="X",
                        help="run the budget's clock X times faster than real time (tests: 36000 makes an hour 0.1 s)")
    parser.add_argument("--fault", action="append", default=[], type=standing_fault, metavar="SPEC[@PATH]",
                        help="a standing fault, for requests that ask for none (repeatable; the first whose "
                             "PATH prefix matches applies): e.g. 'http429=2;times=3@/photos/'")
    parser.add_argument("--write-export", metavar="OUT",
                        help="write the sandbox user's account export (Flickr's \"Your Flickr Data\" zips, "
                             "docs/export.md) into the folder OUT, and exit without serving")
    parser.add_argument("--verbose", action="store_true", help="log requests (paths only) to stderr")
    parser.add_argument("--print-settings", choices=("lines", "json"), default="lines",
                        help="stdout's start-up output: lines for people (default), or one JSON line")
    return parser


def standing_fault(text: str) -> str:
    """A --fault value, checked now (argparse reports the reason as a usage error)."""
    try:
        faults.parse_standing(text)
    except faults.FaultSyntaxError as err:
        raise argparse.ArgumentTypeError(f"{text!r}: {err}") from None
    return text


def count(text: str) -> int:
    """A whole number, 0 or more (argparse turns the ValueError into a usage error)."""
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def port(text: str) -> int:
    """A TCP port, 0 to 65535 (bind() would raise OverflowError, not a usage error)."""
    value = count(text)
    if value > 65535:
        raise ValueError(text)
    return value


def latency(text: str) -> int:
    value = count(text)
    if value > MAX_LATENCY_MS:
        raise ValueError(text)
    return value


def speed(text: str) -> float:
    value = float(text)
    if not 0 < value < float("inf"):
        raise ValueError(text)
    return value


def write_export(out: str, seed_photos: int) -> int:
    """--write-export: the account a sandbox started with --seed-photos N serves, as an export."""
    data_dir = tempfile.mkdtemp(prefix="flickr-sandbox-export-")
    try:
        store = Store(data_dir)
        seed(store)
        add_seeded_photos(store, seed_photos)
        names = export.write_export(store, out)
        store.close()
    except OSError as err:
        print(f"flickr_sandbox: {err}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    print("\n".join(os.path.join(out, name) for name in names))
    return 0


def main(argv: list[str] | None = None, prog: str = "python -m flickr_sandbox") -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.write_export is not None:
        return write_export(args.write_export, args.seed_photos)
    if args.port is None:
        parser.error("the following arguments are required: --port")
    try:
        sandbox = Sandbox(port=args.port, host=args.host, data_dir=args.data, tls_enabled=args.tls,
                          latency_ms=args.latency_ms, verbose=args.verbose,
                          max_upload_bytes=args.max_upload_bytes, seed_photos=args.seed_photos,
                          budget_per_hour=args.budget_per_hour, clock_speed=args.clock_speed, faults=args.fault)
    except (OSError, TLSSetupError, SeedMismatch) as err:
        print(f"flickr_sandbox: {err}", file=sys.stderr)
        return 1
    settings = sandbox.settings
    print(settings.to_json() if args.print_settings == "json" else "\n".join(settings.lines()), flush=True)

    def stop(signum: int, frame: FrameType | None) -> None:
        # shutdown() waits for serve_forever(), which runs on this very thread.
        threading.Thread(target=sandbox.shutdown, daemon=True).start()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        sandbox.serve_forever()
    finally:
        sandbox.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
