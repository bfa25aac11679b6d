# SPDX-License-Identifier: MIT
"""Uploads for `Flickr.upload` / `Flickr.replace`: a path, bytes, or a file object,
streamed by the library (never read whole into memory), with a progress callback.

Exceptions raised inside the progress callback or the file object's `read`
stop the upload and are re-raised to the caller, unchanged. An upload stops only
while part of its body is still to be sent (then Flickr has no photo from it);
once the whole body is out, the library waits for Flickr's answer instead. If the
progress callback raised then, its exception is still re-raised, carrying that
answer as `exception.flickr_response` (the new photo's id is in it), so neither
the exception nor the photo is lost.
"""
from __future__ import annotations

import ctypes
import io
import os
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, NoReturn, Optional, Union

from . import _dispatch, _ffi, _response, errors

if TYPE_CHECKING:
    from ._core import ClientCore

Source = Union[str, os.PathLike[str], bytes, bytearray, memoryview, BinaryIO]
Progress = Callable[[int, int], Any]


class _Callbacks:
    """The ctypes thunks of one upload, kept alive for its whole duration, and
    the first exception a Python callback raised (re-raised after the C call)."""

    def __init__(self, progress: Optional[Progress], stream: Optional[BinaryIO]):
        self.error: Optional[BaseException] = None
        self.progress = _ffi.ProgressCallback(self._on_progress) if progress else _ffi.ProgressCallback()
        self._progress_fn = progress
        self.read = _ffi.ReadCallback(self._on_read) if stream is not None else None
        self._stream = stream

    def _on_progress(self, sent: int, total: int, userdata: Optional[int]) -> int:
        try:
            assert self._progress_fn is not None  # the thunk exists only with a function
            result = self._progress_fn(sent, total)
            return 1 if result is False else 0  # returning False also stops the upload
        except BaseException as error:  # never let it escape into C
            self.error = self.error or error
            return 1

    def _on_read(self, buffer: int, capacity: int, userdata: Optional[int]) -> int:
        try:
            assert self._stream is not None  # the thunk exists only with a stream
            data = self._stream.read(capacity)
            if not data:
                return 0
            data = bytes(data[:capacity])
            ctypes.memmove(buffer, data, len(data))
            return len(data)
        except BaseException as error:
            self.error = self.error or error
            return -1


def _stream_length(stream: BinaryIO, length: Optional[int]) -> int:
    if length is not None:
        return length
    try:
        return os.fstat(stream.fileno()).st_size - stream.tell()
    except (AttributeError, OSError, io.UnsupportedOperation):
        pass
    try:
        here = stream.tell()
        end = stream.seek(0, io.SEEK_END)
        stream.seek(here)
        return end - here
    except (AttributeError, OSError, io.UnsupportedOperation):
        raise errors.InvalidArgument(errors.EINVAL, "cannot tell the stream's size: pass length=") from None


def _path_bytes(path: Union[str, os.PathLike[str]]) -> bytes:
    """A path as the OS takes it: bytes, so that a name that is not UTF-8 (a str from os.listdir
    holds it surrogate-escaped, as "caf\\udce9.png") names the same file, not a UTF-8 spelling
    of the escapes."""
    encoded = os.fsencode(path)
    if b"\0" in encoded:  # ctypes would cut the path there: another file
        raise errors.InvalidArgument(errors.EINVAL, "path must not contain NUL characters")
    return encoded


def make_source(source: Source, filename: Optional[str], mime_type: Optional[str], length: Optional[int],
                callbacks_for: Callable[[Optional[BinaryIO]], _Callbacks]
                ) -> tuple[_ffi.UploadSource, list[object], _Callbacks]:
    """A C upload source for `source` (an `_ffi.UploadSource` the caller closes), plus what must stay
    alive while it is used."""
    lib = _ffi.lib()
    handle = _ffi.UploadSource()
    keep: list[object] = []
    stream = None
    if isinstance(source, (str, os.PathLike)):
        lib.flickr_upload_source_new_file(handle.out, _path_bytes(source))
    elif isinstance(source, (bytes, bytearray, memoryview)):
        buffer: object
        if isinstance(source, bytes):
            buffer = source  # borrowed: no copy
            pointer = ctypes.cast(ctypes.c_char_p(source), ctypes.c_void_p)
        else:
            view = memoryview(source)
            buffer = (ctypes.c_char * view.nbytes).from_buffer(bytearray(view) if view.readonly else view)
            pointer = ctypes.cast(buffer, ctypes.c_void_p)
        keep.append(buffer)
        size = len(source) if not isinstance(source, memoryview) else source.nbytes
        lib.flickr_upload_source_new_buffer(handle.out, pointer, size, _ffi.encode(filename, "filename"))
    elif hasattr(source, "read"):
        stream = source
    else:
        raise TypeError(f"cannot upload a {type(source).__name__}: pass a path, bytes or a binary file object")
    callbacks = callbacks_for(stream)
    if stream is not None:
        name = filename or os.path.basename(getattr(stream, "name", "") or "") or None
        lib.flickr_upload_source_new_stream(handle.out, callbacks.read, _stream_length(stream, length),
                                            None, _ffi.encode(name, "filename"))
    try:
        if filename and stream is None:
            lib.flickr_upload_source_set_filename(handle, _ffi.encode(filename, "filename"))
        if mime_type:
            lib.flickr_upload_source_set_mime_type(handle, _ffi.encode(mime_type, "mime_type"))
    except BaseException:
        handle.close()
        raise
    return handle, keep, callbacks


def run(context: Any, source: Source, photo_id: Optional[str], params: dict[str, Any], progress: Optional[Progress],
        filename: Optional[str], mime_type: Optional[str], length: Optional[int]) -> dict[str, Any]:
    """Uploads (photo_id None) or replaces, and returns the mapped answer."""
    lib = _ffi.lib()
    handle, keep, callbacks = make_source(source, filename, mime_type, length,
                                          lambda stream: _Callbacks(progress, stream))
    # `keep` holds the buffer a bytes source reads; a local, it outlives the `with` that frees the source.
    with handle, _ffi.Response() as response:
        if photo_id is None:
            status = lib.flickr_upload(response.out, context, handle, _ffi.params_array(params),
                                       callbacks.progress, None)
        else:
            status = lib.flickr_replace(response.out, context, handle,
                                        _ffi.encode(str(photo_id), "photo_id"), _ffi.params_array(params),
                                        callbacks.progress, None)
        if status != 0:
            failure = _ffi.last_error()
            if callbacks.error is not None:
                raise callbacks.error  # the caller's own exception, from its callback
            raise failure
        answer = _response.as_dict(response)
    if callbacks.error is not None:
        raise_late(callbacks.error, answer)
    return answer


def start(core: ClientCore, source: Source, photo_id: Optional[str], params: dict[str, Any],
          progress: Optional[Progress], filename: Optional[str], mime_type: Optional[str],
          length: Optional[int]) -> tuple[_dispatch.RequestFuture, _Callbacks]:
    """Starts an upload (photo_id None) or a replace on the library's worker: its future (of the
    mapped answer) and its callbacks, whose ``error`` is the first exception a Python callback
    raised. `progress` is called on the worker thread."""
    lib = _ffi.lib()
    context = core.live()
    handle, keep, callbacks = make_source(source, filename, mime_type, length,
                                          lambda stream: _Callbacks(progress, stream))
    array = _ffi.params_array(params)
    with handle:  # the started request keeps what it needs of the source
        if photo_id is None:
            future = core.start(lambda request, key: lib.flickr_upload_async(
                request, context, handle, array, callbacks.progress, _dispatch.on_done, key),
                keep_alive=(keep, callbacks))
        else:
            encoded_id = _ffi.encode(str(photo_id), "photo_id")
            future = core.start(lambda request, key: lib.flickr_replace_async(
                request, context, handle, encoded_id, array, callbacks.progress, _dispatch.on_done, key),
                keep_alive=(keep, callbacks))
    return future, callbacks


def raise_late(error: BaseException, answer: dict[str, Any]) -> NoReturn:
    """Raises `error`, which a callback raised after the last byte had gone: Flickr has the photo,
    so the exception carries its answer (``flickr_response``). Both reach the caller."""
    error.flickr_response = answer  # type: ignore[attr-defined]  # any exception a callback raised
    note = f"the upload had been sent whole before this was raised; Flickr's answer: {answer}"
    if hasattr(error, "add_note"):  # Python 3.11+; before, the attribute alone tells it
        error.add_note(note)
    raise error


def wait_ticket(context: Any, ticket_id: str, timeout_ms: int) -> str:
    out = ctypes.c_void_p()
    _ffi.lib().flickr_upload_wait_ticket(ctypes.byref(out), context, _ffi.encode(ticket_id, "ticket_id"), timeout_ms)
    return _ffi.take_text(out.value)
