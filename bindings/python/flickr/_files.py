# SPDX-License-Identifier: MIT
"""How the package writes files (the token store; the backup's SafeDir takes its flags): never through a link.

A file is written under a fresh temporary name beside its final one, created with
O_CREAT|O_EXCL|O_NOFOLLOW (so neither an existing file nor a link planted at that name, in a
shared folder say, is opened), flushed to disk, then renamed into place. A rename replaces a link
at the final name itself, never its target; and a reader never sees half a file.
"""
from __future__ import annotations

import contextlib
import errno
import os
import secrets
from typing import BinaryIO, Iterator

_CREATE = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
           | getattr(os, "O_NOCTTY", 0))
_ATTEMPTS = 100
# Room left in a 255-byte name for the prefix's dot, the random part and ".part".
_NAME_ROOM = 200


@contextlib.contextmanager
def temporary_beside(target: str | os.PathLike[str], mode: int = 0o666) -> Iterator[tuple[BinaryIO, str]]:
    """A new file in `target`'s directory, open for binary writing, and its path: hidden, named
    after `target` with a random part. `mode` is before the umask (0o600 for secrets). The caller
    writes, calls `finish`, then renames or links the path into place while the block is open.
    On leaving the block the temporary name is removed if it still names this file (a failure,
    or a hard link made instead of a rename); anything else found there is left alone."""
    target = os.fspath(target)
    directory = os.path.dirname(target) or "."
    base = os.path.basename(target).encode("utf-8", "surrogateescape")[:_NAME_ROOM].decode("utf-8", "ignore")
    fd, path = _create(directory, f".{base}.", mode)
    identity = os.fstat(fd)
    try:
        with os.fdopen(fd, "wb") as file:
            yield file, path
    finally:
        _remove_if_same(path, identity)


def finish(file: BinaryIO) -> None:
    """Flushes `file` to disk: after a crash the renamed file is whole, not empty."""
    file.flush()
    os.fsync(file.fileno())


def write_atomically(path: str | os.PathLike[str], data: bytes, mode: int = 0o666) -> None:
    """Replaces the file at `path` with `data` (see the module doc); a link at `path` is replaced
    by the file, its target left as it was. Raises OSError."""
    with temporary_beside(path, mode) as (file, temporary):
        file.write(data)
        finish(file)
        os.replace(temporary, path)


def _create(directory: str, prefix: str, mode: int) -> tuple[int, str]:
    for _ in range(_ATTEMPTS):
        path = os.path.join(directory, f"{prefix}{secrets.token_hex(8)}.part")
        try:
            return os.open(path, _CREATE, mode), path
        except FileExistsError:  # taken (by a file or a link): another random name
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", directory)


def _remove_if_same(path: str, identity: os.stat_result) -> None:
    with contextlib.suppress(OSError):
        found = os.lstat(path)
        if (found.st_dev, found.st_ino) == (identity.st_dev, identity.st_ino):
            os.unlink(path)
