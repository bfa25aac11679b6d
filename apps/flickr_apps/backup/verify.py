# SPDX-License-Identifier: MIT
"""`Verifier`: `flickr backup --verify DIR`: every recorded file against its size and checksum.

No API call at all, and no file of the backup written: the state database is read, the files are
read without following links (a link where a file was recorded counts as changed). What is missing
or changed is then recorded in the state (the item's need, and its error saying why), so that the
next run makes it again: fetches the media file again, writes the sidecars again.
"""
from __future__ import annotations

import os
import sqlite3
from typing import Any, Callable, Optional

from .layout import STATE_DIR
from .lock import DirLock
from .safedir import SafeDir
from .state import STATE_FILE, State


class Verifier:
    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = os.fspath(directory)

    def run(self, progress: Optional[Callable[[dict[str, Any]], None]] = None) -> dict[str, Any]:
        missing = FileNotFoundError(f"{self.directory} holds no backup ({STATE_DIR}/{STATE_FILE} is missing)")
        try:
            root = SafeDir.open_root(self.directory, create=False)
        except (FileNotFoundError, NotADirectoryError):
            raise missing from None
        with root, _state_dir(root, missing) as state_dir:
            if state_dir.lstat(STATE_FILE) is None:
                raise missing
            lock = DirLock(state_dir)  # a run in progress would be moving files under us
            try:
                state = State.read_only(state_dir)
                try:
                    result = self._check(root, state, progress)
                    found = {str(r["path"]): (str(r["item"]), str(r["kind"])) for r in state.files()}
                finally:
                    state.close()
                findings = [(p, found[p]) for p in result["missing"] + result["changed"]]
                result["not_recorded"] = self._record(state_dir, findings)
                return result
            finally:
                lock.release()

    @staticmethod
    def _record(state_dir: SafeDir, findings: list[tuple[str, tuple[str, str]]]) -> Optional[str]:
        """Each finding's item needs its file made again by the next run (a media file fetched again,
        sidecars written again); None when recorded (or nothing to), else why it was not."""
        if not findings:
            return None
        try:
            state = State.open(state_dir)
            try:
                for where, (item, kind) in findings:
                    state.raise_need(item, "media" if kind == "media" else "sidecar")
                    state.failed(item, f"--verify found {where} missing or changed: made again by the next run")
            finally:
                state.close()
        except (sqlite3.Error, ValueError, OSError) as error:  # a read-only copy of a backup: say so, verified all the same
            return f"not recorded in the state ({error}): the next run makes again only what is missing or truncated"
        return None

    @staticmethod
    def _check(root: SafeDir, state: State, progress: Optional[Callable[[dict[str, Any]], None]]) -> dict[str, Any]:
        missing: list[str] = []
        changed: list[str] = []
        checked = size_total = 0
        records = state.files()
        for record in records:
            folder, _, name = str(record["path"]).rpartition("/")
            try:
                with root.subdir(*folder.split("/"), create=False) as where:
                    found = where.digest(name)
                    exists = where.lstat(name) is not None
            except (OSError, ValueError):
                found, exists = None, False
            checked += 1
            if found is None:
                (changed if exists else missing).append(record["path"])
            elif found != (record["size"], record["sha256"]):
                changed.append(record["path"])
            else:
                size_total += found[0]
            if progress is not None:
                progress({"event": "verify", "done": checked, "total": len(records), "path": record["path"]})
        return {"checked": checked, "bytes": size_total, "missing": missing, "changed": changed,
                "ok": not missing and not changed}


def _state_dir(root: SafeDir, missing: FileNotFoundError) -> SafeDir:
    try:
        return root.subdir(STATE_DIR, create=False)
    except FileNotFoundError:
        raise missing from None
