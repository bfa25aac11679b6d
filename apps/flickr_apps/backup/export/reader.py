# SPDX-License-Identifier: MIT
"""Reading an account export's zips (or the folders they were unpacked into) in place, bounded.

An entry's name is only ever matched against the export's patterns: it never becomes a path (the
item's path comes from the backup's layout). Every read is bounded: a JSON file past MAX_JSON is
refused unread; a file is copied in chunks with a running count, stopped at the size its header
declares (zipfile stops there, and its CRC check refuses bytes that are not what the header says);
a member whose declared size is far beyond its compressed size is refused as a zip bomb before a
byte is inflated. A refused entry is reported by its caller; the run goes on.
"""
from __future__ import annotations

import json
import os
import re
import stat
import struct
import threading
import zipfile
import zlib
from typing import Any, BinaryIO, Iterator, NamedTuple, Optional

from flickr.files import NotRegularFile, kind_of, open_regular

MAX_JSON = 64 << 20  # a photo_<id>.json is about 1 KB; albums.json of a large account a few MB
MAX_FILE = 1 << 40  # the fetcher's bound for a downloaded file (docs/backup.md)
MAX_RATIO = 200  # inflated/compressed: JPEG, video and JSON stay far below; a bomb is ~1000
_RATIO_FROM = 16 << 20  # below this an entry's ratio is not looked at (it cannot fill a disk)
MAX_DIRECTORY = 64 << 20  # a zip's central directory, parsed whole by zipfile: about a million photo_<id>.json
MAX_DEPTH = 8  # folders below a PATH that are looked into
_CHUNK = 1 << 20
DATA_ZIP = re.compile(r"data-download-([0-9]{1,6})(?:\.zip)?")
PHOTO_JSON = re.compile(r"photo_([0-9]{1,20})\.json")
_OLD_NAME = re.compile(r"([0-9]{1,20})_[0-9a-f]{1,40}(?:_o)?\.[A-Za-z0-9]{1,10}")
_NEW_NAME = re.compile(r".*_([0-9]{1,20})(?:_o)?\.[A-Za-z0-9]{1,10}", re.S)
_DIGITS = re.compile(r"[0-9]{6,20}")


class Refused(Exception):
    """An entry that is not read: the message says why (its size, its name, a broken zip)."""


# What a broken or hostile zip raises while it is read (a CRC mismatch, a truncated or encrypted
# member, a compression method zipfile lacks): each means this entry is refused, never the run.
ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error, NotImplementedError, RuntimeError,
              ValueError, OSError)


class Entry(NamedTuple):
    name: str  # the entry's last component, for matching only
    source: str  # the zip or the folder it came from, for messages
    path: str  # the file's path (a folder's entry), or the zip's path
    member: Optional[zipfile.ZipInfo]  # None for a folder's file
    size: int  # declared (zip) or found (folder)
    data_zip: Optional[int]  # N of data-download-N (zip or folder) it came from

    def shown(self) -> str:
        return f"{self.member.filename if self.member else self.name} in {self.source}"


def last_component(name: str) -> str:
    """An entry's name without any folder part (either slash): what is matched, never a path."""
    return re.split(r"[/\\]", name)[-1]


def unsafe_name(name: str) -> bool:
    """A name with `..`, an absolute path, a drive or a NUL: listed, never used."""
    parts = re.split(r"[/\\]", name)
    return name.startswith(("/", "\\")) or ".." in parts or "\x00" in name or bool(re.match(r"[A-Za-z]:", name))


def ids_in_name(name: str) -> list[str]:
    """The ids a file's name may carry: `<id>_<secret>_o.ext` (older), `<slug>_<id>_o.ext` (newer),
    and any run of 6+ digits; the caller keeps those the export's JSON knows (a slug of digits reads
    both ways, docs/export.md)."""
    found = []
    for pattern in (_OLD_NAME, _NEW_NAME):
        match = pattern.fullmatch(name)
        if match:
            found.append(match.group(1))
    found += _DIGITS.findall(name)
    return list(dict.fromkeys(found))


class Sources:
    """The PATHs given: zips and folders (walked without following a link), their entries."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = paths
        self.refused: list[dict[str, str]] = []  # {"entry", "why"}
        self.data_zips: set[int] = set()
        self._zips: dict[str, zipfile.ZipFile] = {}
        self._raw: list[BinaryIO] = []
        self._lock = threading.Lock()

    def entries(self) -> Iterator[Entry]:
        for path in self.paths:
            found = os.stat(path)  # the user named it: a link as PATH is followed, as `ls` would
            if stat.S_ISDIR(found.st_mode):
                yield from self._folder(path, path, 0, _data_number(os.path.basename(os.path.normpath(path))))
            elif stat.S_ISREG(found.st_mode):
                yield from self._zip(os.path.realpath(path))  # then opened without following a link
            else:
                raise Refused(f"{path}: neither a zip nor a folder")

    def _folder(self, top: str, folder: str, depth: int, number: Optional[int]) -> Iterator[Entry]:
        if number is not None:
            self.data_zips.add(number)
        with os.scandir(folder) as listing:
            children = sorted(listing, key=lambda e: e.name)
        for child in children:
            if child.is_symlink():
                self.refused.append({"entry": child.path, "why": "a link: not followed"})
            elif child.is_dir(follow_symlinks=False):
                if depth + 1 > MAX_DEPTH:
                    self.refused.append({"entry": child.path, "why": f"more than {MAX_DEPTH} folders deep"})
                    continue
                inner = _data_number(child.name)
                yield from self._folder(top, child.path, depth + 1, inner if inner is not None else number)
            elif child.is_file(follow_symlinks=False):
                if child.name.lower().endswith(".zip"):
                    yield from self._zip(child.path)
                else:
                    yield Entry(child.name, folder, child.path, None, child.stat(follow_symlinks=False).st_size, number)
            else:
                self.refused.append({"entry": child.path, "why": f"{kind_of(child.stat(follow_symlinks=False))}, "
                                     "not a regular file: not read"})

    def _zip(self, path: str) -> Iterator[Entry]:
        number = _data_number(os.path.basename(path))
        try:
            directory = _directory_size(path)
            if directory > MAX_DIRECTORY:
                self.refused.append({"entry": path, "why": f"its directory of entries is {directory} bytes, more "
                                     f"than the {MAX_DIRECTORY} read (a data zip of 500 files has about 50 KB)"})
                return
            with _regular(path) as raw, zipfile.ZipFile(raw) as archive:  # zipfile leaves a file it was given open
                members = archive.infolist()
        except ZIP_ERRORS as error:
            self.refused.append({"entry": path, "why": f"not a readable zip: {error}"})
            return
        if number is not None:
            self.data_zips.add(number)
        for member in members:
            if member.is_dir():
                continue
            if unsafe_name(member.filename):
                self.refused.append({"entry": f"{member.filename!r} in {path}",
                                     "why": "a name reaching outside its folder: not used"})
                continue
            yield Entry(last_component(member.filename), path, path, member, member.file_size, number)

    # -- reading ----------------------------------------------------------

    def _archive(self, path: str) -> zipfile.ZipFile:
        """One open ZipFile per zip, shared by the backup's file threads (zipfile reads members of
        one archive from several threads, each at its own offset)."""
        with self._lock:
            if path not in self._zips:
                raw = _regular(path)
                self._raw.append(raw)  # zipfile does not close a file it was given
                self._zips[path] = zipfile.ZipFile(raw)
            return self._zips[path]

    def _open(self, entry: Entry, limit: int) -> BinaryIO:
        if entry.size > limit:
            raise Refused(f"{entry.shown()}: {entry.size} bytes, more than the {limit} read of such a file")
        if entry.member is None:
            try:  # never through a link, never held by a FIFO put there since the folder was listed
                return _regular(entry.path)
            except NotRegularFile as error:
                raise Refused(f"{entry.shown()}: {error.strerror}") from None
        member = entry.member
        if member.file_size > _RATIO_FROM and member.file_size > MAX_RATIO * max(member.compress_size, 1):
            raise Refused(f"{entry.shown()}: {member.file_size} bytes from {member.compress_size} compressed "
                          f"(more than {MAX_RATIO} to 1): a zip bomb, not read")
        return self._archive(entry.path).open(member)  # type: ignore[return-value]

    def chunks(self, entry: Entry, limit: int = MAX_FILE) -> Iterator[bytes]:
        """The entry's bytes, chunk by chunk, never more than its declared size nor `limit`;
        Refused when it is not what its header says (shorter, longer, a bad CRC) or too large."""
        try:
            with self._open(entry, limit) as stream:
                count = 0
                while True:
                    chunk = stream.read(_CHUNK)
                    if not chunk:
                        break
                    count += len(chunk)
                    if count > entry.size or count > limit:
                        raise Refused(f"{entry.shown()}: more bytes than the {entry.size} declared")
                    yield chunk
                if count != entry.size and entry.member is not None:
                    raise Refused(f"{entry.shown()}: {count} bytes, not the {entry.size} declared")
        except ZIP_ERRORS as error:
            why = str(error) or ("it ends before the size its header declares" if isinstance(error, EOFError)
                                 else type(error).__name__)
            raise Refused(f"{entry.shown()}: {why}") from None

    def json(self, entry: Entry) -> Any:
        """The entry as JSON (at most MAX_JSON bytes); Refused when larger, not UTF-8 or not JSON."""
        data = b"".join(self.chunks(entry, MAX_JSON))
        try:
            return json.loads(data.decode("utf-8-sig"))
        except (ValueError, RecursionError) as error:
            raise Refused(f"{entry.shown()}: not JSON ({str(error)[:80]})") from None

    def close(self) -> None:
        with self._lock:
            for archive in self._zips.values():
                archive.close()
            for raw in self._raw:
                raw.close()
            self._zips.clear()
            self._raw.clear()


def _regular(path: str) -> BinaryIO:
    """The regular file at `path`, never through a link nor held by a FIFO (NotRegularFile, an OSError)."""
    return os.fdopen(open_regular(path), "rb")


def _directory_size(path: str) -> int:
    """The size of a zip's central directory as its end record says (zip64's too), read before
    zipfile reads and parses the whole of it into memory; 0 when no end record is found (zipfile
    then refuses the file itself)."""
    with _regular(path) as file:
        size = file.seek(0, os.SEEK_END)
        file.seek(max(size - 65_557, 0))  # the end record (22 bytes) and its comment (64 KiB at most)
        tail = file.read()
        at = tail.rfind(b"PK\x05\x06")
        if at < 0 or at + 22 > len(tail):
            return 0
        found: int = struct.unpack_from("<I", tail, at + 12)[0]
        locator = at - 20
        if found == 0xFFFFFFFF and locator >= 0 and tail[locator:locator + 4] == b"PK\x06\x07":
            record = struct.unpack_from("<Q", tail, locator + 8)[0]
            if 0 <= record <= size - 56:
                file.seek(record)
                head = file.read(56)
                if head[:4] == b"PK\x06\x06":
                    found = struct.unpack_from("<Q", head, 40)[0]
        return found


def _data_number(name: str) -> Optional[int]:
    match = DATA_ZIP.fullmatch(name)
    return int(match.group(1)) if match else None
