# SPDX-License-Identifier: MIT
"""`ExportBackup`: `flickr backup DIR --from-export PATH...`, the same archive as the API's, from
Flickr's account export, with no key and no network (docs/export.md, "Reading an export").

A run: lock DIR, read the export's metadata (account_profile.json, albums.json, each
`photo_<id>.json`) into the backup's state as listings, match each file of the data zips to its
item by the id in its name, then the backup's own item work (ExportJob: the file streamed out of
its zip into place, the sidecars, the file's time), album folders and indexes. Whatever the export
lacks is listed in the report's `lacking`; items without their file get their sidecars and keep
their need, so that a later export or an API run (`flickr backup DIR`) brings the file.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from flickr import errors
from flickr.files import create_temporary, temporary_final
from ..._media.sizes import ORIGINALS, Candidate, Sizes
from ..albums import Albums
from ..engine import CACHE, Backup
from ..indexes import Indexes
from ..job import ItemJob, ItemPending, ended
from ..layout import STATE_DIR, Layout
from ..safedir import SafeDir
from . import mapping
from .fill import META as _META_FILLS, Filler, Fills
from .reader import PHOTO_JSON, Entry, Refused, Sources, ids_in_name

if TYPE_CHECKING:
    from flickr import Flickr

_META_DATA_ZIPS = "export_data_zips"  # the data-download-N numbers given so far, across calls
_META_ACCOUNT = "export_account"  # account_profile.json as read: a later call may give data zips only
_Set = tuple[dict[str, Any], list[str]]  # an album's (a gallery's) info and its members' ids
_COPY = "export-"  # a file being copied out of a zip: `flickr.files.temporary_name("export-<id>")` in the cache


class ExportJob(ItemJob):
    """An item's work with its file from the export: the same steps, names and records as the API's."""

    engine: "ExportBackup"

    def __init__(self, engine: "ExportBackup", row: Any) -> None:
        super().__init__(engine, row)
        self.lacking: Optional[str] = None

    async def work(self) -> None:
        await super().work()
        if self.lacking is not None:
            self.engine.state.need(self.id, "media")  # its sidecars are written; its file still to come
            raise ItemPending(self.lacking)

    async def _details(self) -> None:
        """No call: what the export tells was stored with the item when its JSON was read."""

    async def _media(self, folder: SafeDir, folder_path: str, base: str) -> None:
        entry = self.engine.files_of.get(self.id)
        if entry is None and self.engine.client is not None:
            await self._original_from_flickr(folder, folder_path, base)
            return
        if entry is None:
            self.lacking = "its file is in none of the zips given"
            return
        copying = self.engine.files.submit(self.engine.copy_out, self.id, entry)
        await ended(copying)
        try:
            cached = copying.result()
        except Refused as error:
            self.lacking = f"its file was refused: {error}"
            self.engine.lack("refused", str(error), self.id)
            return
        candidate = Candidate("Original", entry.name, 0)  # the export holds originals only (docs/export.md)
        await self._place(folder, folder_path, base, candidate, cached, [])

    async def _original_from_flickr(self, folder: SafeDir, folder_path: str, base: str) -> None:
        """--fill: the original the export left out, when Flickr offers it to this key (getSizes, one call);
        never a smaller size (a later `flickr backup DIR` takes the largest offered)."""
        asking = self.engine.calls.call_async("flickr.photos.getSizes", photo_id=self.id)
        await ended(asking)
        try:
            sizes = asking.result()
        except errors.FlickrError as error:
            self.lacking = f"its file is in none of the zips given (getSizes: {error})"
            return
        originals = [c for c in Sizes.from_get_sizes(sizes, self.listed.get("media") == "video") if c.label in ORIGINALS]
        if not originals:
            self.lacking = ("its file is in none of the zips given, and Flickr offers this key no original "
                            "(the owner's download setting, or a free account since 2025-05-15)")
            return
        fetching = self.engine.fetcher.fetch(self.id, 0, originals[0])
        await ended(fetching)
        try:
            cached = str(fetching.result())
        except errors.FlickrError as error:
            self.lacking = f"its file is in none of the zips given (fetching its original: {error})"
            return
        await self._place(folder, folder_path, base, originals[0], cached, [])
        self.engine.filled_original(self.id)


class ExportBackup(Backup):
    """``ExportBackup(directory, paths, **options).run(progress)`` -> Report (`lacking` lists what the
    export lacks). Options as `Backup`'s; those of the API (user, info, comments, exif...) are unused."""

    job_class = ExportJob

    def __init__(self, directory: str | os.PathLike[str], paths: list[str], client: Optional[Flickr] = None,
                 **options: Any) -> None:
        # No client: no call is made. A client (--fill): only what the export lacks is asked (fill.py).
        super().__init__(client, directory, **options)  # type: ignore[arg-type]
        self.fills = Fills(None)
        self.sources = Sources([os.fspath(p) for p in paths])
        self.files_of: dict[str, Entry] = {}
        self.cache_dir: SafeDir
        self.report.mode = "export"

    def _open_client(self, cleanup: contextlib.ExitStack) -> None:
        if self.client is not None:
            super()._open_client(cleanup)  # the key's budget and the fetcher, for what --fill fetches
        cleanup.callback(self.sources.close)
        self.cache_dir = cleanup.enter_context(self.root.subdir(STATE_DIR, CACHE))
        self.cache_dir.remove_leftovers(_copy_temporary)  # copies a killed run left (the lock says none runs)

    def lack(self, kind: str, detail: str, item: str = "") -> None:
        self.report.lacking.append({"kind": kind, "id": item, "detail": detail})

    def filled_original(self, item_id: str) -> None:
        """The item's original came from Flickr (--fill): the export's lack of it is made good."""
        self.report.lacking = [lack for lack in self.report.lacking
                               if not (lack["kind"] == "no-file" and lack["id"] == item_id)]
        self.report.notes.append(f"filled with the key: item {item_id}'s original, which the export left out")

    # -- the run ----------------------------------------------------------

    def _run(self) -> None:
        self._run_id = self.state.run_started()
        metadata: dict[str, list[Entry]] = {"account": [], "albums": [], "galleries": [], "photos": []}
        files: list[Entry] = []
        for entry in self.sources.entries():
            kind = _kind(entry.name)
            if kind == "file":
                files.append(entry)
            elif kind in metadata:
                metadata[kind].append(entry)
        for refused in self.sources.refused:
            self.lack("refused", f"{refused['entry']}: {refused['why']}")
        self._account(metadata["account"])
        self.fills = Fills(self.state.meta(_META_FILLS))
        self.fills.into(self.licences)
        first: dict[str, Entry] = {}
        for entry in metadata["photos"]:
            first.setdefault(entry.name, entry)  # a zip and the folder it was unpacked into: one item
        for entry in first.values():
            self._photo(entry)
        self._emit("listed", items=self.report.listed, deleted=0)
        self._albums_of_export(metadata["albums"])
        self._galleries(metadata["galleries"])
        self._match(files)
        if self.client is not None:
            Filler(self).run()
        self._embed_missing()
        self._load_memberships()
        self._work()
        if self.options.albums:
            Albums(self).write()
        Indexes(self).write(self.account)

    def _account(self, entries: list[Entry]) -> None:
        for entry in entries[:1]:
            try:
                person = mapping.account(self.sources.json(entry))
            except Refused as error:
                self.lack("refused", str(error))
                continue
            if person.get("nsid"):
                self.state.set_meta(_META_ACCOUNT, json.dumps(person))
        stored = self.state.meta(_META_ACCOUNT)
        self.account = json.loads(stored) if stored else {}
        nsid = str(self.account.get("nsid") or "")
        previous = self.state.meta("user")
        if nsid and previous is not None and previous != nsid:
            raise errors.StateError(errors.ESTATE, f"this directory holds the backup of {previous}, not of "
                                    f"{nsid} (the export's account): use another directory")
        if nsid:
            self.state.set_meta("user", nsid)
        self.report.user = nsid or (previous or "")

    def owner(self) -> dict[str, str]:
        from flickr.values import text

        return {"nsid": str(self.account.get("nsid") or ""), "username": text(self.account.get("username")),
                "path_alias": str(self.account.get("path_alias") or "")}

    def _photo(self, entry: Entry) -> None:
        item_id = PHOTO_JSON.fullmatch(entry.name)
        assert item_id is not None
        try:
            item = mapping.photo(self.sources.json(entry), item_id.group(1), self.licences, self.owner())
        except (Refused, ValueError) as error:
            self.lack("unreadable-json", f"{entry.shown()}: {error}", item_id.group(1))
            return
        self.fills.apply(item, self.account)
        self.report.listed += 1
        row = self.state.item(item.id)
        if row is None:
            self.state.add(item.id, item.listed, 0)
            self.state.details(item.id, item.details)
            self.report.new += 1
            return
        before = json.loads(row["listed"])
        if not before.get(mapping.FROM_EXPORT):
            return  # backed up with the API: its answers are richer than an export's
        need: Optional[str] = None
        if any(before.get(k) != item.listed.get(k) for k in ("originalsecret", "originalformat", "server", "media")):
            need = "media"  # replaced on Flickr between the two exports
        elif before != item.listed or json.loads(row["details"]) != item.details:
            need = "sidecar"
        self.state.relist(item.id, item.listed, 0, need)
        self.state.details(item.id, item.details)
        if need is not None:
            self.report.changed += 1

    def _listed(self, entries: list[Entry], key: str, read: Callable[[Any], Optional[_Set]]) -> Iterator[_Set]:
        """Each album (gallery) of the list `key` of each JSON file, read by `read`; one that is
        none (no object, an id that is no Flickr id) is reported and left out."""
        for entry in entries:
            try:
                found = self.sources.json(entry)
            except Refused as error:
                self.lack("refused", str(error))
                continue
            values = found.get(key) if isinstance(found, dict) else None
            for value in values if isinstance(values, list) else []:
                made = read(value)
                if made is None:
                    shown = repr(value.get("id") if isinstance(value, dict) else value)[:60]
                    self.lack("refused", f"{entry.shown()}: an entry of {key} that is none (id {shown}): left out")
                    continue
                self._members_left_out(entry, key, value, made)
                yield made

    def _members_left_out(self, entry: Entry, key: str, value: dict[str, Any], made: _Set) -> None:
        """Members of an album (a gallery) that are no Flickr id are left out, and said: the set's
        membership is then not what the export meant."""
        raw = value.get("photos")
        kept = set(made[1])
        dropped = [m for m in raw if not (isinstance(m, (str, int)) and str(m) in kept)] if isinstance(raw, list) \
            else ([] if raw is None else [raw])
        if dropped:
            shown = ", ".join(repr(m)[:40] for m in dropped[:5]) + (", ..." if len(dropped) > 5 else "")
            self.lack("refused", f"{entry.shown()}: {key} {made[0]['id']}: {len(dropped)} member(s) that are "
                                 f"no photo id left out ({shown})")

    def _albums_of_export(self, entries: list[Entry]) -> None:
        for info, members in self._listed(entries, "albums", mapping.album):
            known = self.state.album(info["id"])
            if known is not None and not json.loads(known["info"]).get(mapping.FROM_EXPORT):
                continue  # listed by the API: kept as it gave it
            folder = known["folder"] if known is not None else Layout.album_folder(info["id"], info["title"])
            self.state.put_album(info["id"], "album", folder, info["date_update"], info, members)
            self.report.albums += 1

    def _galleries(self, entries: list[Entry]) -> None:
        for info, members in self._listed(entries, "galleries", mapping.gallery):
            self.state.put_album(info["id"], "gallery", Layout.album_folder(info["id"], info["title"]), "", info,
                                 members)

    def _match(self, files: list[Entry]) -> None:
        """Each file to the one item its name's id names; what matches none, or two, or is claimed
        twice, is listed and not used."""
        known = self.state.ids()
        claims: dict[str, dict[tuple[str, int], Entry]] = {}
        for entry in files:
            ids = [i for i in ids_in_name(entry.name) if i in known]
            if len(ids) != 1:
                self.lack("no-json" if not ids else "ambiguous-name",
                          f"{entry.shown()}: " + ("no photo_<id>.json of the export names its id" if not ids
                                                  else f"its name reads as items {', '.join(ids)}"))
                continue
            # The same name and size in two places (a zip and the folder it was unpacked into) is one file.
            claims.setdefault(ids[0], {})[(entry.name, entry.size)] = entry
        for item_id, found in claims.items():
            if len(found) > 1:
                self.lack("two-files", f"{len(found)} files claim item {item_id}: "
                          + "; ".join(e.shown() for e in found.values()) + " (none is used)", item_id)
                continue
            self.files_of[item_id] = next(iter(found.values()))
        given = set(json.loads(self.state.meta(_META_DATA_ZIPS) or "[]")) | self.sources.data_zips
        self.state.set_meta(_META_DATA_ZIPS, json.dumps(sorted(given)))
        for number in sorted(set(range(1, max(given, default=0) + 1)) - given):
            self.lack("zip-not-given", f"data-download-{number}.zip was not given (nor its folder)")
        without = [row["id"] for row in self.state.to_do() if row["need"] in ("media", "check")
                   and row["id"] not in self.files_of]
        for item_id in sorted(without):
            self.lack("no-file", "its photo_<id>.json has no file in the zips given", item_id)
        if without and not set(range(1, max(given, default=0) + 1)) - given:
            self.report.notes.append(f"{len(without)} items have no file: in a data-download zip after "
                                     f"{max(given, default=0)} not given, or left out of Flickr's export")

    def copy_out(self, item_id: str, entry: Entry) -> str:
        """The entry's bytes into a new file of the backup's cache (on a file thread): its path."""
        fd, name = create_temporary(self.cache_dir.fd, f"{_COPY}{item_id}", 0o644)
        try:
            with os.fdopen(fd, "wb") as out:
                for chunk in self.sources.chunks(entry):
                    out.write(chunk)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=self.cache_dir.fd)
            raise
        return os.path.join(self.cache, name)


def _copy_temporary(name: str) -> bool:
    final = temporary_final(name)
    return final is not None and re.fullmatch(_COPY + "[0-9]{1,20}", final) is not None


def _kind(name: str) -> str:
    if PHOTO_JSON.fullmatch(name):
        return "photos"
    if name == "account_profile.json":
        return "account"
    if name == "albums.json" or (name.startswith("albums_part") and name.endswith(".json")):
        return "albums"
    if name == "galleries.json":
        return "galleries"
    if name.endswith(".json"):
        return "other"  # comments the account wrote, faves, contacts...: not part of the archive
    return "file"
