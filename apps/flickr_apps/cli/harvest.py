# SPDX-License-Identifier: MIT
"""`flickr harvest METHOD key=value ...`: every result of a search past Flickr's 4,000-result cap,
as JSON lines or as img2dataset's CSV input (url, caption, licence columns)."""
from __future__ import annotations

import argparse
import csv
import io
import os
import stat
import sys
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any, Callable

from flickr.files import open_regular
from .._media.sizes import LADDER
from .common import (EXIT_FAILURE, EXIT_INCOMPLETE, CLIError, _whole_number, add_credential_options, add_global_options,
                     dumps_json, open_api, parse_pairs)
from .progress import ProgressLine, item_rate, items

if TYPE_CHECKING:
    from flickr import Flickr
    from flickr.harvest import Harvest
    from .common import Subparsers

#: img2dataset's CSV input: `url` and `caption` (its --url_col and --caption_col), then columns
#: it keeps with --save_additional_columns.
IMG2DATASET_COLUMNS = ["url", "caption", "id", "owner", "license", "license_name", "license_url"]
PROGRESS_EVERY = 500  # items between --progress lines
EXIT_CODES = (f"Exit codes: 0 the harvest is complete; {EXIT_INCOMPLETE} it ended incomplete (slices over the cap: "
              f"items Flickr would not serve; said on stderr); {EXIT_FAILURE} a failure (a lying server, an -o "
              "file that is not the one the checkpoint's harvest wrote); 2 usage; 3 API; 4 network; 5 authentication; "
              "7 the disk is full; 130 interrupted (Ctrl-C); 141 stdout closed early.")


def _shard(text: str) -> tuple[int, int]:
    k, slash, n = text.partition("/")
    if not slash:
        raise argparse.ArgumentTypeError(f"expected K/N (e.g. 2/4), not {text!r}")
    total = _whole_number(n, 1, 10_000, "shards")
    return _whole_number(k, 1, total, f"(the shard, of {total})"), total


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "harvest", help="print every result of a search, past Flickr's 4,000-result cap",
        description="Harvest every item a search-like method matches (flickr.photos.search...), each once: "
        "the date range is cut into slices Flickr serves in full (then by licence). JSON lines, or "
        "img2dataset's CSV. See docs/harvest.md.", epilog=EXIT_CODES)
    parser.add_argument("method", help="a search-like method, e.g. flickr.photos.search")
    parser.add_argument("params", nargs="*", metavar="key=value",
                        help="method parameters; min_/max_upload_date (or taken) in unix seconds bound the range")
    parser.add_argument("--dates", choices=["upload", "taken"], default="upload", help="the dates to slice by")
    parser.add_argument("--min-slice", type=lambda t: _whole_number(t, 1, 10**12, "seconds"), default=60,
                        metavar="SECONDS", help="below this a slice over the cap is split by licence (default 60)")
    parser.add_argument("--checkpoint", metavar="FILE", help="save progress here; continue from it if it exists")
    parser.add_argument("--shard", type=_shard, default=(1, 1), metavar="K/N", help="harvest the K-th of N shards")
    parser.add_argument("--output", "-o", metavar="FILE",
                        help="write here instead of stdout (with --checkpoint: a resumed run drops what the "
                        "killed one wrote after its last checkpoint, so every item is there once)")
    parser.add_argument("--format", choices=["jsonl", "img2dataset"], default="jsonl",
                        help="jsonl (default) or img2dataset: CSV with url, caption and licence columns")
    parser.add_argument("--size", default="b", help="image size of the img2dataset URLs (default b: 1024 px; a "
                        "photo without it gets the largest size Flickr lists below it; videos are left out)")
    parser.add_argument("--progress", action="store_true", help=f"a line on stderr every {PROGRESS_EVERY} items")
    parser.add_argument("--report", action="store_true", help="the completeness report as JSON on stderr at the end")
    add_credential_options(parser)
    add_global_options(parser)
    parser.set_defaults(handler=run)


def _open_output(path: str, keep: int, identity: Any) -> tuple[IO[bytes], dict[str, int]]:
    """`path` for writing after its first `keep` bytes (what the checkpoint says was written), and its
    identity for the checkpoint. On a resume (`identity` from the checkpoint, or `keep` > 0) it must be
    the very file the harvest wrote: the same device and inode, a regular file with one link, never a
    symbolic link; else another file would be cut to `keep` bytes and appended to."""
    try:
        fd = open_regular(path, None, os.O_RDWR | os.O_CREAT, 0o666)  # cut back to `keep`: a file, not a FIFO
    except OSError as error:
        raise CLIError(f"cannot write {path}: {error.strerror}", EXIT_FAILURE) from None
    out = os.fdopen(fd, "r+b")
    found = os.fstat(fd)
    mine = {"dev": found.st_dev, "ino": found.st_ino}
    resumed = identity is not None or keep > 0
    refusal = None
    if resumed and (not stat.S_ISREG(found.st_mode) or found.st_nlink != 1):
        refusal = "is not a regular file with one link"
    elif identity is not None and identity != mine:
        refusal = "is another file than the one this checkpoint's harvest wrote"
    elif found.st_size < keep:
        refusal = "is shorter than its checkpoint says"
    if refusal is not None:
        out.close()
        raise CLIError(f"{path} {refusal}: not the harvest's output; give the -o of the run that made the "
                       "checkpoint, or start anew with another --checkpoint", EXIT_FAILURE)
    if stat.S_ISREG(found.st_mode):
        out.truncate(keep)
        out.seek(keep)
    return out, mine


def _listed_sizes(size: str) -> list[str]:
    """The url_* extras the img2dataset rows are taken from: `size` and every smaller one, largest
    first (a photo smaller than `size` has no URL of it: Flickr lists the sizes it has)."""
    codes = [entry.code for entry in LADDER]
    if size not in codes:
        raise CLIError(f"--size must be one of {', '.join(c or '(empty: 500 px)' for c in codes)}, not {size!r:.20}")
    wanted = next(entry for entry in LADDER if entry.code == size)
    return [entry.extra for entry in reversed(LADDER)
            if entry.code == size or (entry.edge and entry.edge <= (wanted.edge or 10**6) and entry.code != "o")]


class _Rows:
    """img2dataset's CSV rows: each URL one Flickr listed (the `--size` one, else the largest listed
    below it); a video, or an item with no listed image, is left out and counted."""

    def __init__(self, api: Flickr, size: str) -> None:
        self.extras = _listed_sizes(size)
        self.videos = 0
        self.unlisted = 0
        self.licenses = {str(entry.get("id")): entry for entry in
                         api.call("flickr.photos.licenses.getInfo").get("licenses", {}).get("license", [])
                         if isinstance(entry, dict)}

    def __call__(self, items: list[dict[str, Any]]) -> bytes:
        text = io.StringIO()
        out = csv.writer(text, lineterminator="\n")
        for item in items:
            if item.get("media") == "video":
                self.videos += 1
                continue
            url = next((str(item[f"url_{extra}"]) for extra in self.extras if item.get(f"url_{extra}")), None)
            if url is None:
                self.unlisted += 1
                continue
            licence = self.licenses.get(str(item.get("license")), {})
            out.writerow([url, item.get("title", ""), item.get("id", ""), item.get("owner", ""),
                          item.get("license", ""), licence.get("name", ""), licence.get("url", "")])
        return text.getvalue().encode()


def _writer(api: Flickr, args: argparse.Namespace) -> Callable[[list[dict[str, Any]]], bytes]:
    if args.format == "jsonl":
        return lambda items: "".join(dumps_json(item) + "\n" for item in items).encode()
    return _Rows(api, args.size)


def _with_extra(harvest: Harvest, out: IO[bytes], sized: bool, identity: dict[str, int] | None
                ) -> Iterator[dict[str, Any]]:
    """The harvest's items; before each is asked, the output is flushed and its size set as the
    harvest's `extra` (what a resumed run cuts the output back to), with the output's identity."""
    while True:
        out.flush()
        harvest.extra = {"output_bytes": out.tell() if sized else 0,
                         **({"output": identity} if identity is not None else {})}
        item = next(harvest, None)
        if item is None:
            return
        yield item


def run(args: argparse.Namespace) -> int:
    params = parse_pairs(args.params)
    if args.format == "img2dataset":  # the licence of each item, its media and the sizes Flickr lists
        urls = ",".join(f"url_{extra}" for extra in _listed_sizes(args.size))
        params["extras"] = ",".join(filter(None, [params.get("extras", ""), "license", "owner_name", "media", urls]))
    with open_api(args) as api:
        try:
            harvest = api.harvest(args.method, dates=args.dates, min_slice=args.min_slice, checkpoint=args.checkpoint,
                                  shard=args.shard, **params)
        except ValueError as error:
            raise CLIError(str(error)) from None
        extra = harvest.extra
        resumed = "output_bytes" in extra
        written = extra.get("output_bytes", 0)
        if not isinstance(written, int) or isinstance(written, bool) or written < 0:
            raise CLIError(f"{args.checkpoint}: output_bytes is not a size: {written!r:.40}", 1)
        identity: dict[str, int] | None = None
        if args.output:
            out, identity = _open_output(args.output, written, extra.get("output"))
        else:
            out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
            sys.stdout.flush()
        progress = ProgressLine(sys.stderr) if args.progress else None
        with out:
            write = _writer(api, args)
            if args.format == "img2dataset" and not resumed:
                out.write((",".join(IMG2DATASET_COLUMNS) + "\n").encode())
            for count, item in enumerate(_with_extra(harvest, out, bool(args.output), identity), 1):
                # Written and flushed before the next item is asked: the checkpoint the harvest saves
                # when it begins a page then records the output's size at the end of the last one.
                out.write(write([item]))
                if progress is not None and count % PROGRESS_EVERY == 0:
                    report = harvest.report
                    # The rate of this run's items (a resumed harvest's report counts the earlier runs' too).
                    progress.keep(f"harvest: {items(report.items)}, {item_rate(count, progress.elapsed())}, "
                                  f"{report.calls} calls, {report.slices_pending} slices pending")
        if isinstance(write, _Rows) and (write.videos or write.unlisted):
            print(f"flickr: img2dataset: left out {write.videos} videos and {write.unlisted} items with no image "
                  f"size listed up to --size {args.size}", file=sys.stderr, flush=True)
        report = harvest.report
        if args.report:
            print(dumps_json(report.to_json()), file=sys.stderr, flush=True)
    if not report.complete:  # cron must see it: what Flickr would not serve is not in the output
        over = sum(int(entry.get("total", 0)) for entry in report.over_cap)
        print(f"flickr: harvest incomplete: {len(report.over_cap)} slices over the cap ({over} items matched), "
              f"{report.items} items of {report.matched} given, {report.missing} missing; --report tells which",
              file=sys.stderr, flush=True)
        return EXIT_INCOMPLETE
    return 0
