# SPDX-License-Identifier: MIT
"""`Verifier`: `flickr backup --verify DIR`: every recorded file against its size and checksum.

No API call at all, nothing written: the state database is opened read-only, the files are read
without following links (a link where a file was recorded counts as changed).
"""
from __future__ import annotations

import os
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
                    return self._check(root, state, progress)
                finally:
                    state.close()
            finally:
                lock.release()

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
