# SPDX-License-Identifier: MIT
"""`flickr download PHOTO_ID... | --search TEXT | --tags TAGS | --set PHOTOSET_ID [--dest DIR] [--size SIZE]`."""
from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import re
import shutil
import sys
import tempfile
from typing import TYPE_CHECKING, Any, Iterator, NamedTuple, Union

from flickr import errors, urls
from flickr.files import kind_of
from flickr.limits import MAX_PER_PAGE
from .._media import types as media_types
from .._media.fetcher import Fetcher, refuses_size
from .._media.sizes import CODES, NOT_OFFERED, ORIGINALS, Candidate, Sizes, number
from flickr.values import text
from .place import place
from .progress import ProgressLine, items, rate, size
from .common import (EXIT_API, EXIT_FAILURE, CLIError, add_credential_options, add_global_options, dumps_json, open_api,
                     error_text)

if TYPE_CHECKING:
    from flickr.client import Flickr
    from .common import Subparsers

_MISSING = "its original is smaller, or its owner keeps large sizes to themselves"


def _size(value: str) -> str:
    size = "" if value == "-" else value
    if size not in CODES:
        raise argparse.ArgumentTypeError(f"unknown size {value!r}; one of {', '.join(s or '-' for s in CODES)}")
    return size


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "download", help="download photos and videos by id, search or set into a folder",
        description="Download photo and video files into a folder, named ID_SIZE.EXT (ID.EXT for the 500 px "
        "size). Files of any size stream to disk (a private folder inside DIR while they arrive), never through "
        "the bounded photo cache. A photo without the size asked for gets the largest it has below it (an "
        "original Flickr refuses to this account: the largest it allows), and says why; --exact-size fails it "
        "instead. A video is its video file, never a poster frame: with --size o its original (\"Video "
        "Original\") where Flickr offers it, else the largest video file; with another size the largest video "
        "file whose longest side is at most that size's (b: 1024 px; the smallest file when none is). An "
        "existing file with the same content is left as it is; one that differs is not overwritten unless "
        "--overwrite says so. A photo that fails is reported and the others still go. Progress and a summary "
        "go to stderr, JSON lines with --json (with the size taken, Flickr's label for it, why when it is "
        "not the one asked for, and the file's bytes).")
    parser.add_argument("photo_ids", nargs="*", metavar="PHOTO_ID", help="photos or videos to download, by id")
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
                        "b 1024 (default), h 1600, k 2048, 3k, 4k, 5k, 6k, o the original; or the largest "
                        "below it that the photo has")
    parser.add_argument("--exact-size", action="store_true",
                        help="only SIZE itself: a photo without it fails (exit code 1; 4 when the image host "
                        "refuses it) instead of taking a smaller one")
    parser.add_argument("--overwrite", action="store_true", help="replace an existing file whose content differs")
    parser.add_argument("--json", action="store_true", help="print one JSON line per photo on stdout")
    add_credential_options(parser)
    add_global_options(parser)
    parser.set_defaults(handler=run)


def _extras(size: str) -> str:
    """What a photo list must carry: the url_* of every size up to `size` (Flickr lists only those
    the photo has and the caller may download), the media, and the original's format."""
    return "last_update,original_format,media," + Sizes.extras_up_to(size)


class Item(NamedTuple):
    """A photo or video to fetch: its attributes, and the files it offers, largest first."""
    photo: dict[str, Any]
    candidates: list[Candidate]

    @property
    def video(self) -> bool:
        return self.photo.get("media") == "video"


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
    per_page = min(args.limit, MAX_PER_PAGE) if args.limit else None
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


def _item(api: Flickr, given: Union[str, dict[str, Any]]) -> Item:
    """A listed photo with the files it offers: a photo list's url_* extras, or getSizes (a photo
    known by its id, whose getInfo says nothing of its sizes; a video, whose files only it lists)."""
    photo = api.call("flickr.photos.getInfo", photo_id=given).get("photo") if isinstance(given, str) else given
    if not isinstance(photo, dict):
        raise CLIError("flickr.photos.getInfo answered without a photo", EXIT_API)
    photo_id = str(photo.get("id", ""))
    if not re.fullmatch(r"[0-9]+", photo_id):  # it comes from the server, and names a file: digits only
        raise CLIError(f"{photo_id!r} is not a photo id; no file is named after it", EXIT_FAILURE)
    video = photo.get("media") == "video"
    listed = [] if isinstance(given, str) or video else Sizes.from_listing(photo)
    if listed:
        return Item(photo, listed)
    # By id, a video, or a listing without the extras (a server that ignores them): getSizes.
    return Item(photo, Sizes.from_get_sizes(api.call("flickr.photos.getSizes", photo_id=photo_id), video))


def _missing(size: str, video: bool, exact: bool = False) -> str:
    """Why an item has no file of `size` (with --exact-size: of that size itself)."""
    if size == "o":
        return NOT_OFFERED
    if video and exact:
        return f"no video file of it is {Sizes.size(size).edge} px on its longest side (--size o: its original)"
    if video:
        return f"no video file of it is {Sizes.size(size).edge} px or smaller; its smallest is taken"
    return f"Flickr lists no {size or '-'} size for it ({_MISSING})"


def _choices(item: Item, size: str, exact: bool) -> list[Candidate]:
    """The files to try in turn: `size` itself with --exact-size, else it or the largest below it."""
    if exact:
        found = Sizes.exactly(item.candidates, size, item.video)
        if not found:
            raise CLIError(_missing(size, item.video, exact=True), EXIT_FAILURE)
        return found
    found = Sizes.up_to(item.candidates, size, item.video)
    if not found:
        raise CLIError("Flickr lists no video file for it (still processing?)" if item.video else
                       f"Flickr lists no size of it up to {size or '-'}", EXIT_FAILURE)
    return found


def _why(item: Item, size: str, taken: Candidate, refused: list[str]) -> str:
    """Why the file taken is not the size asked for ("" when it is)."""
    if item.video:
        asked = taken.label in ORIGINALS if size == "o" else taken.edge <= Sizes.size(size).edge
    else:
        asked = taken.label == Sizes.size(size).label
    if asked and not refused:
        return ""
    if refused and (asked or Sizes.exactly(item.candidates, size, item.video)):
        return "refused when fetched: " + "; ".join(refused)
    return _missing(size, item.video) + (f" (refused: {'; '.join(refused)})" if refused else "")


def _file_name(photo_id: str, taken: Candidate, fetched: str) -> str:
    """ID_SIZE.EXT (like Flickr's own file names, the suffix-less 500 px size has no _SIZE); a
    video's files other than its original go by their label (ID_site-mp4.mp4). EXT is the media
    type's, read from the file's bytes (never from its URL: one ending in .html would make a page)."""
    code = Sizes.code_of(taken)
    try:
        ext = media_types.of_path(fetched).extension
    except media_types.UnknownMedia as error:
        raise CLIError(str(error), EXIT_FAILURE) from None
    return (f"{photo_id}_{code}" if code else photo_id) + "." + ext


def _download(fetcher: Fetcher, item: Item, args: argparse.Namespace) -> dict[str, Any]:
    """One item's file in the destination: its status, path, size and why it is not the size asked for."""
    photo_id = str(item.photo["id"])  # digits: _item checked it
    refused: list[str] = []
    for candidate in _choices(item, args.size, args.exact_size):
        try:
            fetched = str(fetcher.fetch_now(photo_id, number(item.photo.get("lastupdate")), candidate))
        except errors.FlickrError as error:
            # A size the image host refuses or lacks: the next one down (not with --exact-size).
            if args.exact_size or not refuses_size(error):
                raise
            refused.append(f"{candidate.label}: {error_text(error)}")
            last: Exception = error
            continue
        target = os.path.join(args.dest, _file_name(photo_id, candidate, fetched))
        record = {"status": place(fetched, target, args.overwrite), "file": target,
                  "size": Sizes.code_of(candidate) or "-", "label": candidate.label, "bytes": _bytes_of(target)}
        why = _why(item, args.size, candidate, refused)
        return record | ({"why": why} if why else {})
    raise last


def _fetch_one(api: Flickr, fetcher: Fetcher, given: Union[str, dict[str, Any]],
               args: argparse.Namespace) -> dict[str, Any]:
    """Downloads one listed photo; its outcome as a JSON-ready record, with the exception under
    "failure" when it failed (a FlickrError, or a CLIError for a local file problem)."""
    photo_id = given if isinstance(given, str) else str(given.get("id", ""))
    record: dict[str, Any] = {"photo_id": photo_id, "title": "" if isinstance(given, str) else text(given.get("title"))}
    try:
        item = _item(api, given)
        record["title"] = text(item.photo.get("title"))
        record.update(_download(fetcher, item, args))
    except (errors.FlickrError, CLIError) as error:
        record["failure"] = error
    except OSError as error:  # the destination: permissions, a full disk...
        record["failure"] = CLIError(f"{error.filename or args.dest}: {error.strerror}", EXIT_FAILURE)
    return record


def _bytes_of(path: str) -> int:
    """The file's size, for the progress line and --json (0 if it cannot be told)."""
    try:
        return os.stat(path, follow_symlinks=False).st_size
    except OSError:
        return 0


def _report(args: argparse.Namespace, record: dict[str, Any], progress: ProgressLine) -> None:
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
    if record.get("why"):
        line += f" ({record['label']}, not {args.size or '-'}: {record['why']})"
    progress.keep(line)
    if args.json:
        print(dumps_json(record), flush=True)


# The private folder a download fetches into; one left by a killed run is removed by the next.
_FOLDER_PREFIX = ".flickr-download-"


@contextlib.contextmanager
def _fetcher(api: Flickr, dest: str) -> Iterator[Fetcher]:
    """A fetch context whose cache is a private folder inside `dest` (0700, a fresh name: nothing
    planted in it), on the destination's file system so that placing a file is a rename; removed
    with whatever a failed fetch left in it."""
    _remove_abandoned_folders(dest)
    try:
        folder = tempfile.mkdtemp(prefix=_FOLDER_PREFIX, dir=dest)
        held = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as error:
        raise CLIError(f"cannot create a folder in {dest}: {error.strerror}", EXIT_FAILURE) from None
    fetcher = None
    try:
        fcntl.flock(held, fcntl.LOCK_EX)  # a fresh folder: nobody else can hold it yet
        fetcher = Fetcher(api, folder, 1)
        yield fetcher
    finally:
        if fetcher is not None:
            fetcher.close()
        shutil.rmtree(folder, ignore_errors=True)
        os.close(held)


def _remove_abandoned_folders(dest: str) -> None:
    """Removes what a run killed part-way left in `dest`: its private folders whose lock nobody
    holds (a running download holds its own). Only real folders of this tool's naming, owned by
    this user, are touched; links are never followed (rmtree works from descriptors)."""
    try:
        names = [name for name in os.listdir(dest) if name.startswith(_FOLDER_PREFIX)]
    except OSError:
        return
    for name in names:
        path = os.path.join(dest, name)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:  # a link, a file, or gone
            continue
        try:
            if os.fstat(fd).st_uid != os.geteuid():
                continue
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held: another download is using it
            os.close(fd)
            continue
        try:
            shutil.rmtree(path, ignore_errors=True)
        finally:
            os.close(fd)


def run(args: argparse.Namespace) -> int:
    listed = bool(args.search or args.tags or args.photoset_id)
    if bool(args.photo_ids) + bool(args.search or args.tags) + bool(args.photoset_id) != 1:
        raise CLIError("say which photos: PHOTO_ID..., --search TEXT and/or --tags TAGS, or --set PHOTOSET_ID")
    if args.limit is not None and (args.limit < 1 or not listed):
        raise CLIError("--limit takes a number from 1, with --search, --tags or --set")
    try:
        os.makedirs(args.dest, exist_ok=True)
    except FileExistsError:  # something else than a folder stands there ("File exists" said nothing of it)
        raise CLIError(f"--dest {args.dest} is not a folder ({kind_of(os.lstat(args.dest))})", EXIT_FAILURE) from None
    except OSError as error:
        raise CLIError(f"cannot create {args.dest}: {error.strerror}", EXIT_FAILURE) from None
    counts, failures, smaller, fetched = {"downloaded": 0, "identical": 0, "failed": 0}, [], 0, 0
    progress = ProgressLine(sys.stderr)
    with open_api(args) as api, _fetcher(api, args.dest) as fetcher:
        try:
            for item in _listing(api, args):
                record = _fetch_one(api, fetcher, item, args)
                if "failure" in record:
                    failures.append(record["failure"])
                counts[record.get("status", "failed")] += 1
                smaller += bool(record.get("why"))
                fetched += record.get("bytes", 0) if record.get("status") == "downloaded" else 0
                _report(args, record, progress)
                progress.show(f"{items(sum(counts.values()))}, {size(fetched)}, {rate(fetched, progress.elapsed())}")
        except errors.FlickrError as error:  # the search or the set itself: nothing more to list
            failures.append(error)
            progress.keep(f"listing the photos failed: {error_text(error)}")
            if args.json:
                print(dumps_json({"photo_id": None, "error": error_text(error)}), flush=True)
    total = sum(counts.values())
    progress.keep(f"downloaded {counts['downloaded']} of {total} photos into {args.dest}"
                  + (f" ({counts['identical']} already there)" if counts["identical"] else "")
                  + (f"; {smaller} not at size {args.size or '-'} (see why above)" if smaller else "")
                  + f"; {size(fetched)}, {rate(fetched, progress.elapsed())}")
    if failures:
        raise failures[0]  # the first failure's class decides the exit code, as for uploads
    return 0
