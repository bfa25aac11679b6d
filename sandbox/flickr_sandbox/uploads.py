# SPDX-License-Identifier: MIT
"""Upload and replace endpoints: streamed multipart straight to disk.

The body is read 64 KiB at a time and fed to the multipart parser; the
``photo`` part is written to a temporary file while its size and SHA-256 are
computed, so memory use does not depend on the upload's size.

Nothing is stored for a caller who is not allowed to upload: when the photo part begins, the
parameters before it (query, Authorization header, the fields sent first, as every client
sends them) must already authenticate a user with write permission, or the answer is given at
once without reading the rest of the body (as Flickr refuses a bad signature without reading a
200 MB body). The fields are held in memory, so they are bounded in number and in size.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import sqlite3
import tempfile
import time

from . import constants as C
from . import response as R
from .auth import TOKEN_ABSENT, Caller, authenticate, insufficient
from .envelope import Node
from .errors import ApiError, BodyError, OAuthProblem
from .faults import FAULT_PARAM
from .images import dimensions, sniff
from .limits import DESCRIPTION_CHARS, TICKETS, TITLE_CHARS, UPLOAD_BYTES_KEPT, UPLOADS_PER_USER, clip
from .methods.photos import add_tags, split_tags
from .multipart import (MultipartError, MultipartParser, PartSink, as_text, boundary_from_content_type,
                        parse_disposition)
from .params import parse_unsigned
from .request import Prepared, Request
from .store import Store

# The form fields (all but file parts) of one upload: Flickr's arguments are a dozen short
# values (title, description, tags, the signature's), so 256 fields and 1 MiB of them in all.
MAX_FIELDS = 256
MAX_FIELD_BYTES = 1024 * 1024
DEFAULT_DIMENSIONS = (4000, 3000)  # when the header does not tell (TIFF, HEIC, video)
ASYNC_DELAY = 0.5  # seconds until an async ticket completes


class _FileSink:
    """Writes one file part to disk, hashing and counting as it goes."""

    def __init__(self, directory: str, name: str):
        self.name = name  # the part's file name as sent, bytes that are not UTF-8 as \xNN
        fd, self.path = tempfile.mkstemp(prefix=".upload-", dir=directory)
        self._file = os.fdopen(fd, "wb")
        self.sha256 = hashlib.sha256()
        self.size = 0
        self.head = b""

    def write(self, data: bytes) -> None:
        if len(self.head) < 32:
            self.head += data[:32 - len(self.head)]
        self.sha256.update(data)
        self.size += len(data)
        self._file.write(data)

    def close(self) -> None:
        self._file.close()


class _FieldSink:
    """One form field's value, counted against the upload's MAX_FIELD_BYTES."""

    def __init__(self, upload: _Upload, name: str):
        self._upload, self._name, self._data = upload, name, bytearray()

    def write(self, data: bytes) -> None:
        self._upload.field_bytes += len(data)
        if self._upload.field_bytes > MAX_FIELD_BYTES:
            raise _too_large()
        self._data += data

    def close(self) -> None:
        self._upload.fields.append((self._name, self._data.decode("utf-8", "replace")))


class _Refused(Exception):
    """The caller may not upload: answered at once, the rest of the body left unread."""

    def __init__(self, response: R.Response):
        super().__init__(response.status)
        self.response = response


class _Discard:
    def write(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        pass


class _Upload:
    """What the multipart body held: text fields and at most one photo file."""

    def __init__(self) -> None:
        self.fields: list[tuple[str, str]] = []
        self.field_bytes = 0
        self.photo: _FileSink | None = None
        self.error: str | None = None
        self.refusal: R.Response | None = None

    def cleanup(self) -> None:
        if self.photo is not None and os.path.exists(self.photo.path):
            os.remove(self.photo.path)


def _too_large() -> BodyError:
    return BodyError(413, f"Request Entity Too Large: more than {MAX_FIELDS} form fields "
                          f"or {MAX_FIELD_BYTES // 1024} KiB of them")


def prepare(req: Request, replace: bool) -> Prepared:
    upload = _Upload()
    boundary = boundary_from_content_type(req.headers.get("Content-Type", ""))
    if boundary is None:
        # Not multipart: the parameters may still be an urlencoded form.
        upload.fields = req.read_form()[len(req.query_pairs):]
    else:
        def on_part(headers: dict[str, str]) -> PartSink:
            disposition = parse_disposition(headers.get("content-disposition", ""))
            name = as_text(disposition.get("name", ""))
            if name == "photo":
                if upload.photo is not None:
                    return _Discard()
                try:
                    # Checked again over every parameter at the end; the nonce is recorded then.
                    _uploader(req, req.query_pairs + upload.fields, record_nonce=False)
                except OAuthProblem as problem:
                    raise _Refused(R.text(problem.status, problem.body)) from None
                except ApiError as err:
                    raise _Refused(R.api_error(err)) from None
                upload.photo = _FileSink(req.site.store.photo_dir,
                                         as_text(disposition.get("filename", ""), "backslashreplace"))
                return upload.photo
            if "filename" in disposition:
                return _Discard()  # other file parts are not Flickr arguments
            if len(upload.fields) >= MAX_FIELDS:
                raise _too_large()
            return _FieldSink(upload, name)

        parser = MultipartParser(boundary, on_part)
        try:
            for chunk in req.body_chunks(req.site.max_upload_bytes):
                parser.feed(chunk)
            parser.close()
        except MultipartError as exc:
            # The rest is left unread: the server closes the connection after the answer.
            upload.error = str(exc)
        except _Refused as refused:
            upload.refusal = refused.response
        except BaseException:
            upload.cleanup()
            raise
    params = req.query_pairs + upload.fields
    return Prepared(params, lambda: _handle(req, upload, replace), upload.cleanup)


def _uploader(req: Request, params: list[tuple[str, str]], record_nonce: bool = True) -> Caller:
    """The caller of an upload, who must have write permission (raises Flickr's refusal)."""
    # Every field is signed except the photo itself (docs/protocol.md §5).
    caller = authenticate(req.site.store, req.method, req.signing_url(), params, req.header_oauth(),
                          unsigned=("photo",), record_nonce=record_nonce)
    if caller.perms < C.PERMS["write"]:
        if caller.scheme == "oauth" and caller.token is None:
            raise OAuthProblem(400, TOKEN_ABSENT)
        raise insufficient(C.PERMS["write"], caller.perms)
    return caller


def _handle(req: Request, upload: _Upload, replace: bool) -> R.Response:
    if upload.refusal is not None:
        return upload.refusal
    store = req.site.store
    params = req.query_pairs + upload.fields
    try:
        caller = _uploader(req, params)
        if upload.error is not None:
            raise ApiError(3, "General upload failure")
        args = {k: v for k, v in params if k != FAULT_PARAM}
        target = None
        if replace:
            target = store.photo(args.get("photo_id", ""))
            if target is None or target["owner"] != caller.nsid:
                raise ApiError(1, "Photo not found")
        if upload.photo is None:
            raise ApiError(2, "No photo specified")
        is_async = args.get("async") == "1"
        kind = sniff(upload.photo.head)
        if upload.photo.size == 0 or kind is None:
            if is_async:
                # The file is examined after the ticket is issued: the ticket fails (complete="2").
                return _ticket(store, None)
            raise ApiError(4, "Filesize was zero") if upload.photo.size == 0 else \
                ApiError(5, "Filetype was not recognised")
        _check_room(store, caller.require_user(), upload.photo.size, target)
        if target is not None:  # a replace (a new upload has none)
            photo_id = _replace(store, target, upload.photo, kind)
        else:
            photo_id = _store_new(store, caller.require_user(), args, upload.photo, kind)
    except OAuthProblem as problem:
        return R.text(problem.status, problem.body)
    except ApiError as err:
        return R.api_error(err)  # upload always answers XML, whatever format says
    if is_async:
        return _ticket(store, photo_id)
    row = store.row("SELECT * FROM photos WHERE id=?", (photo_id,))
    return R.xml_ok([Node("photoid", {"secret": row["secret"], "originalsecret": row["originalsecret"]},
                          text=photo_id)])


def _check_room(store: Store, nsid: str, size: int, target: sqlite3.Row | None) -> None:
    """Flickr's error 6 past the sandbox's bounds (limits.py): UPLOADS_PER_USER uploads of a
    user, UPLOAD_BYTES_KEPT bytes of every upload's file together (a replace frees its old file)."""
    kept = store.row("SELECT COALESCE(SUM(file_size), 0) AS n FROM photos WHERE file_path IS NOT NULL")["n"]
    freed = (target["file_size"] or 0) if target is not None else 0
    uploads = store.row("SELECT COUNT(*) AS n FROM photos WHERE owner=? AND file_path IS NOT NULL", (nsid,))["n"]
    if kept - freed + size > UPLOAD_BYTES_KEPT or (target is None and uploads >= UPLOADS_PER_USER):
        raise ApiError(6, "Upload limit reached. For more info, visit flickr.com/pro")


def _ticket(store: Store, photo_id: int | None) -> R.Response:
    """Issue an async ticket; it completes (or fails, without a photo) after ASYNC_DELAY."""
    number = store.next_value("ticket", 78701000)
    ticket = f"{number}-{72157600000000000 + (photo_id or number) % 10 ** 11}"
    store.trim("tickets", "1", (), TICKETS - 1, "complete_at")  # the oldest go past the bound (limits.py)
    store.run("INSERT INTO tickets VALUES (?,?,?,?)",
              (ticket, photo_id, time.time() + ASYNC_DELAY, int(photo_id is None)))
    return R.xml_ok([Node("ticketid", text=ticket)])


def _move_into_place(store: Store, sink: _FileSink, photo_id: int, originalsecret: str, fmt: str) -> str:
    path = os.path.join(store.photo_dir, f"{photo_id}_{originalsecret}.{fmt}")
    os.replace(sink.path, path)
    return path


def _int_arg(args: dict[str, str], name: str, allowed: range, default: int) -> int:
    value = parse_unsigned(args.get(name, ""))
    return value if value is not None and value in allowed else default


def _store_new(store: Store, nsid: str, args: dict[str, str], sink: _FileSink, kind: tuple[str, str]) -> int:
    fmt, media = kind
    photo_id = store.next_value("photo", 53000000000)
    secret, original = secrets.token_hex(5), secrets.token_hex(5)
    path = _move_into_place(store, sink, photo_id, original, fmt)
    width, height = dimensions(path) or DEFAULT_DIMENSIONS
    now = int(time.time())
    store.run(
        "INSERT INTO photos(id, owner, secret, originalsecret, server, farm, title, description,"
        " ispublic, isfriend, isfamily, safety_level, content_type, hidden, dateupload, lastupdate,"
        " datetaken, media, originalformat, width, height, file_path, file_size, file_sha256, file_name)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (photo_id, nsid, secret, original, C.SERVER, C.FARM, clip(args.get("title", ""), TITLE_CHARS),
         clip(args.get("description", ""), DESCRIPTION_CHARS), _int_arg(args, "is_public", range(2), 1),
         _int_arg(args, "is_friend", range(2), 0), _int_arg(args, "is_family", range(2), 0),
         _int_arg(args, "safety_level", range(1, 4), 1), _int_arg(args, "content_type", range(1, 4), 1),
         _int_arg(args, "hidden", range(1, 3), 1), now, now,
         time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(now)), media, fmt, width, height, path,
         sink.size, sink.sha256.hexdigest(), sink.name))
    tags = split_tags(args.get("tags", ""))
    if tags:
        add_tags(store, photo_id, nsid, tags)
    return photo_id


def _replace(store: Store, photo: sqlite3.Row, sink: _FileSink, kind: tuple[str, str]) -> int:
    fmt, media = kind
    old_path = photo["file_path"]
    path = _move_into_place(store, sink, photo["id"], photo["originalsecret"], fmt)
    if old_path and old_path != path and os.path.exists(old_path):
        os.remove(old_path)
    width, height = dimensions(path) or DEFAULT_DIMENSIONS
    # lastupdate always moves on, even within the upload's second: clients key caches on it.
    lastupdate = max(int(time.time()), photo["lastupdate"] + 1)
    store.run("UPDATE photos SET file_path=?, file_size=?, file_sha256=?, file_name=?, originalformat=?,"
              " media=?, width=?, height=?, lastupdate=? WHERE id=?",
              (path, sink.size, sink.sha256.hexdigest(), sink.name, fmt, media, width, height,
               lastupdate, photo["id"]))
    return int(photo["id"])
