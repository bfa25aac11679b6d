# SPDX-License-Identifier: MIT
"""`place`: a fetched file moved to its name in `flickr download`'s destination, never through a link.

The file arrives in a private folder inside the destination (the library's fetch: a temporary
created O_EXCL|O_NOFOLLOW, renamed when whole), so placing it is a rename or a hard link on the
same file system: no copy, whatever its size.
"""
from __future__ import annotations

import os

from flickr.files import open_regular
from .common import EXIT_FAILURE, CLIError

_CHUNK = 1 << 16


def place(fetched: str, target: str, overwrite: bool) -> str:
    """Moves the file at `fetched` to `target`: "downloaded", or "identical" when `target` already
    holds the same bytes (`fetched` is removed then). Refuses with CLIError to replace anything
    else (another file, a link) unless `overwrite`; with it, a link at `target` is itself replaced,
    its target left as it was. The file is flushed to disk first: after a crash the name holds the
    whole file, not an empty one."""
    if os.path.lexists(target):
        if _regular_file(target) and _same_content(fetched, target):
            os.unlink(fetched)
            return "identical"
        if not overwrite:
            raise _refusal(target)
    _flush(fetched)
    try:
        if overwrite:
            os.replace(fetched, target)
        else:
            _move_into_free_name(fetched, target)
        return "downloaded"
    except FileExistsError:  # the name was taken since the check
        if _regular_file(target) and _same_content(fetched, target):
            os.unlink(fetched)
            return "identical"
        raise _refusal(target) from None


def _flush(path: str) -> None:
    fd = open_regular(path)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _same_content(path: str, other_path: str) -> bool:
    """Whether the files at `path` and `other_path` hold the same bytes (read a chunk at a time);
    a FIFO or a device at either is no file to compare (NotRegularFile), never waited on."""
    with os.fdopen(open_regular(path), "rb") as mine, os.fdopen(open_regular(other_path), "rb") as theirs:
        if os.fstat(mine.fileno()).st_size != os.fstat(theirs.fileno()).st_size:
            return False
        while True:
            block = mine.read(_CHUNK)
            if block != theirs.read(_CHUNK):
                return False
            if not block:
                return True


def _refusal(target: str) -> CLIError:
    return CLIError(f"{target} exists with other content; left as it is (--overwrite replaces it)", EXIT_FAILURE)


def _regular_file(path: str) -> bool:
    """A file of its own at `path`, not a link to one: only that is compared (read)."""
    return os.path.isfile(path) and not os.path.islink(path)


def _move_into_free_name(fetched: str, target: str) -> None:
    """Puts `fetched` at `target` unless `target` exists (FileExistsError): a rename alone would
    replace a file created since the caller looked."""
    try:
        os.link(fetched, target)
        os.unlink(fetched)
        return
    except FileExistsError:
        raise
    except OSError:  # no hard links here (FAT, exFAT, some network file systems)
        pass
    # Claims the name (O_EXCL: not through a link either); empty until the rename, never partial.
    os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666))
    os.replace(fetched, target)
