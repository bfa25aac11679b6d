# SPDX-License-Identifier: MIT
"""`Report`: what a run did, as `Backup.run` returns it and the CLI prints it."""
from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass
class Report:
    dir: str
    user: str = ""
    mode: str = "full"  # full: the whole listing; quick: recentlyUpdated only (no deletions seen); export
    started: float = 0.0
    ended: float = 0.0
    listed: int = 0
    new: int = 0
    changed: int = 0
    to_do: int = 0
    fetched: int = 0  # media files put in place
    bytes: int = 0
    replaced: int = 0  # items whose new bytes replaced the old file
    unchanged_files: int = 0  # fetched again on a change, same bytes: the old file kept
    sidecars: int = 0  # items whose sidecars were (re)written
    done: int = 0  # items completed in this run
    not_original: list[dict[str, str]] = dataclasses.field(default_factory=list)
    failed: list[dict[str, str]] = dataclasses.field(default_factory=list)
    # Videos Flickr is still processing: not fetched, not failed; a later run fetches them (id, title, why).
    pending: list[dict[str, str]] = dataclasses.field(default_factory=list)
    deleted: list[str] = dataclasses.field(default_factory=list)  # gone from Flickr, kept here
    pruned: list[str] = dataclasses.field(default_factory=list)
    albums: int = 0
    collections: int = 0
    api_calls: int = 0
    api_calls_by_method: dict[str, int] = dataclasses.field(default_factory=dict)
    notes: list[str] = dataclasses.field(default_factory=list)
    # What an account export lacks (--from-export): {"kind", "id", "detail"}; the archive is not complete.
    lacking: list[dict[str, str]] = dataclasses.field(default_factory=list)
    interrupted: bool = False

    @property
    def ok(self) -> bool:
        return not self.failed and not self.interrupted

    def as_dict(self) -> dict[str, Any]:
        found = dataclasses.asdict(self)
        found["seconds"] = round(max(self.ended - self.started, 0.0), 3)
        found["ok"] = self.ok
        return found

    def summary(self) -> str:
        seconds = max(self.ended - self.started, 0.0)
        export = self.mode == "export"
        parts = [f"{self.listed} items {'read' if export else 'listed'}", f"{self.new} new", f"{self.changed} changed",
                 f"{self.fetched} files {'put in place' if export else 'fetched'} ({self.bytes / 1e6:.1f} MB)",
                 f"{self.done} done"]
        if self.pending:
            parts.append(f"{len(self.pending)} " + ("without their file" if export
                                                    else "pending (videos Flickr is still processing)"))
        if self.failed:
            parts.append(f"{len(self.failed)} failed (retried next run)")
        if self.deleted:
            parts.append(f"{len(self.deleted)} deleted on Flickr" + ("" if self.pruned else " (kept)"))
        if self.pruned:
            parts.append(f"{len(self.pruned)} pruned")
        if self.lacking:
            parts.append(f"{len(self.lacking)} things the export lacks (the archive is not complete)")
        if self.not_original:
            parts.append(f"{len(self.not_original)} without their original")
        parts.append(f"{self.api_calls} API calls in {seconds:.1f} s")
        return ", ".join(parts)
