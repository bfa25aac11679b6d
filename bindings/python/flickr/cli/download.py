# SPDX-License-Identifier: MIT
"""`flickr download PHOTO_ID... | --search TEXT | --tags TAGS | --set PHOTOSET_ID [--dest DIR] [--size SIZE]`."""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
from typing import TYPE_CHECKING, Any, BinaryIO, Iterator, Union

from .. import errors, urls
from .._files import finish, temporary_beside
from ..values import text
from .common import (EXIT_FAILURE, CLIError, add_credential_options, add_global_options, dumps_json, open_api,
                     error_text, terminal_safe)

if TYPE_CHECKING:
    from ..client import Flickr
    from .common import Subparsers

# The library's sizes (flickr_photo_source_url), smallest first; "" is Flickr's suffix-less 500 px.
SIZES = ("s", "q", "t", "m", "n", "w", "", "z", "c", "b", "h", "k", "3k", "4k", "5k", "6k", "o")
# From 1600 px up a size has a secret of its own: the photo must carry its url_SIZE.
OWN_SECRET = frozenset({"h", "k", "3k", "4k", "5k", "6k"})


def _size(value: str) -> str:
    size = "" if value == "-" else value
    if size not in SIZES:
        raise argparse.ArgumentTypeError(f"unknown size {value!r}; one of {', '.join(s or '-' for s in SIZES)}")
    return size


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "download", help="download photos by id, search or set into a folder",
        description="Download photo files through the library's photo cache into a folder, named "
        "ID_SIZE.EXT (ID.EXT for the 500 px size). An existing file with the same content is left as it "
        "is; one that differs is not overwritten unless --overwrite says so. A photo that fails is "
        "reported and the others still go. Progress and a summary go to stderr, JSON lines with --json.")
    parser.add_argument("photo_ids", nargs="*", metavar="PHOTO_ID", help="photos to download, by id")
    source = parser.add_argument_group(
        "which photos, instead of ids (through flickr.photos.search or flickr.photosets.getPhotos)")
    source.add_argument("--search", metavar="TEXT", help="photos whose title, description or tags match TEXT")
    source.add_argument("--tags", help="photos with any of these comma-separated tags (with --search: and TEXT)")
    source.add_argument("--set", dest="photoset_id", metavar="ALBUM",
                        help="the photos of an album (photoset): its id, or its URL (which names the owner too)")
    source.add_argument("--owner", metavar="NSID",
                        help="with --set ID: the album's owner, which Flickr requires (default: the album URL's "
                             "owner, else you)")
    source.add_argument("--limit", type=int, metavar="N", help="with --search, --tags or --set: at most N photos")
    parser.add_argument("--dest", default=".", metavar="DIR",
                        help="folder to download into, created when missing (default: the current one)")
    parser.add_argument("--size", type=_size, default="b", metavar="SIZE",
                        help="s 75 px square, q 150 square, t 100, m 240, n 320, w 400, - 500, z 640, c 800, "
                        "b 1024 (default), h 1600, k 2048, 3k, 4k, 5k, 6k, o the original")
    parser.add_argument("--overwrite", action="store_true", help="replace an existing file whose content differs")
    parser.add_argument("--json", action="store_true", help="print one JSON line per photo on stdout")
    add_credential_options(parser)
    add_global_options(parser)
    parser.set_defaults(handler=run)


def _extras(size: str) -> str:
    """What a photo list must carry for `size`, and lastupdate so a replaced photo is not served stale."""
    extras = ["last_update", "original_format"]
    if size in OWN_SECRET:
        extras.append(f"url_{size}")
    return ",".join(extras)


def _album(api: Flickr, given: str, owner: str | None) -> tuple[str, str]:
    """The album id and its owner's NSID: flickr.photosets.getPhotos requires both (flickr.reflection
    says so, and the library's catalogue checks it). A URL names both; an id alone is one of the
    caller's albums unless --owner says whose."""
    set_id = given
    if "/" in given:
        base = api.get_option("base_url")  # a sandbox's album URLs are on the sandbox
        parsed = urls.parse(given, base_url=base if isinstance(base, str) else None)
        if parsed.kind != "album" or not parsed.album_id:
            raise CLIError(f"{given} is not an album URL (https://www.flickr.com/photos/USER/albums/ID)")
        set_id = parsed.album_id
        if not owner and parsed.nsid:
            owner = parsed.nsid
        elif not owner and parsed.path_alias:
            owner = api.urls.lookupUser(url=f"https://www.flickr.com/photos/{parsed.path_alias}/")["user"]["id"]
    if not owner:
        owner = api.test.login()["user"]["id"]
    return set_id, str(owner)


def _listing(api: Flickr, args: argparse.Namespace) -> Iterator[Union[str, dict[str, Any]]]:
    """Photo ids as given, or photo dicts from a search or a set, up to --limit."""
    if args.photo_ids:
        yield from args.photo_ids
        return
    per_page = min(args.limit, 500) if args.limit else None
    if args.photoset_id:
        set_id, owner = _album(api, args.photoset_id, args.owner)
        found = api.walk("flickr.photosets.getPhotos", item_path="photoset.photo", photoset_id=set_id,
                         user_id=owner, extras=_extras(args.size), per_page=per_page)
    else:
        found = api.walk("flickr.photos.search", text=args.search, tags=args.tags, extras=_extras(args.size),
                         per_page=per_page)
    for count, photo in enumerate(found, 1):
        yield photo
        if count == args.limit:
            return  # before the walk asks for a page nobody will read


def _photo_info(api: Flickr, photo_id: str, size: str) -> dict[str, Any]:
    """A photo known by its id, with what fetching `size` needs: getInfo's id, secret, server,
    original secret and format and dates; for a size with a secret of its own, its URL from getSizes."""
    photo: dict[str, Any] = api.call("flickr.photos.getInfo", photo_id=photo_id)["photo"]
    if size in OWN_SECRET:
        suffix = re.compile(rf"_{re.escape(size)}\.\w+$")
        sizes = api.call("flickr.photos.getSizes", photo_id=photo_id)["sizes"].get("size", [])
        for entry in sizes if isinstance(sizes, list) else [sizes]:
            if suffix.search(entry.get("source", "")):
                photo[f"url_{size}"] = entry["source"]
    return photo


def _file_name(photo_id: str, size: str, cached: str) -> str:
    """ID_SIZE.EXT, the extension from the cache's file name (the image's type). Like Flickr's own
    file names, the suffix-less size has none."""
    return (f"{photo_id}_{size}" if size else photo_id) + os.path.splitext(cached)[1]


def _same_content(source: BinaryIO, path: str) -> bool:
    """Whether the open binary file `source` holds the bytes of the file at `path` (read from the start)."""
    if os.fstat(source.fileno()).st_size != os.stat(path).st_size:
        return False
    source.seek(0)
    with open(path, "rb") as other:
        while True:
            mine, theirs = source.read(1 << 16), other.read(1 << 16)
            if mine != theirs:
                return False
            if not mine:
                return True


def _refusal(target: str) -> CLIError:
    return CLIError(f"{target} exists with other content; left as it is (--overwrite replaces it)", EXIT_FAILURE)


def place(source: BinaryIO, target: str, overwrite: bool) -> str:
    """Copies the open binary file `source` to `target`: "downloaded", or "identical" when `target`
    already holds the same bytes. Refuses with CLIError to replace anything else (another file, a
    link) unless `overwrite`. The copy is made beside `target` under a fresh name created
    exclusively, never through a link planted there (_files), and moved into place whole, so an
    interrupted download never leaves a partial file under the name a later run would compare;
    with `overwrite` a link at `target` is itself replaced, its target left as it was."""
    if os.path.lexists(target):
        if _regular_file(target) and _same_content(source, target):
            return "identical"
        if not overwrite:
            raise _refusal(target)
    try:
        with temporary_beside(target) as (out, partial):
            source.seek(0)
            shutil.copyfileobj(source, out)
            finish(out)
            if overwrite:
                os.replace(partial, target)
            else:
                _move_into_free_name(partial, target)
        return "downloaded"
    except FileExistsError:  # the name was taken since the check
        if _regular_file(target) and _same_content(source, target):
            return "identical"
        raise _refusal(target) from None


def _regular_file(path: str) -> bool:
    """A file of its own at `path`, not a link to one: only that is compared (read)."""
    return os.path.isfile(path) and not os.path.islink(path)


def _move_into_free_name(partial: str, target: str) -> None:
    """Puts `partial` at `target` unless `target` exists (FileExistsError): a rename alone would
    replace a file created since the caller looked. A hard link leaves `partial` to the caller."""
    try:
        os.link(partial, target)
        return
    except FileExistsError:
        raise
    except OSError:  # no hard links here (FAT, exFAT, some network file systems)
        pass
    # Claims the name (O_EXCL: not through a link either); empty until the rename, never partial.
    os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666))
    os.replace(partial, target)


def _download(api: Flickr, photo: dict[str, Any], args: argparse.Namespace) -> tuple[str, str]:
    """(status, path) of one photo's file in the destination."""
    photo_id = str(photo.get("id", ""))
    if not re.fullmatch(r"[0-9]+", photo_id):  # it comes from the server, and names a file: digits only
        raise CLIError(f"{photo_id!r} is not a photo id; no file is named after it", EXIT_FAILURE)
    if args.size in OWN_SECRET and not photo.get(f"url_{args.size}"):
        # The library would say the URL cannot be built; the user's question is why it is missing.
        raise CLIError(f"Flickr lists no {args.size} size for it (its original may be smaller, or its owner "
                       "keeps large sizes to themselves)", EXIT_FAILURE)
    cached = api.fetch_photo(photo, args.size)
    target = os.path.join(args.dest, _file_name(photo_id, args.size, str(cached)))
    # Opened at once: the cache may evict the file, but an open file stays readable.
    with open(cached, "rb") as source:
        return place(source, target, args.overwrite), target


def _fetch_one(api: Flickr, item: Union[str, dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    """Downloads one listed photo; its outcome as a JSON-ready record, with the exception under
    "failure" when it failed (a FlickrError, or a CLIError for a local file problem)."""
    photo_id = item if isinstance(item, str) else str(item.get("id", ""))
    record: dict[str, Any] = {"photo_id": photo_id, "title": ""}
    try:
        photo = _photo_info(api, item, args.size) if isinstance(item, str) else item
        record["title"] = text(photo.get("title"))
        record["status"], record["file"] = _download(api, photo, args)
    except (errors.FlickrError, CLIError) as error:
        record["failure"] = error
    except OSError as error:  # the destination: permissions, a full disk...
        record["failure"] = CLIError(f"{error.filename or args.dest}: {error.strerror}", EXIT_FAILURE)
    return record


def _report(args: argparse.Namespace, record: dict[str, Any]) -> None:
    """One photo's outcome: a line on stderr, and a JSON line on stdout with --json."""
    named = record["photo_id"] + (f" ({record['title']})" if record["title"] else "")
    failure = record.pop("failure", None)
    if failure is not None:
        record["error"] = error_text(failure)
        line = f"{named}: {record['error']}"
    elif record["status"] == "identical":
        line = f"{named}: already in {record['file']}"
    else:
        line = f"{named} -> {record['file']}"
    print(terminal_safe(line), file=sys.stderr)
    if args.json:
        print(dumps_json(record), flush=True)


def run(args: argparse.Namespace) -> int:
    listed = bool(args.search or args.tags or args.photoset_id)
    if bool(args.photo_ids) + bool(args.search or args.tags) + bool(args.photoset_id) != 1:
        raise CLIError("say which photos: PHOTO_ID..., --search TEXT and/or --tags TAGS, or --set PHOTOSET_ID")
    if args.limit is not None and (args.limit < 1 or not listed):
        raise CLIError("--limit takes a number from 1, with --search, --tags or --set")
    try:
        os.makedirs(args.dest, exist_ok=True)
    except OSError as error:
        raise CLIError(f"cannot create {args.dest}: {error.strerror}", EXIT_FAILURE) from None
    counts, failures = {"downloaded": 0, "identical": 0, "failed": 0}, []
    with open_api(args) as api:
        try:
            for item in _listing(api, args):
                record = _fetch_one(api, item, args)
                if "failure" in record:
                    failures.append(record["failure"])
                counts[record.get("status", "failed")] += 1
                _report(args, record)
        except errors.FlickrError as error:  # the search or the set itself: nothing more to list
            failures.append(error)
            print(terminal_safe(f"listing the photos failed: {error_text(error)}"), file=sys.stderr)
            if args.json:
                print(dumps_json({"photo_id": None, "error": error_text(error)}), flush=True)
    total = sum(counts.values())
    print(terminal_safe(f"downloaded {counts['downloaded']} of {total} photos into {args.dest}"
                        + (f" ({counts['identical']} already there)" if counts["identical"] else "")), file=sys.stderr)
    if failures:
        raise failures[0]  # the first failure's class decides the exit code, as for uploads
    return 0
