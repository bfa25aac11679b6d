# SPDX-License-Identifier: MIT
"""`flickr upload FILE|DIR... [--recursive] [--skip-existing] [--title T] [--tags T] [--async]` and
`flickr replace FILE PHOTO_ID`."""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from flickr import errors
from flickr.files import kind_of
from flickr.limits import MAX_PER_PAGE, SEARCH_RESULT_CAP
from .checksums import checksum_tag, file_checksum, uploaded_checksums
from .common import (CLIError, EXIT_AUTH, EXIT_FAILURE, add_credential_options, add_global_options, open_api,
                     error_text, terminal_safe)
from .progress import ProgressBar
from .sources import images_in

if TYPE_CHECKING:
    from .common import Subparsers


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "upload", help="upload photos or videos",
        description="Upload files with a progress bar each, then print a summary (and JSON lines with --json). "
        "A directory stands for its image files (JPEG, PNG, GIF, TIFF, HEIC: by extension, else by content), "
        "sorted by name, not hidden ones nor symbolic links leading out of it (see --follow-links); a file "
        "that fails is reported and the others still go.")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="photo or video files to upload, in this order, or directories of images")
    parser.add_argument("-r", "--recursive", action="store_true",
                        help="also upload the images in the subdirectories of a directory")
    parser.add_argument("--follow-links", action="store_true",
                        help="in a directory, also follow symbolic links that lead out of it, and links to "
                             "directories (by default those are left out and listed on stderr: a link may "
                             "point anywhere, and uploads are often public; the exit status stays 0)")
    parser.add_argument("--title", help="title (default: none; Flickr shows the file name)")
    parser.add_argument("--description", help="description (Flickr allows some HTML)")
    parser.add_argument("--tags", help="space-separated tags; quote a tag with spaces in it: '\"new york\" sea'")
    visibility = parser.add_mutually_exclusive_group()
    visibility.add_argument("--public", dest="is_public", action="store_const", const=1,
                            help="visible to everyone (default: your account's setting)")
    visibility.add_argument("--private", dest="is_public", action="store_const", const=0,
                            help="visible to you only, and to friends or family with --friends, --family")
    parser.add_argument("--friends", dest="is_friend", action="store_const", const=1,
                        help="with --private: visible to your friends too")
    parser.add_argument("--family", dest="is_family", action="store_const", const=1,
                        help="with --private: visible to your family too")
    parser.add_argument("--safety-level", type=int, choices=[1, 2, 3],
                        help="1 safe, 2 moderate, 3 restricted (default: your account's setting)")
    parser.add_argument("--content-type", type=int, choices=[1, 2, 3],
                        help="1 photo, 2 screenshot, 3 other: art, illustration... (default: your account's setting)")
    parser.add_argument("--hidden", type=int, choices=[1, 2],
                        help="1 shown in Flickr's public searches, 2 hidden from them "
                        "(default: your account's setting)")
    parser.add_argument("--async", dest="asynchronous", action="store_true",
                        help="let Flickr process the files in the background, then wait for their tickets")
    parser.add_argument("--skip-existing", action="store_true",
                        help="first list the photos of your account that this tool tagged with their content "
                             f"hash (one call per {MAX_PER_PAGE} of them, past Flickr's {SEARCH_RESULT_CAP:,}-result cap), then "
                             "skip the files already there, and repeats of "
                             "a file within this run (said on stderr; JSON lines with \"skipped\")")
    parser.add_argument("--no-checksum-tag", dest="checksum_tag", action="store_false",
                        help="do not add the machine tag libflickr:sha256=HASH (the first 32 hex digits of the "
                             "file's SHA-256) that --skip-existing finds a file by later")
    parser.add_argument("--json", action="store_true", help="print one JSON line per file on stdout")
    add_credential_options(parser)
    add_global_options(parser)
    parser.set_defaults(handler=run_upload)

    replace = subparsers.add_parser("replace", help="replace a photo's image",
                                    description="Replace the image of one of your photos.")
    replace.add_argument("file", metavar="FILE", help="the new image")
    replace.add_argument("photo_id", metavar="PHOTO_ID", help="the photo whose image it becomes")
    replace.add_argument("--json", action="store_true", help="print a JSON line with the photo id on stdout")
    add_credential_options(replace)
    add_global_options(replace)
    replace.set_defaults(handler=run_replace)


def _upload_args(args: argparse.Namespace, checksum: str | None) -> dict[str, Any]:
    tags = args.tags
    if checksum is not None and args.checksum_tag:
        tags = f"{tags} {checksum_tag(checksum)}" if tags else checksum_tag(checksum)
    fields = {"title": args.title, "description": args.description, "tags": tags,
              "is_public": args.is_public, "is_friend": args.is_friend, "is_family": args.is_family,
              "safety_level": args.safety_level, "content_type": args.content_type, "hidden": args.hidden}
    if args.asynchronous:
        fields["async"] = 1
    return {k: v for k, v in fields.items() if v is not None}


def _missing(paths: list[str], wanted: str = "a file or a folder") -> str:
    """What is wrong with paths that are neither a file nor a folder: absent, or a FIFO, a device... (before, a FIFO
    was "no such file")."""
    absent = [p for p in paths if not os.path.lexists(p)]
    other = [f"{p} ({kind_of(os.stat(p))})" for p in paths if os.path.exists(p)]
    broken = [f"{p} (a link to nothing)" for p in paths if os.path.lexists(p) and not os.path.exists(p)]
    return "; ".join(([f"no such file: {', '.join(absent)}"] if absent else [])
                     + ([f"not {wanted}: {', '.join(other + broken)}"] if other or broken else []))


def _sources(paths: list[str], recursive: bool, follow_links: bool = False) -> list[str]:
    """The files to upload, in order: each file as given, each directory's images in its place.
    Everything is checked before anything is sent, so a typo uploads nothing. What a directory's
    walk passed over is said on stderr; links left out by policy do not change the exit status."""
    missing = [p for p in paths if not os.path.isfile(p) and not os.path.isdir(p)]
    if missing:
        raise CLIError(_missing(missing))
    files = []
    for path in paths:
        if not os.path.isdir(path):
            files.append(path)
            continue
        try:
            found = images_in(path, recursive, follow_links)
        except OSError as error:
            raise CLIError(f"cannot read the directory {error.filename or path}: {error.strerror}",
                           EXIT_FAILURE) from None
        if found.others or not found.images:
            print(terminal_safe(f"{path}: {len(found.images)} images; {found.others} other files left out"),
                  file=sys.stderr)
        if found.repeats:
            print(terminal_safe(f"{path}: {found.repeats} images reached again through a link, sent once"),
                  file=sys.stderr)
        if found.links_out:
            print(terminal_safe(f"{path}: {len(found.links_out)} symbolic links leading out of it left out "
                                "(--follow-links sends them):"), file=sys.stderr)
            for link in found.links_out:
                print("  " + terminal_safe(f"{link} -> {_link_target(link)}"), file=sys.stderr)
        files.extend(found.images)
    if not files:
        raise CLIError("no image files to upload")
    return files


def _link_target(link: str) -> str:
    try:
        return os.readlink(link)
    except OSError as error:  # gone since the walk
        return f"({error.strerror})"


def _checksum(path: str) -> str | None:
    """None for a file that cannot be read: its upload says why."""
    try:
        return file_checksum(path)
    except OSError:
        return None


def run_upload(args: argparse.Namespace) -> int:
    files = _sources(args.files, args.recursive, args.follow_links)
    succeeded, failed = [], []
    skipped = 0
    with open_api(args) as api:
        if not api.get_option("oauth_token"):
            raise CLIError("uploading needs a login: run `flickr auth login --perms write`", EXIT_AUTH)
        # {checksum: photo id} of what the account holds, and of what this run sends.
        held, complete = uploaded_checksums(api) if args.skip_existing else ({}, True)
        if not complete:  # a slice over the cap even at one minute and licence, or counts that moved
            print("flickr: not every photo tagged with its checksum could be listed (Flickr did not serve them all): "
                  "files already uploaded may be sent again", file=sys.stderr)
        for path in files:
            name = os.path.basename(path)
            checksum = _checksum(path) if args.skip_existing or args.checksum_tag else None
            if args.skip_existing and checksum in held:
                skipped += 1
                if args.json:
                    print(json.dumps({"file": path, "skipped": "already uploaded", "photo_id": held[checksum]}))
                continue
            try:
                answer = api.upload(path, progress=ProgressBar(name), **_upload_args(args, checksum))
                if "ticketid" in answer:
                    photo_id = api.wait_ticket(answer["ticketid"]["_text"])
                else:
                    photo_id = answer["photoid"]["_text"]
                succeeded.append((path, photo_id))
                if checksum is not None:
                    held.setdefault(checksum, photo_id)
                if args.json:
                    print(json.dumps({"file": path, "photo_id": photo_id}))
            except errors.FlickrError as error:
                failed.append((path, error))
                print(terminal_safe(f"{name}: {error_text(error)}"), file=sys.stderr)
                if args.json:
                    print(json.dumps({"file": path, "error": error_text(error), "code": error.code,
                                      "api_code": error.api_code}))
    if args.skip_existing:
        print(f"{skipped} already on Flickr, skipped", file=sys.stderr)
    print(terminal_safe(f"uploaded {len(succeeded)} of {len(files) - skipped} files")
          + "".join("\n  " + terminal_safe(f"{p} -> {i}") for p, i in succeeded)
          + "".join("\n  " + terminal_safe(f"{p}: failed: {error_text(e)}") for p, e in failed), file=sys.stderr)
    if failed:
        # The first failure's class decides the exit code, like a single call would.
        raise failed[0][1]
    return 0


def run_replace(args: argparse.Namespace) -> int:
    if not os.path.isfile(args.file):
        raise CLIError(_missing([args.file], "a file"))
    with open_api(args) as api:
        answer = api.replace(args.file, args.photo_id, progress=ProgressBar(os.path.basename(args.file)))
        photo_id = answer["photoid"]["_text"]
        if args.json:
            print(json.dumps({"file": args.file, "photo_id": photo_id}))
        else:
            print(terminal_safe(f"replaced the image of photo {photo_id}"), file=sys.stderr)
    return 0
