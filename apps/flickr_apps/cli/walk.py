# SPDX-License-Identifier: MIT
"""`flickr walk METHOD key=value ...`: every item of every page, as JSON lines."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flickr.limits import MAX_PER_PAGE

from .common import _whole_number, add_credential_options, add_global_options, dumps_json, open_api, parse_pairs

if TYPE_CHECKING:
    from .common import Subparsers


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "walk", help="print every item of a paged method as JSON lines",
        description="Walk every page of a paged method (flickr.photos.search, flickr.people.getPhotos...) "
        "and print each item as one JSON line.")
    parser.add_argument("method", help="a paged method, e.g. flickr.photos.search")
    parser.add_argument("params", nargs="*", metavar="key=value", help=f"method parameters (per_page defaults to {MAX_PER_PAGE})")
    parser.add_argument("--item-path", help='the item list, e.g. "photos.photo" (default: found automatically)')
    parser.add_argument("--limit", type=_limit, help="stop after this many items")
    add_credential_options(parser)
    add_global_options(parser)
    parser.set_defaults(handler=run)


def _limit(text: str) -> int:
    # A negative limit was taken before: one page asked for, nothing printed, exit 0.
    return _whole_number(text, 0, 2**63 - 1, "items")


def run(args: argparse.Namespace) -> int:
    with open_api(args) as api:
        for count, item in enumerate(api.walk(args.method, item_path=args.item_path, **parse_pairs(args.params))):
            if args.limit is not None and count >= args.limit:
                break
            print(dumps_json(item), flush=True)
    return 0
