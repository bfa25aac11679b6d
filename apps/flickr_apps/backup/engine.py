# SPDX-License-Identifier: MIT
"""`Backup`: a whole account into a directory; the engine of `flickr backup` (docs/backup.md).

A run: lock DIR, list the account (N/500 calls), compare with the state database, list the
albums (and collections), then work through the items that need it, `concurrency` at a time
(ItemJob), and write the album folders and the indexes. Every item's outcome is committed as it
comes, so a run stopped anywhere (Ctrl-C, kill -9, a power cut) is resumed by the next.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import stat
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable, Optional

from flickr import errors
from .albums import Albums
from .embed import EMBEDDED, NO_COPY
from .._media.sizes import number
from .calls import Calls
from .._media.fetcher import Fetcher, cache_temporary
from .fields import one_text
from .indexes import Indexes
from .job import ItemFailed, ItemJob, ItemPending, asked_details, missing_details
from .export.mapping import FROM_EXPORT
from .layout import ALBUMS, COLLECTIONS, STATE_DIR, UNDATED, VIEWER, Layout, own_temporary
from .licences import Licences
from .listing import Listing, lastupdate
from .lock import DirLock
from .options import Options
from .report import Report
from .safedir import DiskFull, PlantedLink, SafeDir, disk_full
from .state import State

if TYPE_CHECKING:
    from flickr.client import Flickr

#: Receives the run's events, one dict each (docs/backup.md, "Progress events").
ProgressCallback = Callable[[dict[str, Any]], None]
CACHE = "cache"
# What a change to decides between a new file and a new sidecar (docs/backup.md, "Incremental").
_META = ("title", "description", "tags", "machine_tags", "license", "datetaken", "datetakengranularity",
         "datetakenunknown", "latitude", "longitude", "accuracy", "place_id", "ispublic", "isfriend", "isfamily")
_CONTENT = ("media", "originalformat", "o_width", "o_height", "secret", "originalsecret", "server")
_SLACK = 300  # seconds before the last run's start that recentlyUpdated looks back (clock skew)


class Backup:
    """``Backup(client, directory, **options).run(progress=callback)`` -> Report.

    `client` is a Flickr object with a login (read) for the account's own items, or any for
    ``user=`` (public items). Options: see `Options`. The client's settings are not changed;
    media are fetched through a context of the backup's own (see fetcher.py).
    """

    job_class: type[ItemJob] = ItemJob  # an item's work: ExportJob takes its file from an export instead

    def __init__(self, client: "Flickr", directory: str | os.PathLike[str], **options: Any) -> None:
        self.client = client
        self.directory = os.fspath(directory)
        self.options = Options(**options)
        if not 1 <= self.options.concurrency <= 64:
            raise ValueError("concurrency is 1 to 64")
        self.report = Report(dir=self.directory)
        self.calls = Calls(client)
        self.licences = Licences()
        self._memberships: dict[str, list[dict[str, str]]] = {}
        self.account: dict[str, Any] = {}
        self._progress: Optional[ProgressCallback] = None
        self.root: SafeDir
        self.state: State
        self.fetcher: Fetcher
        self.files: ThreadPoolExecutor
        self.cache: str  # .flickr-backup/cache: files on their way into place

    # -- the run ----------------------------------------------------------

    def run(self, progress: Optional[ProgressCallback] = None) -> Report:
        try:
            return self._run_in_place(progress)
        except Exception as error:
            if disk_full(error):  # anywhere: a file, a rename, the state database, the download cache
                raise DiskFull(self.directory) from error
            raise

    def _run_in_place(self, progress: Optional[ProgressCallback]) -> Report:
        self._progress = progress
        self.report.started = time.time()
        with contextlib.ExitStack() as cleanup:
            self.root = cleanup.enter_context(SafeDir.open_root(self.directory))
            state_dir = cleanup.enter_context(self.root.subdir(STATE_DIR))
            cleanup.callback(DirLock(state_dir).release)
            self.state = State.open(state_dir)
            cleanup.callback(self.state.close)
            _check_plain_dir(state_dir, CACHE)
            self._remove_leftovers(state_dir)
            self.cache = os.path.join(state_dir.path, CACHE)
            self._open_client(cleanup)
            # Checksums, fsyncs and renames: on threads, so that one disk flush does not hold up the rest.
            self.files = ThreadPoolExecutor(self.options.concurrency, thread_name_prefix="flickr-backup")
            try:
                self._run()
            finally:
                self.files.shutdown(wait=True, cancel_futures=True)
                self._finish()
        return self.report

    def _open_client(self, cleanup: contextlib.ExitStack) -> None:
        """The API side of the run: the key's budget and the files' fetcher (an export has neither)."""
        self.calls.on_wait = lambda resume, why: self._emit("wait", resume=round(resume, 3), reason=str(why))
        if self.options.budget and not self.client.get_option("budget_per_hour"):
            # The key's budget, for this run, when the caller's client has none (docs/budget.md).
            self.client.set_option("budget_per_hour", self.options.budget)
            cleanup.callback(self.client.set_option, "budget_per_hour", 0)
        self.fetcher = Fetcher(self.client, self.cache, self.options.concurrency)
        cleanup.callback(self.fetcher.close)

    def _run(self) -> None:
        run = self.state.run_started()
        self._run_id = run
        listing = Listing(self.calls, self.options.user)
        self._listing = listing
        self.report.user = listing.who()
        previous_user = self.state.meta("user")
        if previous_user is not None and previous_user != self.report.user:
            raise errors.StateError(errors.ESTATE, f"this directory holds the backup of {previous_user}, not "
                                    f"{self.report.user}: use another directory")
        self.state.set_meta("user", self.report.user)
        listing_started = int(time.time())
        account = self.account = listing.account()
        self.licences.load(self.calls)
        self._list(listing)
        self._check_files()
        self._embed_missing()
        if self.options.albums:
            self._albums(listing)
        self._fill_details()
        self._work()
        if self.options.albums:
            Albums(self).write()
        Indexes(self).write(account)
        self.state.set_meta("last_run", str(listing_started))

    def _finish(self) -> None:
        if hasattr(self, "_listing"):
            self.report.notes += self._listing.notes
        self.report.notes += self.root.odd  # a FIFO (or the like) that stood at a final name
        self.report.ended = time.time()
        self.report.api_calls = self.calls.total
        self.report.api_calls_by_method = dict(self.calls.by_method)
        if hasattr(self, "_run_id"):
            self.state.run_ended(self._run_id, self.report.as_dict())
        self._emit("end", report=self.report.as_dict())

    def _emit(self, event: str, **fields: Any) -> None:
        if self._progress is not None:
            self._progress({"event": event, "api_calls": self.calls.total, **fields})

    # -- listing ----------------------------------------------------------

    def _list(self, listing: Listing) -> None:
        last_run = self.state.meta("last_run")
        found = listing.recently_updated(int(last_run) - _SLACK) if last_run is not None else None
        for photo in found or []:
            if isinstance(photo, dict):
                self._note(photo)  # what changed, with its fresh extras; the listing below agrees
        if self.options.quick and found is not None:
            self.report.mode = "quick"
            self.report.listed = len(found)
            self._emit("listed", items=self.report.listed)
            return
        seen = set()
        for photo in listing.items(lambda page, pages: self._emit("listing", page=page, pages=pages)):
            if not isinstance(photo, dict):
                continue
            seen.add(str(photo.get("id")))
            self._note(photo)
        self.report.listed = len(seen)
        announced = listing.total()
        if len(seen) < announced:  # a page lost (an empty page 2, an error answered as a page): nothing is gone
            self.report.notes.append(f"the listing gave {len(seen)} of the {announced} items it announced: "
                                     "nothing was marked deleted on Flickr and nothing pruned this run")
            self._emit("listed", items=self.report.listed, deleted=0)
            return
        gone = sorted(self.state.ids() - seen)
        self.state.mark_deleted(gone)
        self.report.deleted = gone
        if self.options.prune:
            for item_id in self.state.deleted_ids():  # found in this run or kept by an earlier one
                self._prune(item_id)
        self._emit("listed", items=self.report.listed, deleted=len(gone))

    def _note(self, photo: dict[str, Any]) -> None:
        """One listed item against the state: new, unchanged, or changed (and how)."""
        try:
            item_id = Layout.base(str(photo.get("id")), "").split("_")[0]
        except ValueError:
            self.report.failed.append({"id": str(photo.get("id"))[:40], "title": "", "error": "not a Flickr id"})
            return
        row = self.state.item(item_id)
        stamp = lastupdate(photo)
        if row is None:
            self.state.add(item_id, photo, stamp)
            self.report.new += 1
            return
        before = json.loads(row["listed"])
        need: Optional[str]
        if before.get(FROM_EXPORT):
            need = export_need(before, photo)  # first listed since an export: its file is Flickr's original
        elif _content(before) != _content(photo):
            need = "media"
        elif self.options.recheck and row["lastupdate"] != stamp:
            need = "check"
        elif any(_meta(before, key) != _meta(photo, key) for key in _META):
            need = "sidecar"  # seen even when last_update did not move (a change within its second)
        elif row["lastupdate"] != stamp:
            need = "check"  # nothing in the listing says what changed: a replace keeps its URLs
        else:
            need = None  # unchanged (or back after a listing that missed it)
        self.state.relist(item_id, photo, stamp, need)
        if need is not None:
            self.report.changed += 1

    def _check_files(self) -> None:
        """Every recorded file still there with its size (a stat each, no read): one that is missing,
        or truncated, or replaced by a link, is made again by this run (--verify reads them all)."""
        by_folder: dict[str, list[Any]] = {}
        for record in self.state.files():
            by_folder.setdefault(str(record["path"]).rpartition("/")[0], []).append(record)
        for folder, records in by_folder.items():
            try:
                where: Optional[SafeDir] = self.root.subdir(*folder.split("/"), create=False)
            except (OSError, ValueError):
                where = None
            for record in records:
                found = where.lstat(str(record["path"]).rpartition("/")[2]) if where is not None else None
                if found is None or not stat.S_ISREG(found.st_mode) or found.st_size != record["size"]:
                    self.state.raise_need(record["item"], "media" if record["kind"] == "media" else "sidecar")
                    self.report.notes.append(f"{record['path']} was missing or changed: made again")
            if where is not None:
                where.close()

    def _embed_missing(self) -> None:
        """--embedded-copies given to an archive made without it: each JPEG already done gets its copy
        (its sidecars written again, no call); one refused a copy once (not JPEG inside) is not asked again."""
        if not self.options.embedded:
            return
        refused = set(json.loads(self.state.meta(NO_COPY) or "[]"))
        copied = {str(record["item"]) for record in self.state.files() if record["kind"] == "embedded"}
        wanted = [str(row["id"]) for row in self.state.items() if not row["deleted"] and str(row["media"] or "")
                  .endswith(".jpg") and str(row["id"]) not in copied | refused]
        for item_id in wanted:
            self.state.raise_need(item_id, "sidecar")
        if wanted:
            self.report.notes.append(f"--embedded-copies: {len(wanted)} items done before get their copy")

    def _prune(self, item_id: str) -> None:
        for record in self.state.files(item_id):
            folder, _, name = record["path"].rpartition("/")
            try:
                with self.root.subdir(*folder.split("/"), create=False) as where:
                    where.remove(name)
            except (OSError, ValueError):
                pass
        self.state.forget(item_id)
        self.report.pruned.append(item_id)

    # -- albums -----------------------------------------------------------

    def _albums(self, listing: Listing) -> None:
        try:
            found = listing.albums()
        except errors.APIError as error:
            self.report.notes.append(f"albums not listed: {error}")
            return
        seen = set()
        stale = []
        for album in found:
            known = self.state.album(str(album.get("id")))
            updated = str(album.get("date_update", ""))
            if known is None or known["updated"] != updated or not updated:
                stale.append(str(album.get("id")))
        members_of = listing.album_members(stale, self.options.concurrency)
        for album in found:
            album_id = str(album.get("id"))
            seen.add(album_id)
            known = self.state.album(album_id)
            members = json.loads(known["members"]) if known is not None else []
            listed = members_of.get(album_id, members)
            if isinstance(listed, errors.APIError):
                self.report.notes.append(f"album {album_id} not listed: {listed}")
                continue
            try:
                folder = known["folder"] if known is not None else Layout.album_folder(album_id, album.get("title"))
            except ValueError:
                continue  # not an id: no folder is named after it
            self.state.put_album(album_id, "album", folder, str(album.get("date_update", "")), album, listed)
        self.report.albums = len(seen)
        collections = listing.collections()
        if collections is not None:
            Albums.store_collections(self.state, collections)
            self.report.collections = len(self.state.albums("collection"))
        self._load_memberships()

    def _load_memberships(self) -> None:
        """Each item's albums from the stored albums; an item whose albums changed gets new sidecars."""
        self._memberships = {}
        for row in self.state.albums("album"):
            info = json.loads(row["info"])
            for member in json.loads(row["members"]):
                self._memberships.setdefault(member, []).append(
                    {"id": row["id"], "title": one_text(info.get("title")), "folder": row["folder"]})
        for item in self.state.items():
            wanted = json.dumps(sorted(a["id"] for a in self._memberships.get(item["id"], [])))
            if item["albums"] != wanted:
                self.state.set_albums(item["id"], json.loads(wanted))
                if item["need"] == "":
                    self.state.need(item["id"], "sidecar")

    def albums_of(self, item_id: str) -> list[dict[str, str]]:
        return self._memberships.get(item_id, [])

    # -- the items --------------------------------------------------------

    def _fill_details(self) -> None:
        """--info, --comments or --exif added to an existing backup: the items done before get them too
        (their sidecars are written again with the answers), and the report says what that costs."""
        filled = [row["id"] for row in self.state.items()
                  if row["need"] == "" and not row["deleted"] and missing_details(json.loads(row["details"]), self.options)]
        for item_id in filled:
            self.state.need(item_id, "sidecar")
        if filled:
            per_item = len(asked_details(self.options))
            self.report.notes.append(f"{len(filled)} items backed up before are filled with the per-item answers now "
                                     f"asked for: {len(filled) * per_item} calls ({per_item} an item)")

    def _work(self) -> None:
        rows = self.state.to_do()
        self.report.to_do = len(rows)
        self._emit("work", items=len(rows))
        self._finished = 0
        # An event loop of its own, run here, rather than asyncio.run: no SIGINT handler of asyncio's,
        # so that a Ctrl-C raises KeyboardInterrupt at once wherever the run is, in a budget wait too.
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(self._items(list(reversed(rows)), len(rows)))  # popped: newest first
        except BaseException:
            self.report.interrupted = True
            _cancel_all(loop)  # each item's futures with it: its requests in flight are aborted
            raise
        finally:
            loop.close()

    async def _items(self, queue: list[Any], total: int) -> None:
        """`concurrency` items at once: each worker takes the next row as its item ends."""
        async def worker() -> None:
            while queue:
                job = self.job_class(self, queue.pop())
                await self._advance(job)
                self._finished += 1
                self._item_event(job, self._finished, total)

        await asyncio.gather(*(worker() for _ in range(min(self.options.concurrency, len(queue)))))

    async def _advance(self, job: ItemJob) -> None:
        """Runs the job to its end; what it raises is its own failure (but a full disk: the run's)."""
        try:
            await job.work()
            self.report.done += 1
        except ItemPending as why:
            self.report.pending.append({"id": job.id, "title": job.title, "why": str(why)})
            job.pending = True
        except Exception as error:  # noqa: BLE001: one item's failure, whatever it is, is that item's alone
            if disk_full(error):
                raise  # not this item's failure: the run stops (run() says so)
            if isinstance(error, (ItemFailed, errors.FlickrError, PlantedLink, ValueError)):
                message = str(error)
            elif isinstance(error, OSError):
                message = f"{error.filename}: {error.strerror}" if error.filename else str(error)
            else:  # a bug, or an answer no check foresaw: the run goes on, the item is retried next run
                message = f"unexpected {type(error).__name__}: {error}"
            self.state.failed(job.id, message)
            self.report.failed.append({"id": job.id, "title": job.title, "error": message})
            job.failure = message

    def _item_event(self, job: ItemJob, finished: int, total: int) -> None:
        failure = job.failure
        fields: dict[str, Any] = {"id": job.id, "done": finished, "total": total, "bytes": job.bytes,
                                  "status": "failed" if failure else "pending" if job.pending else "done"}
        if failure:
            fields["error"] = failure
        self._emit("item", **fields)

    def _remove_leftovers(self, state_dir: SafeDir) -> None:
        """Temporary files of a run that was killed (the lock says none is running), by their exact
        names (`own_temporary`): in DIR, its year and month folders, the album and collection
        folders, the same in embedded/ (--embedded-copies), the viewer's and its data's; and the
        downloads the library's cache had not finished (`cache_temporary`)."""
        self.root.remove_leftovers(own_temporary)
        _remove_leftovers_below(self.root, (UNDATED, ALBUMS, COLLECTIONS, VIEWER))
        if EMBEDDED in self.root.names():
            try:
                with self.root.subdir(EMBEDDED, create=False) as embedded:
                    embedded.remove_leftovers(own_temporary)
                    _remove_leftovers_below(embedded, (UNDATED,))
            except (OSError, ValueError):
                pass  # a file, or a link planted there: not ours to clean
        with state_dir.subdir(CACHE, create=False) as cache:
            cache.remove_leftovers(cache_temporary)


def _remove_leftovers_below(parent: SafeDir, named: tuple[str, ...]) -> None:
    """`own_temporary` files in parent's year folders (and their months) and in its folders `named`."""
    for top in parent.names():
        if not (top.isdigit() or top in named):
            continue
        try:
            with parent.subdir(top, create=False) as folder:
                folder.remove_leftovers(own_temporary)
                for name in folder.names() if top != UNDATED else []:
                    try:
                        with folder.subdir(name, create=False) as inner:
                            inner.remove_leftovers(own_temporary)
                    except (OSError, ValueError):
                        continue  # a file, or a link planted there: not ours to clean
        except OSError:
            continue  # a link or a file named like a year: the items' own errors will say


def _check_plain_dir(parent: SafeDir, name: str) -> None:
    """The download cache must be a directory of the backup's own: not a link planted there."""
    parent.subdir(name).close()


def _meta(photo: dict[str, Any], key: str) -> str:
    value = photo.get(key)
    return one_text(value) if isinstance(value, dict) else str(value if value is not None else "")


def export_need(made: dict[str, Any], photo: dict[str, Any]) -> str:
    """What an item backed up from an export needs when the API first lists it: its file is the
    original Flickr exported, so only a replace since (another original secret or format) fetches
    it; anything else rewrites its sidecars from the API's richer answer (privacy, licence ids)."""
    secret = str(photo.get("originalsecret") or "")
    if secret and secret != made.get("originalsecret"):
        return "media"
    # A video's originalformat in a listing is not its file's (the export names the file's).
    if photo.get("media") != "video" and str(photo.get("originalformat") or made.get("originalformat")) \
            != str(made.get("originalformat")):
        return "media"
    return "sidecar"


def _content(photo: dict[str, Any]) -> tuple[str, ...]:
    """What a new file changes: the format, dimensions, secrets, and which sizes exist (their paths:
    the host is not part of it, so a backup moved to another endpoint stays the same)."""
    sizes = sorted(urllib.parse.urlsplit(str(value)).path for key, value in photo.items()
                   if key.startswith("url_") and value)
    return tuple(str(photo.get(key, "")) for key in _CONTENT) + tuple(sizes) + (str(number(photo.get("o_width"))),)


def run(client: "Flickr", directory: str | os.PathLike[str], progress: Optional[ProgressCallback] = None,
        **options: Any) -> Report:
    """`Backup(client, directory, **options).run(progress)`."""
    return Backup(client, directory, **options).run(progress)


def _cancel_all(loop: asyncio.AbstractEventLoop) -> None:
    """Cancels the items still running on `loop` and lets each end (its `with` blocks, its futures)."""
    tasks = asyncio.all_tasks(loop)
    for task in tasks:
        task.cancel()
    loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
