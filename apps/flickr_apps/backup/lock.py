# SPDX-License-Identifier: MIT
"""`DirLock`: one run per backup directory at a time.

An flock on .flickr-backup/lock, held for the run: the kernel drops it when the process ends,
however it ends (kill -9 included), so a stale lock never needs cleaning up.
"""
from __future__ import annotations

import errno
import fcntl
import os

from flickr.files import NotRegularFile, open_regular
from .safedir import PlantedLink, SafeDir


class BackupLocked(RuntimeError):
    """Another run holds the directory."""


class DirLock:
    NAME = "lock"

    def __init__(self, state_dir: SafeDir) -> None:
        # A file of the folder's own: a FIFO would not lock, and truncating a hard link (below) would
        # empty another file.
        try:
            self.fd = open_regular(self.NAME, state_dir.fd, os.O_RDWR | os.O_CREAT, single=True,
                                   shown=state_dir.shown(self.NAME))
        except NotRegularFile as error:
            raise PlantedLink(error.errno, f"{error.what} stands where the backup keeps its lock; it is not used"
                              " (move it away)", error.filename) from None
        except OSError as error:
            if error.errno != errno.ELOOP:
                raise
            raise PlantedLink(errno.ELOOP, "a link stands where the backup keeps its lock; it is not followed"
                              " (move it away)", state_dir.shown(self.NAME)) from None
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
