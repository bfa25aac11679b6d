# SPDX-License-Identifier: MIT
"""A small on-disk store of OAuth access tokens: one entry per API key and user.

The file is ``$FLICKR_TOKEN_STORE`` when set, else ``$XDG_CONFIG_HOME/flickr/tokens.json``
(``~/.config/flickr/tokens.json`` without XDG_CONFIG_HOME). It is JSON, written
atomically with 0600 permissions in a 0700 directory, since it holds token secrets: a new file
created exclusively, then renamed over the store (flickr.files), so a link at the store's name
is replaced, never written through. A store that is not what this module writes (any JSON of
another shape, a field of another type) is "damaged": every use says so, and
`discard_damaged` (flickr auth logout) removes it.
Several users of one API key may be stored; the one saved (or selected) last is the default.
"""
from __future__ import annotations

import contextlib
import json
import os
import math
import pathlib
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Iterator

from . import errors
from .files import read_regular, write_atomically

_FORMAT = 1
_FIELDS = ("oauth_token", "oauth_token_secret", "user_nsid", "username", "fullname", "perms")


@dataclass
class StoredToken:
    """An access token and whose it is."""

    api_key: str
    oauth_token: str
    oauth_token_secret: str = field(repr=False)
    user_nsid: str = ""
    username: str = ""
    fullname: str = ""
    perms: str = ""
    saved_at: float = 0.0

    def matches(self, user: str) -> bool:
        """True when `user` names this entry's user (NSID or username)."""
        return user in (self.user_nsid, self.username) and bool(user)


def default_path() -> pathlib.Path:
    """Where the store lives, per the environment (see the module doc)."""
    explicit = os.environ.get("FLICKR_TOKEN_STORE")
    if explicit:
        return pathlib.Path(explicit)
    config = os.environ.get("XDG_CONFIG_HOME")
    base = pathlib.Path(config) if config and os.path.isabs(config) else pathlib.Path.home() / ".config"
    return base / "flickr" / "tokens.json"


def _read_store(path: pathlib.Path) -> bytes:
    # A FIFO or a device at the store's name (FLICKR_TOKEN_STORE=/dev/full) is refused, not read: it would
    # block every command, or fill memory. A link of the user's (a dotfiles folder) is followed, as before.
    return read_regular(str(path), follow=True)


class TokenStore:
    """Tokens per API key and user, in one JSON file (see the module doc)."""

    def __init__(self, path: str | os.PathLike[str] | None = None):
        self.path = pathlib.Path(path) if path is not None else default_path()

    # -- reading --------------------------------------------------------

    def _read(self) -> list[dict[str, Any]]:
        try:
            data = _read_store(self.path)
        except FileNotFoundError:
            return []
        except OSError as error:
            raise errors.FileError(errors.EIO, f"cannot read the token store {self.path}: {error.strerror}") from None
        entries = _parse(data)
        if isinstance(entries, str):
            raise errors.FileError(errors.EIO, f"the token store {self.path} is damaged; remove it (flickr auth "
                                   f"logout does) and log in again: {entries}")
        return entries

    def entries(self, api_key: str | None = None) -> list[StoredToken]:
        """Every stored token (of `api_key` when given), the default (latest) first."""
        found = [StoredToken(**{k: v for k, v in e.items() if k in StoredToken.__dataclass_fields__})
                 for e in self._read() if api_key is None or e["api_key"] == api_key]
        return sorted(found, key=lambda t: t.saved_at, reverse=True)

    def load(self, api_key: str, user: str | None = None) -> StoredToken | None:
        """The token of `user` (NSID or username) for `api_key`, else the default one; None if none."""
        for token in self.entries(api_key):
            if user is None or token.matches(user):
                return token
        return None

    # -- writing --------------------------------------------------------

    def save(self, api_key: str, token: dict[str, Any]) -> StoredToken:
        """Stores an access token (a dict with oauth_token, oauth_token_secret and, ideally,
        user_nsid, username, fullname, perms), replacing the same user's previous one; it
        becomes the default."""
        if not api_key or not token.get("oauth_token") or not token.get("oauth_token_secret"):
            raise errors.InvalidArgument(errors.EINVAL, "a stored token needs the API key, oauth_token and "
                                         "oauth_token_secret")
        texts = {k: str(token.get(k) or "") for k in _FIELDS}
        saved_at = time.time()
        entry: dict[str, object] = {"api_key": api_key, **texts, "saved_at": saved_at}
        with self._locked():
            kept = [e for e in self._read() if not self._same(e, entry)]
            self._write(kept + [entry])
        return StoredToken(api_key=api_key, saved_at=saved_at, **texts)

    def select(self, api_key: str, user: str) -> StoredToken | None:
        """Makes `user`'s stored token the default; returns it (None when not stored)."""
        with self._locked():
            entries = self._read()
            for e in entries:
                if e["api_key"] == api_key and user in (e.get("user_nsid"), e.get("username")):
                    e["saved_at"] = time.time()
                    self._write(entries)
                    return StoredToken(**{k: v for k, v in e.items() if k in StoredToken.__dataclass_fields__})
        return None

    def remove(self, api_key: str, user: str | None = None, *, all_users: bool = False) -> list[StoredToken]:
        """Forgets `user`'s token (the default one when None; every one with all_users). Returns what went."""
        with self._locked():
            entries = self._read()
            mine = sorted((e for e in entries if e["api_key"] == api_key),
                          key=lambda e: e.get("saved_at", 0), reverse=True)
            if all_users:
                gone = mine
            elif user is None:
                gone = mine[:1]
            else:
                gone = [e for e in mine if user in (e.get("user_nsid"), e.get("username"))]
            if gone:
                self._write([e for e in entries if all(e is not g for g in gone)])
        return [StoredToken(**{k: v for k, v in e.items() if k in StoredToken.__dataclass_fields__}) for e in gone]

    @staticmethod
    def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
        if a["api_key"] != b["api_key"]:
            return False
        if a.get("user_nsid") and b.get("user_nsid"):
            same: bool = a["user_nsid"] == b["user_nsid"]  # _parse made both str
            return same
        return bool(a.get("oauth_token") == b.get("oauth_token"))

    def _write(self, entries: list[dict[str, Any]]) -> None:
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            text = json.dumps({"format": _FORMAT, "tokens": entries}, indent=2) + "\n"
            write_atomically(self.path, text.encode("utf-8"), mode=0o600)
        except OSError as error:
            raise errors.FileError(errors.EIO, f"cannot write the token store {self.path}: {error.strerror}") from None

    def discard_damaged(self) -> bool:
        """Removes the store if it is damaged (see `_read`), so that logging in again can start
        afresh; True when it did. A readable store, or one that cannot be read at all, is kept."""
        with self._locked():
            try:
                data = _read_store(self.path)
            except OSError:
                return False
            if not isinstance(_parse(data), str):
                return False
            try:
                self.path.unlink()  # a link at the store's name goes, not its target
            except FileNotFoundError:
                return False
            except OSError as error:
                raise errors.FileError(errors.EIO, f"cannot remove the token store {self.path}: "
                                       f"{error.strerror}") from None
            return True

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Serialises writers (processes too) with an advisory lock beside the file."""
        try:
            import fcntl
        except ImportError:  # not POSIX: no cross-process lock
            yield
            return
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(self.path.parent / ".tokens.lock", os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as error:
            raise errors.FileError(errors.EIO, f"cannot lock the token store {self.path}: {error.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)


def as_dict(token: StoredToken) -> dict[str, str]:
    """A stored token as the plain dict the OAuth helpers return."""
    return {k: v for k, v in asdict(token).items() if k in _FIELDS}


def _parse(data: bytes) -> list[dict[str, Any]] | str:
    """The entries of a store's bytes, or what makes them not a store as `_write` writes it: every
    entry a dict whose fields have their types (texts, api_key, oauth_token and its secret not
    empty, a finite saved_at), so that no later comparison, attribute or StoredToken meets a list, a
    NaN or a missing field."""
    try:
        document = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError):  # bad UTF-8 or JSON, NaN, a 5000-digit number, [[[[...
        return "not JSON in UTF-8"
    if not isinstance(document, dict) or type(document.get("format")) is not int or document["format"] != _FORMAT:
        return f"not a token store of format {_FORMAT}"
    entries = document.get("tokens")
    if not isinstance(entries, list):
        return "its tokens are not a list"
    for number, entry in enumerate(entries, 1):
        problem = _problem(entry)
        if problem:
            return f"entry {number}: {problem}"
    return entries


def _problem(entry: Any) -> str:
    """What is wrong with one entry of the store ("" when nothing is)."""
    if not isinstance(entry, dict):
        return "not an object"
    for name in ("api_key", "oauth_token", "oauth_token_secret"):
        if not entry.get(name):
            return f"{name} is missing or empty"
    wrong = next((name for name in ("api_key", *_FIELDS) if not isinstance(entry.get(name, ""), str)), None)
    if wrong:
        return f"{wrong} is not text"
    saved_at = entry.get("saved_at", 0.0)
    if not (type(saved_at) is float and math.isfinite(saved_at) or type(saved_at) is int and abs(saved_at) < 2**63):
        return "saved_at is not a time"
    return ""


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is no JSON value")
