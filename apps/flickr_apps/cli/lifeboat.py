# SPDX-License-Identifier: MIT
"""`flickr lifeboat DIR OUT`: a Data Lifeboat from a `flickr backup` archive (docs/lifeboat.md)."""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from flickr.files import open_regular

from .common import EXIT_FAILURE, EXIT_NO_SPACE, EXIT_USAGE, CLIError, add_global_options, terminal_safe

if TYPE_CHECKING:
    import argparse

    from .common import Subparsers

_README_LIMIT = 1 << 20
EPILOG = ("Exit codes: 0 the Lifeboat is written (photos of other members left out by the licence rule are "
          "listed: that is not a failure); 1 an item could not be copied (a file missing, changed since the backup, "
          "a link planted in the archive, or a file of yours in OUT where its copy goes, left as it is: the rest is "
          "written, and the same command run again completes it), DIR is not a flickr backup archive, or OUT cannot be used (not empty and not a Lifeboat this command "
          f"wrote, another run writing it, a link inside it); {EXIT_USAGE} a usage error (an album the archive "
          "lacks, a --ids line that is not an id, a --readme file unreadable, a selection that matches nothing, "
          f"OUT inside DIR); {EXIT_NO_SPACE} the disk is full (free some space and run it again); 130 interrupted "
          "(run it again: it goes on from there).")


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "lifeboat", help="make a Data Lifeboat from a backup archive",
        description="Write OUT, a Flickr Foundation Data Lifeboat (README.html, metadata/*.js, media/, viewer/) "
        "from DIR, an archive made by flickr backup: the whole archive, or the union of the --album, --tag and "
        "--ids selections. Reads DIR's files only: no API call, no key. Your own photos always go in; another "
        "member's only when public, under a licence that allows passing it on (Flickr's ids 1 to 16: Creative "
        "Commons, public domain, no known copyright restrictions, US Government work) and with downloads "
        "allowed; each photo left out is listed with why (here, README.html and lifeboat.js). Killed or "
        "stopped, the same command completes OUT. docs/lifeboat.md.",
        epilog=EPILOG)
    parser.add_argument("dir", metavar="DIR", help="the backup archive (made by flickr backup)")
    parser.add_argument("out", metavar="OUT", help="the Lifeboat's folder: new, empty, or one this command wrote")
    parser.add_argument("--album", action="append", default=[], metavar="ID", help="an album's photos (repeatable)")
    parser.add_argument("--tag", action="append", default=[], metavar="TAG", help="photos with this tag (repeatable)")
    parser.add_argument("--ids", action="append", default=[], metavar="FILE",
                        help="photos listed in FILE, one id a line, # comments (repeatable)")
    parser.add_argument("--readme", metavar="FILE",
                        help="your note to future readers (UTF-8 text): why this Lifeboat was made, what to know")
    parser.add_argument("--name", metavar="NAME", help="the Lifeboat's name (default: from DIR's name)")
    parser.add_argument("--creator", metavar="NSID",
                        help="whose photos always go in (default: the archive's account; give your own NSID for an "
                        "archive of another account made with flickr backup --user)")
    add_global_options(parser)  # as every command: README.md says each takes them
    parser.set_defaults(handler=run)


def _text(path: str, what: str) -> str:
    # A regular file only: a FIFO with no writer would wait for ever, and a device or a folder is no
    # text file (the name may be a link: the user gave it, so it is followed).
    try:
        with os.fdopen(open_regular(path, follow=True), "rb") as file:
            data = file.read(_README_LIMIT + 1)
    except OSError as error:
        raise CLIError(f"{what} {path}: {error.strerror or error}", EXIT_USAGE) from None
    if len(data) > _README_LIMIT:
        raise CLIError(f"{what} {path} is over {_README_LIMIT} bytes", EXIT_USAGE)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise CLIError(f"{what} {path} is not UTF-8 text", EXIT_USAGE) from None


def run(args: argparse.Namespace) -> int:
    from .. import lifeboat
    from ..backup import PlantedLink

    try:
        ids = [i for path in args.ids for i in lifeboat.read_ids(_text(path, "--ids"), path)]
        readme = _text(args.readme, "--readme") if args.readme else ""
        report = lifeboat.make(args.dir, args.out, albums=args.album, tags=args.tag, ids=ids, readme=readme,
                               name=args.name, creator=args.creator)
    except lifeboat.UsageError as error:
        raise CLIError(str(error), EXIT_USAGE) from None
    except lifeboat.DiskFull as error:
        raise CLIError(str(error), EXIT_NO_SPACE) from None
    except (lifeboat.NotAnArchive, lifeboat.OutInUse, PlantedLink) as error:
        raise CLIError(str(error), EXIT_FAILURE) from None
    except OSError as error:
        raise CLIError(f"{error.filename or args.out}: {error.strerror or error}", EXIT_FAILURE) from None
    _print(report, args.out)
    return 0 if report["ok"] else EXIT_FAILURE


def _print(report: dict[str, Any], out: str) -> None:
    print(terminal_safe(f"Lifeboat {out}: {report['photos']} photos ({report['own']} yours, {report['others']} of "
                        f"other members), {report['copied']} files copied ({report['bytes']} bytes), "
                        f"{report['kept']} already there, {len(report['left_out'])} left out, "
                        f"{len(report['failed'])} failed, in {report['seconds']} s"))
    for item in report["left_out"]:
        print(terminal_safe(f"left out {item['id']} {_clipped(item['title'])!r}: {item['why']}"))
    for photo_id in report["not_in_archive"]:
        print(terminal_safe(f"left out {photo_id}: not in the archive"))
    for item in report["failed"]:
        print(terminal_safe(f"{_clipped(item['id'])}: {item['error']}"), file=sys.stderr)
    if report["not_ours"]:  # the user's own files among the photos and media in OUT: never touched, said once
        count = len(report["not_ours"])
        more = count - 5
        print(terminal_safe(f"note: {count} file{'' if count == 1 else 's'} in OUT this command did not write are left as "
                            f"they are: {', '.join(report['not_ours'][:5])}{f' and {more} more' if more > 0 else ''}"))


def _clipped(text: str) -> str:
    """A title or an id from the archive, for a line: a hostile index's id of a million digits was
    printed whole."""
    return text if len(text) <= 80 else f"{text[:80]}..."
