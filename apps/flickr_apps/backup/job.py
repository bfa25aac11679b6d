# SPDX-License-Identifier: MIT
"""`ItemJob`: one item's work, as a generator the engine drives.

A coroutine that awaits the futures it waits for (per-item calls and a file fetch on the library's
worker, checksums and writes on the engine's file threads), so that many items progress at once
while every database write happens on the engine's thread, the event loop's (docs/backup.md,
"Concurrency"). Its steps follow the state machine of
state.py: details (the per-item calls asked for), media (fetch, falling back by size; put in
place), sidecars (JSON, XMP, the file's time), done.
"""
from __future__ import annotations

import asyncio
import calendar
import json
import os
import posixpath
import time
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Optional

from flickr import errors
from flickr.values import text
from .fields import check
from flickr.files import open_regular
from .layout import Layout
from .listing import unavailable
from .safedir import SafeDir, digest_of_fd
from .sidecar import Sidecar, json_file
from .._media import types as media_types
from .._media.fetcher import refuses_size
from .._media.sizes import Candidate, Sizes
from .viewerfiles import sha256 as sha256_of
from .xmp import xmp_document
from .embed import EMBEDDED, NO_COPY, NotCopied, copy_with_xmp

if TYPE_CHECKING:
    import sqlite3

    from .context import RunContext



async def ended(*futures: Future[Any]) -> None:
    """Until each of `futures` has ended; its result or exception is read after. Cancelling the
    awaiting item (Ctrl-C) cancels them: a request in flight is aborted (RequestFuture.cancel)."""
    await asyncio.gather(*(asyncio.wrap_future(future) for future in futures), return_exceptions=True)


# Per-item calls: (key in the details, method, the flag that asks for it).
_DETAIL_CALLS = [("getInfo", "flickr.photos.getInfo", "info"),
                 ("getAllContexts", "flickr.photos.getAllContexts", "info"),
                 ("people", "flickr.photos.people.getList", "info"),
                 ("comments", "flickr.photos.comments.getList", "comments"),
                 ("exif", "flickr.photos.getExif", "exif")]
_EXIF_HIDDEN = 2  # flickr.photos.getExif: "Permission denied" (the owner hides EXIF): final, not retried


class ItemFailed(Exception):
    """The item cannot be finished this run; the message says why (it is retried next run)."""


class ItemPending(Exception):
    """A video Flickr is still processing (the listing's media_status): not asked for, not a failure;
    the item keeps its need and a later run fetches it once Flickr says it is ready."""


def pending(listed: dict[str, Any]) -> bool:
    """Whether the listing says the item is a video not ready yet (no media_status: assumed ready)."""
    return listed.get("media") == "video" and listed.get("media_status", "ready") != "ready"


def asked_details(options: Any) -> list[tuple[str, str]]:
    """(key in the details, method) of each per-item call the options ask for."""
    return [(key, method) for key, method, flag in _DETAIL_CALLS if getattr(options, flag)]


def missing_details(details: dict[str, Any], options: Any) -> list[str]:
    """The per-item answers the options ask for that an item's stored details lack: --info,
    --comments or --exif added to an existing backup."""
    return [key for key, _ in asked_details(options) if key not in details]


def taken_time(taken: str) -> Optional[float]:
    """Flickr's date taken ("YYYY-MM-DD hh:mm:ss", the camera's local time) as a file time: read as
    UTC, so the file shows the clock time the camera showed wherever the backup is read."""
    if not taken.isascii():
        return None  # strptime would read other scripts' digits
    try:
        return float(calendar.timegm(time.strptime(taken[:19], "%Y-%m-%d %H:%M:%S")))
    except (ValueError, OverflowError):
        return None


class ItemJob:
    def __init__(self, engine: "RunContext", row: "sqlite3.Row") -> None:
        self.engine = engine
        self.id = str(row["id"])
        self.row = row
        self.listed: dict[str, Any] = {}
        self.details: dict[str, Any] = {}
        self.need = str(row["need"])
        self.title = ""
        self.taken = ""
        self.bytes = 0
        self.retry: list[str] = []  # per-item calls that failed: the item is retried next run
        self.failure: Optional[str] = None
        self.pending = False  # a video Flickr is still processing: left for a later run

    # -- the steps -------------------------------------------------------

    async def work(self) -> None:
        """The item's steps; whatever they raise is this item's failure, never the run's (engine.py)."""
        state = self.engine.state
        self.listed = json.loads(self.row["listed"])
        self.details = json.loads(self.row["details"])
        checked = check(self.listed).listing  # what names the files: only valid fields (fields.py)
        self.title = text(checked.get("title"))
        self.taken = str(checked.get("datetaken") or "")
        if self.need in ("media", "check") and pending(self.listed):
            raise ItemPending(f"Flickr is still processing this video (media_status "
                              f"{str(self.listed.get('media_status'))[:40]!r})")
        folder_parts = tuple(self.row["folder"].split("/")) if self.row["folder"] else Layout.folder(self.taken)
        base = self.row["base"] or Layout.base(self.id, self.title)
        state.names(self.id, "/".join(folder_parts), base)
        with self.engine.root.subdir(*folder_parts) as folder:
            await self._details()
            if self.need in ("media", "check"):
                await self._media(folder, "/".join(folder_parts), base)
            await self._sidecars(folder, "/".join(folder_parts), base)
        if self.retry:
            state.need(self.id, "sidecar")
            raise ItemFailed("; ".join(self.retry))

    async def _details(self) -> None:
        wanted = asked_details(self.engine.options)
        if self.need in ("media", "check") and (self.listed.get("media") == "video" or not Sizes.from_listing(self.listed)):
            wanted.append(("getSizes", "flickr.photos.getSizes"))
        if not wanted:
            return
        futures = {key: (method, self.engine.calls.call_async(method, photo_id=self.id)) for key, method in wanted}
        await ended(*(future for _, future in futures.values()))
        problems = []
        for key, (method, future) in futures.items():
            try:
                self.details[key] = future.result()
            except errors.APIError as error:
                self.details.pop(key, None)
                if key == "exif" and error.api_code == _EXIF_HIDDEN:
                    problems.append(f"{method}: {error} (the owner hides EXIF)")
                    self.details[key] = None  # asked and final: not asked again (missing_details)
                    continue
                what = "not available on this server" if unavailable(error, method) else str(error)
                problems.append(f"{method}: {what}")
                self.retry.append(f"{method}: {what}")
            except errors.FlickrError as error:
                problems.append(f"{method}: {error}")
                self.retry.append(f"{method}: {error}")
        self.details["problems"] = problems
        if "getInfo" in self.details and isinstance(self.details["getInfo"].get("photo"), dict):
            self.details["getInfo"] = self.details["getInfo"]["photo"]
        self.engine.state.details(self.id, {k: v for k, v in self.details.items() if k != "getSizes"})

    def _candidates(self) -> list[Candidate]:
        video = self.listed.get("media") == "video"
        from_sizes = Sizes.from_get_sizes(self.details.get("getSizes") or {}, video)
        if video:
            return from_sizes  # a video's poster frames are not the video
        listed = Sizes.from_listing(self.listed)
        known = {c.url for c in listed}
        return listed + [c for c in from_sizes if c.url not in known]

    async def _media(self, folder: SafeDir, folder_path: str, base: str) -> None:
        state = self.engine.state
        placing = json.loads(self.row["placing"]) if self.row["placing"] else None
        if placing and self.need == "media" and folder.digest(placing[0]) == (placing[1], placing[2]):
            # Renamed into place by a run that was killed before it could say so.
            state.placed(self.id, placing[0], f"{folder_path}/{placing[0]}", placing[1], placing[2])
            return
        candidates = self._candidates()
        if not candidates:
            raise ItemFailed("Flickr lists no file for it (a video still processing?)")
        refused = []
        for candidate in candidates:
            future = self.engine.fetcher.fetch(self.id, int(self.row["lastupdate"] or 0), candidate)
            await ended(future)
            try:
                cached = str(future.result())
            except errors.FlickrError as error:
                # A size the image host refuses or lacks: the next one. Anything else (a 429 or
                # 5xx past the retries) fails the item, fetched at its size by a later run.
                if not refuses_size(error):
                    raise ItemFailed(f"fetching {candidate.label}: {error}") from None
                refused.append(f"{candidate.label}: {error}")
                continue
            await self._place(folder, folder_path, base, candidate, cached, refused)
            return
        raise ItemFailed("every size was refused: " + "; ".join(refused))

    async def _place(self, folder: SafeDir, folder_path: str, base: str, candidate: Candidate, cached: str,
                     refused: list[str]) -> None:
        state = self.engine.state
        digest = self.engine.files.submit(_digest, cached)  # reading and fsync on a thread of their own
        await ended(digest)
        size, sha256 = digest.result()
        old = next((f for f in state.files(self.id) if f["kind"] == "media"), None)
        if self.need == "check" and old is not None and old["sha256"] == sha256:
            os.unlink(cached)  # the same bytes: a change of metadata only
            self.engine.report.unchanged_files += 1
            state.need(self.id, "sidecar")
            return
        try:
            media = media_types.of_path(cached)  # its bytes say what it is, never its URL
        except media_types.UnknownMedia as error:
            os.unlink(cached)  # fetched again by a later run
            raise ItemFailed(f"{candidate.label}: {error}") from None
        name = f"{base}.{media.extension}"
        why = Sizes.why_not_original(self.listed, candidate.label)
        if refused and why:
            why += " (refused: " + "; ".join(refused) + ")"
        state.placing(self.id, name, size, sha256, candidate.label, why)
        adopted = self.engine.files.submit(folder.adopt, cached, name, taken_time(self.taken))
        await ended(adopted)
        adopted.result()
        state.placed(self.id, name, f"{folder_path}/{name}", size, sha256)
        if old is not None and old["path"] != f"{folder_path}/{name}" and old["path"].startswith(folder_path + "/"):
            folder.remove(posixpath.basename(old["path"]))  # a replace with another format
        if old is not None and old["sha256"] != sha256:
            self.engine.report.replaced += 1
        self.engine.report.fetched += 1
        self.engine.report.bytes += size
        self.bytes = size
        if why:
            self.engine.report.not_original.append({"id": self.id, "size": candidate.label, "why": why})

    async def _sidecars(self, folder: SafeDir, folder_path: str, base: str) -> None:
        state = self.engine.state
        row = state.item(self.id)
        assert row is not None
        media = row["media"] or ""
        recorded = {f["kind"]: f for f in state.files(self.id)}
        file_info = {"name": media, "size": row["size_label"] or "", "why_not_original": row["why"] or "",
                     "bytes": recorded["media"]["size"] if "media" in recorded else None,
                     "sha256": recorded["media"]["sha256"] if "media" in recorded else None}
        sidecar = Sidecar.build(self.listed, self.details, self.engine.albums_of(self.id), self.engine.licences,
                                file_info, self.engine.account)
        document = json_file(sidecar)
        xmp = xmp_document(sidecar)
        outputs = (("json", Layout.sidecar(base), document), ("xmp", Layout.xmp(media or base), xmp))
        if "xmp" in recorded and recorded["xmp"]["path"] != f"{folder_path}/{outputs[1][1]}" \
                and recorded["xmp"]["path"].startswith(folder_path + "/"):
            folder.remove(posixpath.basename(recorded["xmp"]["path"]))  # the media file's name changed
        writing = self.engine.files.submit(_write_sidecars, folder, outputs, media,
                                           taken_time(sidecar["dates"]["taken"]))
        await ended(writing)
        writing.result()
        written = [(kind, f"{folder_path}/{name}", len(data), sha256_of(data)) for kind, name, data in outputs]
        if self.engine.options.embedded and media.endswith(".jpg"):
            with self.engine.root.subdir(EMBEDDED, *folder_path.split("/")) as copies:
                copying = self.engine.files.submit(copy_with_xmp, folder, media, copies, xmp,
                                                   taken_time(sidecar["dates"]["taken"]))
                await ended(copying)
                try:
                    size, sha256 = copying.result()
                    written.append(("embedded", f"{EMBEDDED}/{folder_path}/{media}", size, sha256))
                except NotCopied as why:
                    self.engine.report.notes.append(f"{self.id}: no embedded copy: {why}")
                    refused = set(json.loads(state.meta(NO_COPY) or "[]")) | {self.id}
                    state.set_meta(NO_COPY, json.dumps(sorted(refused)))
        state.done(self.id, written)
        self.engine.report.sidecars += 1


def _digest(path: str) -> tuple[int, str]:
    with os.fdopen(open_regular(path), "rb") as source:
        return digest_of_fd(source.fileno())


def _write_sidecars(folder: SafeDir, outputs: tuple[tuple[str, str, bytes], ...], media: str,
                    mtime: Optional[float]) -> None:
    for _, name, data in outputs:
        folder.write(name, data)
    if media and mtime is not None and folder.lstat(media) is not None:
        folder.set_mtime(media, mtime)


