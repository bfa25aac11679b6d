# SPDX-License-Identifier: MIT
"""`flickr call METHOD key=value ... [--post] [--xml|--json]`."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .common import add_credential_options, add_global_options, dumps_json, open_api, parse_pairs, xml_safe

if TYPE_CHECKING:
    from .common import Subparsers


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("call", help="call any Flickr method",
                                   description="Call a Flickr method and print the answer (JSON by default).")
    parser.add_argument("method", help="e.g. flickr.photos.search")
    parser.add_argument("params", nargs="*", metavar="key=value", help="method parameters")
    parser.add_argument("--post", action="store_true",
                        help="use POST whatever the catalogue says (by default the method's own verb: POST for "
                             "Flickr's write and delete methods, GET otherwise)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the mapped answer as JSON (default)")
    output.add_argument("--xml", action="store_true",
                        help="print Flickr's XML as received, but with control and bidirectional formatting "
                             "characters as character references (&#x9b;): the same XML to a parser, "
                             "harmless on a terminal")
    add_credential_options(parser)
    add_global_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    with open_api(args) as api:
        params = parse_pairs(args.params)
        post = True if args.post else None  # None: the catalogue's verb
        if args.xml:
            print(xml_safe(api.call_xml(args.method, post=post, **params)))
        else:
            print(dumps_json(api.call(args.method, post=post, **params), indent=2))
    return 0
