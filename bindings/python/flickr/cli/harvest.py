# SPDX-License-Identifier: MIT
"""`flickr harvest METHOD key=value ...`: every result of a search past Flickr's 4,000-result cap,
as JSON lines or as img2dataset's CSV input (url, caption, licence columns)."""
from __future__ import annotations

import argparse
import csv
import io
import os
import sys
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any, Callable

from .._files import open_regular
from .common import (CLIError, _whole_number, add_credential_options, add_global_options, dumps_json, open_api,
                     parse_pairs)

if TYPE_CHECKING:
    from .. import Flickr
    from .._harvest import Harvest
    from .common import Subparsers

#: img2dataset's CSV input: `url` and `caption` (its --url_col and --caption_col), then columns
#: it keeps with --save_additional_columns.
IMG2DATASET_COLUMNS = ["url", "caption", "id", "owner", "license", "license_name", "license_url"]
PROGRESS_EVERY = 500  # items between --progress lines


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
        "img2dataset's CSV. See docs/harvest.md.")
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
    parser.add_argument("--size", default="b", help="image size of the img2dataset URLs (default b: 1024 px)")
    parser.add_argument("--progress", action="store_true", help=f"a line on stderr every {PROGRESS_EVERY} items")
    parser.add_argument("--report", action="store_true", help="the completeness report as JSON on stderr at the end")
    add_credential_options(parser)
    add_global_options(parser)
    parser.set_defaults(handler=run)


def _open_output(path: str, keep: int) -> IO[bytes]:
    """`path` for writing after its first `keep` bytes (what the checkpoint says was written)."""
    try:
        fd = open_regular(path, None, os.O_RDWR | os.O_CREAT, 0o666)  # cut back to `keep`: a file, not a FIFO
    except OSError as error:
        raise CLIError(f"cannot write {path}: {error.strerror}", 1) from None
    out = os.fdopen(fd, "r+b")
    if out.seek(0, os.SEEK_END) < keep:
        out.close()
        raise CLIError(f"{path} is shorter than its checkpoint says: not the harvest's output", 1)
    out.truncate(keep)
    out.seek(keep)
    return out


def _writer(api: Flickr, harvest: Harvest, args: argparse.Namespace) -> Callable[[list[dict[str, Any]]], bytes]:
    if args.format == "jsonl":
        return lambda items: "".join(dumps_json(item) + "\n" for item in items).encode()
    licenses = {str(entry.get("id")): entry for entry in
                api.call("flickr.photos.licenses.getInfo").get("licenses", {}).get("license", [])
                if isinstance(entry, dict)}

    def rows(items: list[dict[str, Any]]) -> bytes:
        text = io.StringIO()
        out = csv.writer(text, lineterminator="\n")
        for item in items:
            licence = licenses.get(str(item.get("license")), {})
            out.writerow([api.photo_url(item, args.size), item.get("title", ""), item.get("id", ""),
                          item.get("owner", ""), item.get("license", ""), licence.get("name", ""),
                          licence.get("url", "")])
        return text.getvalue().encode()
    return rows


def _with_extra(harvest: Harvest, out: IO[bytes], sized: bool) -> Iterator[dict[str, Any]]:
    """The harvest's items; before each is asked, the output is flushed and its size set as the
    harvest's `extra` (what a resumed run cuts the output back to)."""
    while True:
        out.flush()
        harvest.extra = {"output_bytes": out.tell() if sized else 0}
        item = next(harvest, None)
        if item is None:
            return
        yield item


def run(args: argparse.Namespace) -> int:
    params = parse_pairs(args.params)
    if args.format == "img2dataset":  # the licence of each item, and what its URL needs
        params["extras"] = ",".join(filter(None, [params.get("extras", ""), "license", "owner_name"]))
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
        if args.output:
            out = _open_output(args.output, written)
        else:
            out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
            sys.stdout.flush()
        with out:
            write = _writer(api, harvest, args)
            if args.format == "img2dataset" and not resumed:
                out.write((",".join(IMG2DATASET_COLUMNS) + "\n").encode())
            for count, item in enumerate(_with_extra(harvest, out, bool(args.output)), 1):
                # Written and flushed before the next item is asked: the checkpoint the harvest saves
                # when it begins a page then records the output's size at the end of the last one.
                out.write(write([item]))
                if args.progress and count % PROGRESS_EVERY == 0:
                    report = harvest.report
                    print(f"harvest: {report.items} items, {report.calls} calls, {report.slices_pending} slices "
                          "pending", file=sys.stderr, flush=True)
        if args.report:
            print(dumps_json(harvest.report.to_json()), file=sys.stderr, flush=True)
    return 0
