# SPDX-License-Identifier: MIT
"""How the binding and its applications open and write files (the token store; `flickr backup` and
`flickr download`, in apps/): never through a link, never blocked by a FIFO. Public (docs/python.md)
so that there is one such helper, not one in each distribution.

Reading or rewriting: `open_regular` opens a name relative to a directory's descriptor with
O_NOFOLLOW|O_NONBLOCK (a FIFO planted at the name cannot hold the open), checks that a regular file
was opened (fstat), then makes the descriptor blocking again. Writing: a fresh temporary name
beside the final one (`temporary_name`: a fixed shape, so that the clean-up of a killed run's
leftovers matches it exactly, `temporary_final`), created O_CREAT|O_EXCL|O_NOFOLLOW (neither an
existing file nor a link planted at that name is opened), flushed to disk, then renamed into
place. A rename replaces a link at the final name itself, never its target; a reader never sees
half a file.
"""
from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from typing import BinaryIO, Iterator, Optional

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
#: The flags of a new file's creation: exclusive (an existing file or a link at the name is an error).
CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
_ATTEMPTS = 100
# Room left in a 255-byte name for the prefix's dot, the random part and ".part".
_NAME_ROOM = 200
# A temporary's name: "." + the final name's first 200 bytes + "." + 16 lowercase hex digits + ".part".
_TEMPORARY = re.compile(r"\.(?P<final>.+)\.[0-9a-f]{16}\.part", re.DOTALL)


class NotRegularFile(OSError):
    """Something other than one regular file (a FIFO, a device, a folder, a hard link where the
    caller needs the file alone) stands at a name the package reads or rewrites: left alone.
    `what` says which ("a FIFO"...)."""

    what = "not a regular file"


def temporary_name(final: str) -> str:
    """A fresh temporary name for a file that will be renamed to `final` (a single component)."""
    base = final.encode("utf-8", "surrogateescape")[:_NAME_ROOM].decode("utf-8", "ignore")
    return f".{base}.{secrets.token_hex(8)}.part"


def temporary_final(name: str) -> Optional[str]:
    """The (possibly cut) final name a temporary name of `temporary_name`'s shape was made for;
    None when `name` is not of that shape."""
    found = _TEMPORARY.fullmatch(name)
    return found.group("final") if found else None


def create_temporary(dir_fd: Optional[int], final: str, mode: int = 0o666) -> tuple[int, str]:
    """A new file open for writing, named `temporary_name(final)` in the directory `dir_fd`
    (None: the current one), and its name. `mode` is before the umask (0o600 for secrets)."""
    for _ in range(_ATTEMPTS):
        name = temporary_name(final)
        try:
            return os.open(name, CREATE, mode, dir_fd=dir_fd), name
        except FileExistsError:  # taken (by a file or a link): another random name
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", final)


def open_regular(name: str, dir_fd: Optional[int] = None, flags: int = os.O_RDONLY, mode: int = 0o644,
                 single: bool = False, shown: Optional[str] = None, follow: bool = False) -> int:
    """A descriptor (blocking) of the regular file `name` in `dir_fd`, opened with `flags`
    (O_CREAT may be among them) and never through a link (ELOOP) unless `follow` (a file the user
    names, which may be a link of theirs). NotRegularFile when a FIFO, a device, a socket or a folder
    stands there (a device is not even opened), or, with `single`, a file with other hard links (a
    state or lock file that must be the directory's own). `shown`: the name for messages."""
    shown = shown or name
    try:
        before: Optional[os.stat_result] = os.stat(name, dir_fd=dir_fd, follow_symlinks=follow)
    except FileNotFoundError:
        if not flags & os.O_CREAT:
            raise
        before = None
    if before is not None and not stat.S_ISLNK(before.st_mode):
        _check_regular(before, shown, single)
    links = _NOFOLLOW & ~getattr(os, "O_NOFOLLOW", 0) if follow else _NOFOLLOW
    fd = os.open(name, flags | links | os.O_NONBLOCK, mode, dir_fd=dir_fd)
    try:
        found = os.fstat(fd)
        _check_regular(found, shown, single)  # what was opened, whatever stood there a moment before
        os.set_blocking(fd, True)
        return fd
    except BaseException:
        os.close(fd)
        raise


def _check_regular(found: os.stat_result, name: str, single: bool) -> None:
    if not stat.S_ISREG(found.st_mode) or (single and found.st_nlink != 1):
        what = kind_of(found)
        said = what if stat.S_ISREG(found.st_mode) else f"{what}, not a regular file"
        error = NotRegularFile(errno.EINVAL, said, name)
        error.what = what
        raise error


def kind_of(found: os.stat_result) -> str:
    """What a file is, for a message: "a FIFO", "a link", "a file with other hard links"..."""
    if stat.S_ISREG(found.st_mode):
        return "a file" if found.st_nlink == 1 else "a file with other hard links"
    return _kind(found.st_mode)


def _kind(mode: int) -> str:
    for test, kind in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a folder"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISLNK, "a link")):
        if test(mode):
            return kind
    return "not a file"


def read_regular(name: str, dir_fd: Optional[int] = None, shown: Optional[str] = None, follow: bool = False) -> bytes:
    """The content of the regular file `name` (see `open_regular`)."""
    with os.fdopen(open_regular(name, dir_fd, shown=shown, follow=follow), "rb") as file:
        return file.read()


@contextlib.contextmanager
def temporary_beside(target: str | os.PathLike[str], mode: int = 0o666) -> Iterator[tuple[BinaryIO, str]]:
    """A new file in `target`'s directory, open for binary writing, and its path (`create_temporary`).
    The caller writes, calls `finish`, then renames or links the path into place while the block is
    open. On leaving the block the temporary name is removed if it still names this file (a failure,
    or a hard link made instead of a rename); anything else found there is left alone."""
    target = os.fspath(target)
    directory = os.path.dirname(target) or "."
    dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    try:
        fd, name = create_temporary(dir_fd, os.path.basename(target), mode)
        identity = os.fstat(fd)
        try:
            with os.fdopen(fd, "wb") as file:
                yield file, os.path.join(directory, name)
        finally:
            remove_if_same(dir_fd, name, identity)
    finally:
        os.close(dir_fd)


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


def remove_if_same(dir_fd: Optional[int], name: str, identity: os.stat_result) -> None:
    """Removes `name` if it is still the file `identity` was taken of."""
    with contextlib.suppress(OSError):
        found = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        if (found.st_dev, found.st_ino) == (identity.st_dev, identity.st_ino):
            os.unlink(name, dir_fd=dir_fd)
