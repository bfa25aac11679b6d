# SPDX-License-Identifier: MIT
"""`flickr backup DIR`: a whole account (or --user's public items) into DIR; `--verify DIR`;
`--from-export PATH...`: the same archive from Flickr's account export."""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TYPE_CHECKING, Any, Optional, TextIO

from .common import (EXIT_FAILURE, EXIT_INCOMPLETE, EXIT_NO_SPACE, CLIError, add_credential_options,
                     add_global_options, dumps_json, open_api, terminal_safe)
from .progress import ProgressLine, eta, items, rate, size

if TYPE_CHECKING:
    from .common import Subparsers

def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "backup", help="back up a whole account into a folder, incrementally",
        description="Back up every photo and video of the logged-in account (or --user's public ones) into DIR "
        "at the largest size Flickr lets the account download, with a JSON and an XMP sidecar per item, albums "
        "as folders of links, index.json and index.html. Run it again to bring DIR up to date: only what changed "
        "is fetched. Stopped or killed, it resumes where it was. docs/backup.md gives the layout.",
        epilog="Exit codes: 0 every item is done (videos Flickr is still processing are reported as pending and "
        "fetched by a later run; the viewer not installed because files of yours stand at its names is a note); "
        "1 an item failed (retried by the next run), --verify found a file missing or "
        "changed (the next run makes it again), or DIR cannot be used; 2 a usage error (a --from-export PATH that "
        "is neither a zip nor a folder); 3 an API error, 4 a network error, 5 no valid login; 7 the disk is full "
        f"(nothing was lost: free some space and run it again); {EXIT_INCOMPLETE} --from-export: the archive is not "
        "complete, the export lacks what the report lists (a file, a JSON, a data-download zip; a later export or "
        "`flickr backup DIR` with a key fills it); 130 interrupted (run the same command again to resume).")
    parser.add_argument("dir", metavar="DIR", help="the backup folder (created when missing)")
    parser.add_argument("--verify", action="store_true",
                        help="check every recorded file's size and SHA-256, with no API call; exit 1 if any is "
                        "missing or changed")
    parser.add_argument("--from-export", nargs="+", metavar="PATH",
                        help="make (or add to) the archive from Flickr's account export (\"Your Flickr Data\"): its "
                        "zips, or the folders they were unpacked into, in any order; no key, no network. "
                        "docs/export.md")
    parser.add_argument("--fill", action="store_true",
                        help="with --from-export: ask Flickr, with the key, only for what the export lacks (licence "
                        "names' ids: 1 call; the friends/family split: a call an item, or 3 listings past 3 items; "
                        "people named by NSID only: 1 call each; an original left out: getSizes and its fetch)")
    parser.add_argument("--user", dest="account", metavar="USER",
                        help="another account's public items: its NSID, username or photostream URL (no login needed)")
    parser.add_argument("--info", action="store_true",
                        help="per item: flickr.photos.getInfo, getAllContexts and people.getList (raw tags and their "
                        "authors, place names, notes, groups, people): 3 calls an item")
    parser.add_argument("--comments", action="store_true", help="per item: its comments (1 call an item)")
    parser.add_argument("--exif", action="store_true", help="per item: its EXIF as Flickr reads it (1 call an item)")
    parser.add_argument("--no-albums", dest="albums", action="store_false", help="leave albums and collections out")
    parser.add_argument("--embedded-copies", dest="embedded", action="store_true",
                        help="also a copy of each JPEG with its metadata (the XMP sidecar's) inside, in DIR/embedded, "
                        "for apps that read no sidecar (Lightroom); the originals stay as Flickr gave them; costs the "
                        "JPEGs' size again on disk")
    parser.add_argument("--prune", action="store_true", help="remove the files of items deleted on Flickr "
                        "(default: keep them, marked deleted in index.json)")
    parser.add_argument("--quick", action="store_true", help="only what flickr.photos.recentlyUpdated reports "
                        "since the last run (no full listing: deletions are not seen)")
    parser.add_argument("--recheck", action="store_true",
                        help="fetch again every item changed on Flickr and keep the new bytes if they differ (by "
                        "default an edit of title, tags... rewrites the sidecars only: a replace made beside such an "
                        "edit, keeping format and size, is missed)")
    parser.add_argument("--concurrency", type=int, default=8, metavar="N", help="files fetched at once (default 8)")
    parser.add_argument("--progress", choices=("auto", "line", "json", "none"), default="auto",
                        help="a live line on a terminal (auto), JSON lines on stdout (json), or nothing")
    add_credential_options(parser, login_user=False)
    add_global_options(parser)
    parser.set_defaults(handler=run)


class LiveLine:
    """items done of total, bytes, rate, ETA and API calls, redrawn in place on stderr (the CLI's
    one renderer and units: progress.py)."""

    def __init__(self, stream: TextIO) -> None:
        self.line = ProgressLine(stream, live=True)  # asked for (--progress line) or a terminal
        self.bytes = 0
        self.shown = 0.0

    def __call__(self, event: dict[str, Any]) -> None:
        kind = event["event"]
        if kind == "item":
            self.bytes += int(event.get("bytes") or 0)
            if event.get("status") == "failed":
                self.line.keep(f"{event['id']}: {event.get('error', '')}")
        now = time.monotonic()
        if kind == "end":
            self.line.clear()
            return
        if now - self.shown < 0.2 and kind == "item" and event.get("done") != event.get("total"):
            return
        self.shown = now
        line = f"calls {event.get('api_calls', 0)}"
        if kind == "wait":
            line = f"API budget spent: resuming at {time.strftime('%H:%M:%S', time.localtime(event['resume']))}, {line}"
        elif kind == "listed":
            line = f"{event['items']} items listed, {line}"
        elif kind == "work":
            line = f"{event['items']} items to fetch or update, {line}"
        elif kind == "listing":
            line = f"listing page {event['page']} of {event['pages']}, {line}"
        elif kind == "item":
            done, total = int(event["done"]), int(event["total"])
            elapsed = max(self.line.elapsed(), 1e-6)
            left = elapsed / done * (total - done) if done else 0.0
            line = (f"{items(done, total)}, {size(self.bytes)}, {rate(self.bytes, elapsed)}, "
                    f"{eta(left)}, {line}")
        self.line.show(line)


def _progress(mode: str) -> Optional[Any]:
    if mode == "line" or (mode == "auto" and sys.stderr.isatty()):
        return LiveLine(sys.stderr)  # it shows a wait itself
    show = (lambda event: print(dumps_json(event), flush=True)) if mode == "json" else None

    def progress(event: dict[str, Any]) -> None:
        if event["event"] == "wait":
            # Piped or quiet, a wait of up to an hour must not pass for a hang: said on stderr, as a failure is.
            resume = time.strftime('%H:%M:%S', time.localtime(event["resume"]))
            print(terminal_safe(f"flickr: waiting until {resume}: {event['reason']}"), file=sys.stderr, flush=True)
        if show is not None:
            show(event)
    return progress


def _verify(args: argparse.Namespace) -> int:
    from ..backup import BackupLocked, PlantedLink, verify

    try:
        result = verify(args.dir)
    except (FileNotFoundError, BackupLocked, PlantedLink) as error:
        raise CLIError(str(error), EXIT_FAILURE) from None
    for path in result["missing"]:
        print(terminal_safe(f"missing: {path}"), file=sys.stderr)
    for path in result["changed"]:
        print(terminal_safe(f"changed: {path}"), file=sys.stderr)
    if args.progress == "json":
        print(dumps_json({"event": "verified", **result}), flush=True)
    verdict = "all match" if result["ok"] else f"{len(result['missing'])} missing, {len(result['changed'])} changed"
    if result.get("not_recorded"):
        print(terminal_safe(f"note: {result['not_recorded']}"), file=sys.stderr)
    elif not result["ok"]:
        verdict += " (recorded: the next backup run makes them again)"
    print(terminal_safe(f"checked {result['checked']} files ({size(result['bytes'])}) in {args.dir}: {verdict}"),
          file=sys.stderr)
    return 0 if result["ok"] else EXIT_FAILURE


def _running(backup: Any, args: argparse.Namespace) -> Any:
    """`backup.run()` with its errors as the CLI's: one line and its exit code."""
    from ..backup import BackupLocked, DiskFull, PlantedLink

    try:
        return backup.run(progress=_progress(args.progress))
    except (BackupLocked, PlantedLink) as error:
        raise CLIError(str(error), EXIT_FAILURE) from None
    except DiskFull as error:
        raise CLIError(str(error), EXIT_NO_SPACE) from None
    except OSError as error:  # DIR itself: not a folder, not writable...
        raise CLIError(f"{error.filename or args.dir}: {error.strerror or error}", EXIT_FAILURE) from None
    except KeyboardInterrupt:
        print("flickr: interrupted; what was finished is kept: run the same command again to resume",
              file=sys.stderr)
        raise


def _finished(args: argparse.Namespace, report: Any, code: int) -> int:
    """The report on stderr; `code` when no item failed (EXIT_FAILURE then)."""
    for item in report.pending:
        print(terminal_safe(f"pending: {item['id']} ({item['title']}): {item['why']}"), file=sys.stderr)
    for failure in report.failed:
        print(terminal_safe(f"failed: {failure['id']} ({failure['title']}): {failure['error']}"), file=sys.stderr)
    for note in report.notes:
        print(terminal_safe(f"note: {note}"), file=sys.stderr)
    print(terminal_safe(f"backup of {report.user} in {args.dir}: {report.summary()}"), file=sys.stderr)
    return code if report.ok else EXIT_FAILURE


def _api_options(args: argparse.Namespace) -> list[str]:
    """The options given that only a run with the API uses."""
    return [flag for flag, given in (("--user", args.account), ("--info", args.info), ("--comments", args.comments),
                                     ("--exif", args.exif), ("--prune", args.prune), ("--quick", args.quick),
                                     ("--recheck", args.recheck)) if given]


def _from_export(args: argparse.Namespace) -> int:
    from ..backup.export.engine import ExportBackup

    asked = _api_options(args) + (["--verify"] if args.verify else [])
    if asked:
        raise CLIError(f"--from-export reads the export alone: {', '.join(asked)} is for a backup with the API")
    for path in args.from_export:
        if not os.path.isdir(path) and not os.path.isfile(path):
            raise CLIError(f"{path}: neither a zip nor a folder")
    if args.fill:
        with open_api(args) as api:
            report = _running(ExportBackup(args.dir, args.from_export, client=api, concurrency=args.concurrency,
                                           albums=args.albums, embedded=args.embedded), args)
    else:
        report = _running(ExportBackup(args.dir, args.from_export, concurrency=args.concurrency, albums=args.albums,
                                       embedded=args.embedded), args)
    for lack in report.lacking:
        shown = f"{lack['id']}: " if lack["id"] else ""
        print(terminal_safe(f"lacking ({lack['kind']}): {shown}{lack['detail']}"), file=sys.stderr)
    return _finished(args, report, EXIT_INCOMPLETE if report.lacking else 0)


def run(args: argparse.Namespace) -> int:
    if args.verify and not args.from_export:
        # An option --verify would ignore is refused, not dropped: `--verify --embedded-copies` makes no copy.
        ignored = _api_options(args) + [flag for flag, given in (
            ("--fill", args.fill), ("--embedded-copies", args.embedded), ("--no-albums", not args.albums)) if given]
        if ignored:
            raise CLIError(f"--verify checks the files already recorded in DIR, with no API call: "
                           f"{', '.join(ignored)} is for a backup run")
        return _verify(args)
    from ..backup import Backup

    if not 1 <= args.concurrency <= 64:
        raise CLIError("--concurrency takes 1 to 64")
    if args.from_export:
        return _from_export(args)
    if args.fill:
        raise CLIError("--fill fills what an export lacks: give --from-export PATH...")
    with open_api(args) as api:
        backup = Backup(api, args.dir, user=args.account, concurrency=args.concurrency, info=args.info,
                        budget=0, recheck=args.recheck,  # the client's budget: --budget, default 3600
                        comments=args.comments, exif=args.exif, albums=args.albums, prune=args.prune, quick=args.quick,
                        embedded=args.embedded)
        report = _running(backup, args)
    return _finished(args, report, 0)
