# SPDX-License-Identifier: MIT
"""`DirLock`: one run per backup directory at a time.

An flock on .flickr-backup/lock, held for the run: the kernel drops it when the process ends,
however it ends (kill -9 included), so a stale lock never needs cleaning up.
"""
from __future__ import annotations

import fcntl
import os

from .safedir import SafeDir


class BackupLocked(RuntimeError):
    """Another run holds the directory."""


class DirLock:
    NAME = "lock"

    def __init__(self, state_dir: SafeDir) -> None:
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        self.fd = os.open(self.NAME, flags, 0o644, dir_fd=state_dir.fd)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(self.fd, 64).decode("ascii", "replace").strip()
            os.close(self.fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            raise BackupLocked(f"another backup is running on this directory{who}; try again when it has ended")
        except BaseException:
            os.close(self.fd)
            raise
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, str(os.getpid()).encode(), 0)

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing drops the flock
            self.fd = -1
