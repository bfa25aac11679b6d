# SPDX-License-Identifier: MIT
"""`SafeDir`: a directory of the backup, worked in through its file descriptor, never through a link.

The backup directory may be shared, or hold links someone planted (`2019 -> /etc`, a sidecar's
name pointing at ~/.bashrc). Every name the backup touches is reached from DIR's own descriptor one
component at a time with O_NOFOLLOW: a link where a directory should be is refused (`PlantedLink`),
never followed; a file is written under a temporary name created O_EXCL|O_NOFOLLOW beside its final
name (flickr.files' rules), fsync'd, then renamed over the final name, which replaces a link there
itself, never its target; a file is read only through `flickr.files.open_regular` (no link, and a FIFO
or a device planted at the name is reported, never waited on). Names are single components
checked here: a title can never reach `..`.
"""
from __future__ import annotations

import errno
import hashlib
import os
import stat
from typing import Callable, Optional

from flickr.files import create_temporary, open_regular, read_regular, temporary_name

_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_CHUNK = 1 << 20


class PlantedLink(OSError):
    """A link (or another non-directory) stands where the backup needs a directory of its own."""


class DiskFull(OSError):
    """The disk (or the user's quota) holding DIR is full: the run stopped where it was. Every file
    is put in place by a rename after it is whole and every change of the state is a transaction, so
    nothing is lost: the next run, with space, goes on from there."""

    def __init__(self, directory: str) -> None:
        super().__init__(errno.ENOSPC, f"the disk holding {directory} is full: the backup stopped; nothing was"
                         " lost (every finished file and the state are intact): free some space and run it again")

    def __str__(self) -> str:
        return str(self.strerror)


_SQLITE_FULL = 13  # SQLite's "database or disk is full"


def disk_full(error: BaseException) -> bool:
    """Whether `error`, or an error it was raised from or while handling, says the disk is full:
    ENOSPC or EDQUOT, SQLite's SQLITE_FULL, or the library's photo cache saying so (its message)."""
    from flickr import errors

    seen: Optional[BaseException] = error
    for _ in range(10):  # a chain, in case of a loop
        if seen is None:
            return False
        if isinstance(seen, OSError) and seen.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if getattr(seen, "sqlite_errorcode", None) == _SQLITE_FULL:
            return True
        if isinstance(seen, errors.FileError) and "the disk is full" in seen.message:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def check_name(name: str) -> str:
    """`name` when it is one plain path component; ValueError otherwise (a bug upstream: the
    layout only makes such names)."""
    if not name or name in (".", "..") or "/" in name or "\x00" in name:
        raise ValueError(f"not a single file name: {name!r}")
    return name


class SafeDir:
    """An open directory (its descriptor) and its path for messages. Close it, or use `with`."""

    def __init__(self, fd: int, path: str, odd: Optional[list[str]] = None) -> None:
        self.fd = fd
        self.path = path
        # What stood at a final name and was neither a file nor a link (a FIFO, a socket...): it is
        # replaced like a link, and said (shared by the directories opened from this one).
        self.odd: list[str] = [] if odd is None else odd

    @classmethod
    def open_root(cls, path: str, create: bool = True) -> "SafeDir":
        """DIR itself: the user named it, so a link as DIR is followed (as `cd` would)."""
        if create:
            os.makedirs(path, exist_ok=True)
        return cls(os.open(path, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0)), path)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> "SafeDir":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def shown(self, name: str) -> str:
        return os.path.join(self.path, name)

    # -- directories ---------------------------------------------------

    def subdir(self, *parts: str, create: bool = True) -> "SafeDir":
        """The directory at `parts` below this one, created (0o755) when missing and `create`; a
        link or a file on the way raises PlantedLink, FileNotFoundError when missing and not `create`."""
        fd, path = os.dup(self.fd), self.path
        try:
            for part in parts:
                check_name(part)
                path = os.path.join(path, part)
                if create:
                    try:
                        os.mkdir(part, 0o755, dir_fd=fd)
                    except FileExistsError:
                        pass
                try:
                    child = os.open(part, _DIRECTORY, dir_fd=fd)
                except OSError as error:
                    if error.errno in (errno.ELOOP, errno.ENOTDIR):
                        raise PlantedLink(errno.ENOTDIR, "a link or a file stands where the backup keeps a directory;"
                                          " it is not followed (move it away)", path) from None
                    raise
                os.close(fd)
                fd = child
            return SafeDir(fd, path, self.odd)
        except BaseException:
            os.close(fd)
            raise

    def names(self) -> list[str]:
        return os.listdir(self.fd)

    # -- files ---------------------------------------------------------

    def write(self, name: str, data: bytes, mtime: Optional[float] = None) -> None:
        """Replaces `name` with `data`: temporary (O_EXCL|O_NOFOLLOW), fsync, rename."""
        check_name(name)
        fd, temporary = create_temporary(self.fd, name, 0o644)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            if mtime is not None:
                os.utime(temporary, (mtime, mtime), dir_fd=self.fd, follow_symlinks=False)
            self._note_odd(name)
            os.rename(temporary, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            self._unlink_quietly(temporary)
            raise

    def write_if_changed(self, name: str, data: bytes) -> bool:
        """`write`, unless the regular file `name` already holds `data`: False then."""
        try:
            if self.read(name) == data:
                return False
        except OSError:
            pass
        self.write(name, data)
        return True

    def _note_odd(self, name: str) -> None:
        found = self.lstat(name)
        if found is not None and not (stat.S_ISREG(found.st_mode) or stat.S_ISLNK(found.st_mode)):
            self.odd.append(f"{self.shown(name)} was not a file (a FIFO, a socket or a device): replaced")

    def adopt(self, source_path: str, name: str, mtime: Optional[float] = None) -> None:
        """Moves the finished file at `source_path` (the backup's own cache, same file system) to
        `name` here: fsync'd first, then renamed over whatever `name` was (a link is replaced)."""
        check_name(name)
        fd = open_regular(source_path)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        if mtime is not None:
            os.utime(source_path, (mtime, mtime), follow_symlinks=False)
        self._note_odd(name)
        os.rename(source_path, name, dst_dir_fd=self.fd)

    def read(self, name: str) -> bytes:
        """The regular file `name` (never through a link: ELOOP; NotRegularFile for a FIFO...)."""
        return read_regular(check_name(name), self.fd, self.shown(name))

    def digest(self, name: str) -> Optional[tuple[int, str]]:
        """(size, sha256) of the regular file `name`; None when it is missing or not a regular file."""
        try:
            fd = open_regular(check_name(name), self.fd)
        except OSError:
            return None
        with os.fdopen(fd, "rb") as file:
            return digest_of_fd(file.fileno())

    def lstat(self, name: str) -> Optional[os.stat_result]:
        try:
            return os.stat(check_name(name), dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def set_mtime(self, name: str, mtime: float) -> None:
        os.utime(check_name(name), (mtime, mtime), dir_fd=self.fd, follow_symlinks=False)

    def link(self, target: str, name: str) -> None:
        """A symbolic link `name` -> `target` (relative), replacing an older link or file of that name."""
        check_name(name)
        found = self.lstat(name)
        if found is not None and stat.S_ISLNK(found.st_mode) and os.readlink(name, dir_fd=self.fd) == target:
            return
        temporary = temporary_name(name)
        os.symlink(target, temporary, dir_fd=self.fd)
        try:
            os.rename(temporary, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            self._unlink_quietly(temporary)
            raise

    def remove(self, name: str) -> bool:
        """Removes the file or link `name` (never a directory); False when there was none."""
        try:
            os.unlink(check_name(name), dir_fd=self.fd)
            return True
        except FileNotFoundError:
            return False

    def remove_leftovers(self, matches: Callable[[str], bool]) -> int:
        """Removes the files and links here whose names `matches` (what a killed run left: names of
        an exact pattern of the backup's or the library's own); the count removed. Nothing else is
        touched, nor anything but files and links."""
        removed = 0
        for name in self.names():
            found = self.lstat(name) if matches(name) else None
            if found is not None and (stat.S_ISREG(found.st_mode) or stat.S_ISLNK(found.st_mode)):
                removed += self.remove(name)
        return removed

    def _unlink_quietly(self, name: str) -> None:
        try:
            os.unlink(name, dir_fd=self.fd)
        except OSError:
            pass


def digest_of_fd(fd: int) -> tuple[int, str]:
    """(size, sha256 hex) of the open file `fd`, read from its start."""
    hasher, size = hashlib.sha256(), 0
    os.lseek(fd, 0, os.SEEK_SET)
    while True:
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            return size, hasher.hexdigest()
        hasher.update(chunk)
        size += len(chunk)
