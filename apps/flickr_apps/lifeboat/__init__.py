# SPDX-License-Identifier: MIT
"""`flickr_apps.lifeboat`: a Flickr Foundation Data Lifeboat made from a `flickr backup` archive.

    import flickr_apps.lifeboat
    report = flickr_apps.lifeboat.make("photos", "HARBOUR", albums=["72157700000000001"],
                                  readme="Why this Lifeboat was made.", name="Harbour lights")
    print(report["photos"], report["left_out"])

Reads the archive through its files only (no API call, no key); writes OUT as docs/lifeboat.md
describes, under the backup's file rules, restart-safe. The creator's own photos always go in;
another member's only when public under a licence that allows passing them on: what is left out
is listed, with why, in the report, README.html and lifeboat.js.
"""
from __future__ import annotations

import os
import time
from typing import Any, Callable, Iterable, Optional

from ._archive import PHOTO_ID, Archive, NotAnArchive
from ._metadata import _list, normalised_tag
from ._rules import PASSING_ON_ALLOWED
from ._writer import DiskFull, LifeboatWriter, OutInUse, Selection, UsageError

def read_ids(text: str, source: str) -> list[str]:
    """Photo ids, one a line (blank lines and `#` comments skipped); UsageError naming the first
    line that is not an id."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if not PHOTO_ID.fullmatch(line):
            raise UsageError(f"{source}, line {number}: {line[:40]!r} is not a photo id")
        found.append(line)
    return found


def select(archive: Archive, albums: Iterable[str] = (), tags: Iterable[str] = (),
           ids: Iterable[str] = ()) -> Selection:
    """The archive's items in the union of the selections (every item when none is given)."""
    albums, tags, ids = list(albums), list(tags), list(ids)
    items = [item for item in archive.items() if item.get("path") and item.get("sidecar")]
    known_albums = {album["id"] for album in archive.albums()}
    for album in albums:
        if album not in known_albums:
            raise UsageError(f"the archive has no album {album[:40]!r} (its index.json lists {len(known_albums)})")
    if not (albums or tags or ids):
        return Selection(items, [])
    wanted = set(ids)
    chosen = {item["id"] for item in items if item["id"] in wanted
              or set(albums) & {a for a in _list(item.get("albums")) if isinstance(a, str)}}
    if tags:
        asked = {normalised_tag(tag) for tag in tags} | {tag.lower() for tag in tags}
        for item in items:
            if item["id"] in chosen:
                continue
            try:
                sidecar = archive.json(item["sidecar"])
            except OSError:
                continue  # the run reports it if it is chosen otherwise; a tag cannot be read from it
            for tag in _list(sidecar.get("tags")):
                if isinstance(tag, dict) and {str(tag.get("tag") or "").lower(), str(tag.get("raw") or "").lower(),
                                              normalised_tag(str(tag.get("raw") or ""))} & asked:
                    chosen.add(item["id"])
                    break
    in_archive = {item["id"] for item in archive.items()}
    return Selection([item for item in items if item["id"] in chosen], sorted(wanted - in_archive))


def make(archive_dir: str | os.PathLike[str], out: str | os.PathLike[str], *, albums: Iterable[str] = (),
         tags: Iterable[str] = (), ids: Iterable[str] = (), readme: str = "", name: Optional[str] = None,
         creator: Optional[str] = None, progress: Optional[Callable[[dict[str, Any]], None]] = None) -> dict[str, Any]:
    """Writes the Lifeboat OUT from the archive; the report: `photos`, `own`, `others`, `left_out`
    (id, title, why), `failed` (id, title, error: retried by the next run), `not_in_archive`,
    `copied`, `kept`, `bytes`, `not_ours` (files in OUT's photo and media folders this command
    did not write: left as they are), `seconds`, `ok`. Raises NotAnArchive, UsageError, OutInUse,
    PlantedLink (a link inside OUT), DiskFull."""
    started = time.monotonic()
    archive_dir, out = os.fspath(archive_dir), os.fspath(out)
    inside = _nested(archive_dir, out)
    if inside:
        raise UsageError(inside)
    archive = Archive(archive_dir)
    try:
        selection = select(archive, albums, tags, ids)
        if not selection.items:
            raise UsageError("the selection matches no item of the archive: no Lifeboat written")
        who = creator or archive.user
        if not who:
            raise UsageError("the archive names no account: say whose photos these are with --creator NSID")
        title = name or f"Flickr photos from {os.path.basename(os.path.normpath(archive_dir))}"
        report = LifeboatWriter(archive, out, selection, readme, title, who, progress).run()
    finally:
        archive.close()
    report["seconds"] = round(time.monotonic() - started, 3)
    report["ok"] = not report["failed"]
    return report


def _nested(archive_dir: str, out: str) -> Optional[str]:
    """Why OUT and the archive cannot be used together (one inside the other), or None."""
    here, there = os.path.realpath(archive_dir), os.path.realpath(out)
    if os.path.commonpath([here, there]) in (here, there):
        return f"{out} and the archive {archive_dir} are one inside the other: give OUT outside the archive"
    return None


__all__ = ["DiskFull", "NotAnArchive", "OutInUse", "PASSING_ON_ALLOWED", "UsageError", "make", "read_ids", "select"]
