# SPDX-License-Identifier: MIT
"""The ctypes layer: finds and loads libflickr.so, and declares every C function once.

Private: the rest of the package goes through `lib()` and the helpers here, and holds the
handles the library gives out (responses, walks, upload sources, requests) in `Owned` objects.
Loading is lazy (on first use) so that `import flickr` and the sandbox work
on machines without the native library.
"""
from __future__ import annotations

import ctypes
import os
import sys
import threading
from ctypes import CFUNCTYPE, POINTER, Structure, c_char_p, c_int, c_int64, c_long, c_size_t, c_void_p
from importlib import resources
from typing import Any, ClassVar

from . import _interrupt, errors
from ._version import VERSION_INFO

#: The library version this binding was made with (version.h's): the table below declares every
#: function of that header, so another major version, or an older minor one, is refused.
BINDING_VERSION = VERSION_INFO


class ContextRef(Structure):
    """Opaque `flickr_context`; a distinct type so ctypes rejects other handles."""


class ResponseRef(Structure):
    """Opaque `flickr_response`."""


class RequestRef(Structure):
    """Opaque `flickr_request`."""


class ValueRef(Structure):
    """Opaque `flickr_value` (borrowed from a response)."""


class UploadSourceRef(Structure):
    """Opaque `flickr_upload_source`."""


class PagesRef(Structure):
    """Opaque `flickr_pages`."""


class HarvestRef(Structure):
    """Opaque `flickr_harvest`."""


class ErrorRecord(Structure):
    _fields_ = [
        ("code", c_int),
        ("api_code", c_int),
        ("http_status", c_int),
        ("message", c_char_p),
    ]


class MethodInfoRecord(Structure):
    """`flickr_method_info`: static, library-owned; read, never freed."""
    _fields_ = [
        ("name", c_char_p),
        ("verb", c_int),
        ("permission", c_int),
        ("required", POINTER(c_char_p)),
        ("optional", POINTER(c_char_p)),
        ("doc_url", c_char_p),
    ]


ContextPtr = POINTER(ContextRef)
ResponsePtr = POINTER(ResponseRef)
RequestPtr = POINTER(RequestRef)
ValuePtr = POINTER(ValueRef)
Params = POINTER(c_char_p)

UploadSourcePtr = POINTER(UploadSourceRef)
PagesPtr = POINTER(PagesRef)
HarvestPtr = POINTER(HarvestRef)

#: int (*)(int64_t sent, int64_t total, void *userdata); non-zero aborts
ProgressCallback = CFUNCTYPE(c_int, c_int64, c_int64, c_void_p)
#: int64_t (*)(void *buffer, size_t capacity, void *userdata); negative fails
ReadCallback = CFUNCTYPE(c_int64, c_void_p, c_size_t, c_void_p)

#: void (*)(const char *line, void *userdata)
LogCallback = CFUNCTYPE(None, c_char_p, c_void_p)

#: int (*)(void *userdata); non-zero stops the synchronous call
InterruptCallback = CFUNCTYPE(c_int, c_void_p)

#: void (*)(flickr_request *req, int status, const flickr_response *resp, void *userdata)
DoneCallback = CFUNCTYPE(None, RequestPtr, c_int, ResponsePtr, c_void_p)

# One table: name -> (restype, argtypes). "status" marks int-returning fallible functions,
# which get an errcheck that raises the matching FlickrError subclass.
_STATUS = "status"
_SIGNATURES = {
    "flickr_version": (c_char_p, []),
    "flickr_version_number": (c_int, []),
    "flickr_strerror": (c_char_p, [c_int]),
    "flickr_error_last": (POINTER(ErrorRecord), []),
    "flickr_error_retry_after_ms": (c_int64, [POINTER(ErrorRecord)]),
    "flickr_free": (None, [c_void_p]),
    "flickr_shutdown_callbacks": (c_int, [c_long]),
    "flickr_context_new": (_STATUS, [POINTER(ContextPtr), c_char_p, c_char_p]),
    "flickr_context_free": (None, [ContextPtr]),
    "flickr_context_set_string": (_STATUS, [ContextPtr, c_int, c_char_p]),
    "flickr_context_set_long": (_STATUS, [ContextPtr, c_int, c_long]),
    "flickr_context_set_int64": (_STATUS, [ContextPtr, c_int, c_int64]),
    "flickr_context_get_string": (_STATUS, [POINTER(c_void_p), ContextPtr, c_int]),
    "flickr_context_get_long": (_STATUS, [POINTER(c_long), ContextPtr, c_int]),
    "flickr_context_get_int64": (_STATUS, [POINTER(c_int64), ContextPtr, c_int]),
    "flickr_context_set_log": (_STATUS, [ContextPtr, LogCallback, c_void_p]),
    "flickr_context_set_interrupt": (_STATUS, [ContextPtr, InterruptCallback, c_void_p]),
    "flickr_call": (_STATUS, [POINTER(ResponsePtr), ContextPtr, c_char_p, Params, c_int]),
    "flickr_call_discard": (_STATUS, [ContextPtr, c_char_p, Params, c_int]),
    "flickr_call_async": (_STATUS, [POINTER(RequestPtr), ContextPtr, c_char_p, Params, c_int, DoneCallback, c_void_p]),
    "flickr_method_find": (_STATUS, [POINTER(POINTER(MethodInfoRecord)), c_char_p]),
    "flickr_method_count": (c_size_t, []),
    "flickr_method_at": (POINTER(MethodInfoRecord), [c_size_t]),
    "flickr_pages_new": (_STATUS, [POINTER(PagesPtr), ContextPtr, c_char_p, Params, c_char_p]),
    "flickr_pages_next": (_STATUS, [POINTER(ValuePtr), PagesPtr]),
    "flickr_pages_total": (c_int64, [PagesPtr]),
    "flickr_pages_page": (c_int64, [PagesPtr]),
    "flickr_pages_free": (None, [PagesPtr]),
    "flickr_harvest_new": (_STATUS, [POINTER(HarvestPtr), ContextPtr, c_char_p, Params, Params]),
    "flickr_harvest_next": (_STATUS, [POINTER(ValuePtr), HarvestPtr]),
    "flickr_harvest_report": (_STATUS, [POINTER(c_void_p), HarvestPtr]),
    "flickr_harvest_save": (_STATUS, [HarvestPtr]),
    "flickr_harvest_set_extra": (_STATUS, [HarvestPtr, c_char_p]),
    "flickr_harvest_extra": (_STATUS, [POINTER(c_void_p), HarvestPtr]),
    "flickr_harvest_free": (None, [HarvestPtr]),
    "flickr_request_wait": (c_int, [RequestPtr]),
    "flickr_request_cancel": (None, [RequestPtr]),
    "flickr_request_free": (None, [RequestPtr]),
    "flickr_request_response": (_STATUS, [POINTER(ResponsePtr), RequestPtr]),
    "flickr_request_error": (POINTER(ErrorRecord), [RequestPtr]),
    "flickr_response_parse": (_STATUS, [POINTER(ResponsePtr), c_char_p, c_size_t]),
    "flickr_response_free": (None, [ResponsePtr]),
    "flickr_response_root": (ValuePtr, [ResponsePtr]),
    "flickr_response_json": (c_void_p, [ResponsePtr]),
    # `char **out, size_t *out_len` as addresses: _response passes its thread's preallocated pair
    # (two ctypes objects and two byref()s a call less, on every Flickr.call).
    "flickr_response_marshal": (_STATUS, [c_void_p, c_void_p, ResponsePtr]),
    "flickr_response_body": (c_void_p, [ResponsePtr, POINTER(c_size_t)]),
    "flickr_response_http_status": (c_int, [ResponsePtr]),
    "flickr_value_kind": (c_int, [ValuePtr]),
    "flickr_value_get": (ValuePtr, [ValuePtr, c_char_p]),
    "flickr_value_string": (c_char_p, [ValuePtr]),
    "flickr_value_count": (c_size_t, [ValuePtr]),
    "flickr_value_at": (ValuePtr, [ValuePtr, c_size_t]),
    "flickr_value_key_at": (c_char_p, [ValuePtr, c_size_t]),
    "flickr_value_json": (c_void_p, [ValuePtr]),
    "flickr_value_marshal": (_STATUS, [c_void_p, c_void_p, ValuePtr]),
    "flickr_photo_source_url": (c_void_p, [ValuePtr, c_char_p]),
    "flickr_photo_page_url": (c_void_p, [ValuePtr]),
    "flickr_photo_short_url": (c_void_p, [c_char_p]),
    "flickr_photo_image_url": (_STATUS, [POINTER(c_void_p), ContextPtr, ValuePtr, c_char_p]),
    "flickr_url_parse": (_STATUS, [POINTER(ResponsePtr), c_char_p]),
    "flickr_photo_fetch": (_STATUS, [POINTER(c_void_p), ContextPtr, ValuePtr, c_char_p]),
    "flickr_photo_fetch_async": (_STATUS, [POINTER(RequestPtr), ContextPtr, ValuePtr, c_char_p, DoneCallback,
                                           c_void_p]),
    "flickr_oauth_signature": (c_void_p, [c_char_p, c_char_p, Params, c_char_p, c_char_p, POINTER(c_void_p)]),
    "flickr_upload_source_new_file": (_STATUS, [POINTER(UploadSourcePtr), c_char_p]),
    "flickr_upload_source_new_buffer": (_STATUS, [POINTER(UploadSourcePtr), c_void_p, c_size_t, c_char_p]),
    "flickr_upload_source_new_stream": (_STATUS, [POINTER(UploadSourcePtr), ReadCallback, c_int64, c_void_p, c_char_p]),
    "flickr_upload_source_set_filename": (_STATUS, [UploadSourcePtr, c_char_p]),
    "flickr_upload_source_set_mime_type": (_STATUS, [UploadSourcePtr, c_char_p]),
    "flickr_upload_source_free": (None, [UploadSourcePtr]),
    "flickr_upload": (c_int, [POINTER(ResponsePtr), ContextPtr, UploadSourcePtr, Params, ProgressCallback, c_void_p]),
    "flickr_replace": (c_int, [POINTER(ResponsePtr), ContextPtr, UploadSourcePtr, c_char_p, Params, ProgressCallback,
                               c_void_p]),
    "flickr_upload_async": (_STATUS, [POINTER(RequestPtr), ContextPtr, UploadSourcePtr, Params, ProgressCallback,
                                      DoneCallback, c_void_p]),
    "flickr_replace_async": (_STATUS, [POINTER(RequestPtr), ContextPtr, UploadSourcePtr, c_char_p, Params,
                                       ProgressCallback, DoneCallback, c_void_p]),
    "flickr_upload_file": (_STATUS, [POINTER(ResponsePtr), ContextPtr, c_char_p, Params, ProgressCallback, c_void_p]),
    "flickr_replace_file": (_STATUS, [POINTER(ResponsePtr), ContextPtr, c_char_p, c_char_p, Params, ProgressCallback,
                                      c_void_p]),
    "flickr_upload_buffer": (_STATUS, [POINTER(ResponsePtr), ContextPtr, c_void_p, c_size_t, c_char_p, Params,
                                       ProgressCallback, c_void_p]),
    "flickr_replace_buffer": (_STATUS, [POINTER(ResponsePtr), ContextPtr, c_void_p, c_size_t, c_char_p, c_char_p,
                                        Params, ProgressCallback, c_void_p]),
    "flickr_upload_stream": (_STATUS, [POINTER(ResponsePtr), ContextPtr, ReadCallback, c_int64, c_char_p, Params,
                                       ProgressCallback, c_void_p]),
    "flickr_replace_stream": (_STATUS, [POINTER(ResponsePtr), ContextPtr, ReadCallback, c_int64, c_char_p, c_char_p,
                                        Params, ProgressCallback, c_void_p]),
    "flickr_upload_wait_ticket": (_STATUS, [POINTER(c_void_p), ContextPtr, c_char_p, c_long]),
    "flickr_oauth_request_token": (_STATUS, [POINTER(ResponsePtr), ContextPtr, c_char_p]),
    "flickr_oauth_authorize_url": (c_void_p, [ContextPtr, c_char_p, c_char_p]),
    "flickr_oauth_parse_callback": (_STATUS, [c_char_p, POINTER(c_void_p), POINTER(c_void_p)]),
    "flickr_oauth_access_token": (_STATUS, [POINTER(ResponsePtr), ContextPtr, c_char_p, c_char_p, c_char_p]),
    "flickr_oauth_check_token": (_STATUS, [POINTER(ResponsePtr), ContextPtr, c_char_p, c_char_p]),
    "flickr_oauth_exchange_legacy_token": (_STATUS, [POINTER(ResponsePtr), ContextPtr, c_char_p]),
    "flickr_auth_get_frob": (_STATUS, [POINTER(c_void_p), ContextPtr]),
    "flickr_auth_login_url": (c_void_p, [ContextPtr, c_char_p, c_char_p]),
    "flickr_auth_get_token": (_STATUS, [POINTER(ResponsePtr), ContextPtr, c_char_p]),
    "flickr_auth_api_sig": (c_void_p, [c_char_p, Params]),
}

class Owned:
    """A library handle this side must free, exactly once (llvmlite's ``ObjectRef`` idea).

    Every C function that hands out a handle wants the same steps: an empty pointer for its
    ``out`` argument, then the matching ``*_free`` on every path. Written at each call site, a
    forgotten free leaks and a repeated one crashes; here a subclass names its pointer type and
    free function once, and the object is

    - the ``out`` argument: ``lib.flickr_call(response.out, ...)``;
    - the handle itself wherever ctypes wants it (``_as_parameter_``), NULL once closed: a late
      use reaches the library as NULL, which it refuses, never as freed memory;
    - closed by :meth:`close`, a ``with`` block or, as a last resort, ``__del__``. Only the first
      close frees: the pointer is popped from a one-item list, an atomic step under the GIL, so
      even two threads closing at once cannot both free it.
    """

    __slots__ = ("_held",)
    pointer_type: ClassVar[Any]  # e.g. ResponsePtr
    free_function: ClassVar[str]  # e.g. "flickr_response_free"

    def __init__(self, pointer: Any = None) -> None:
        """An empty handle to fill through `out`; or `pointer` adopted, which closing frees."""
        self._held = [self.pointer_type() if pointer is None else pointer]

    @property
    def out(self) -> Any:
        """``byref`` of the pointer, for the ``flickr_x **out`` argument that fills it."""
        if not self._held:
            raise errors.StateError(errors.ESTATE, f"this {type(self).__name__} handle is closed")
        return ctypes.byref(self._held[0])

    @property
    def _as_parameter_(self) -> Any:
        held = self._held
        return held[0] if held else self.pointer_type()

    def __bool__(self) -> bool:
        """True while it holds a live (non-NULL) handle."""
        held = self._held
        return bool(held and held[0])

    def close(self) -> None:
        """Frees the handle; calling it again, or on a handle never filled, does nothing."""
        try:
            pointer = self._held.pop()
        except IndexError:
            return
        if pointer:
            getattr(lib(), self.free_function)(pointer)

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        # A handle dropped unclosed (say, a walk abandoned half-way) is freed here; at interpreter
        # shutdown the library or this module may be gone already: then nothing is freed.
        if _lib is not None and getattr(self, "_held", None):
            try:
                self.close()
            except Exception:
                pass


class Response(Owned):
    """A `flickr_response`: the answer of a call, an upload, an OAuth step, a parsed document."""

    __slots__ = ()
    pointer_type = ResponsePtr
    free_function = "flickr_response_free"


class Pages(Owned):
    """A `flickr_pages` walk."""

    __slots__ = ()
    pointer_type = PagesPtr
    free_function = "flickr_pages_free"


class HarvestHandle(Owned):
    """A `flickr_harvest`: the C harvest that `Flickr.harvest` (`_harvest.Harvest`) iterates, docs/harvest.md."""

    __slots__ = ()
    pointer_type = HarvestPtr
    free_function = "flickr_harvest_free"


class UploadSource(Owned):
    """A `flickr_upload_source`: what an upload reads its body from."""

    __slots__ = ()
    pointer_type = UploadSourcePtr
    free_function = "flickr_upload_source_free"


class Request(Owned):
    """A `flickr_request`: an asynchronous call. The binding frees it in its done callback, which is
    handed the pointer (``with Request(pointer):``); until then it is only borrowed, to cancel it."""

    __slots__ = ()
    pointer_type = RequestPtr
    free_function = "flickr_request_free"



_lock = threading.Lock()
_lib: ctypes.CDLL | None = None
_loaded_from: str | None = None


def declared_functions() -> list[str]:
    """Every C function this binding declares (tests compare it with the header)."""
    return sorted(_SIGNATURES)


def is_loaded() -> bool:
    """Whether the library was loaded (an exit handler must not load it just to shut it down)."""
    return _lib is not None


def loaded_path() -> str | None:
    """Where the library was loaded from, once loaded."""
    return _loaded_from


def lib() -> ctypes.CDLL:
    """The loaded library, loading and declaring it on first use."""
    global _lib, _loaded_from
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is None:
            library, path = _load()
            _declare(library)
            check_version(library.flickr_version_number(), path)
            _lib, _loaded_from = library, path
    return _lib


def _candidates() -> list[str]:
    found = []
    env = os.environ.get("FLICKR_LIBRARY")
    if env:
        found.append(env)
    try:
        bundled = resources.files("flickr").joinpath("libflickr.so.0")
        if bundled.is_file():
            found.append(str(bundled))
    except (ModuleNotFoundError, NotADirectoryError):
        pass
    # The Python environment's own: scripts/install-cli.sh links a checkout's build there.
    environment = os.path.join(sys.prefix, "lib", "libflickr.so.0")
    if os.path.isfile(environment):
        found.append(environment)
    found.append("libflickr.so.0")  # through the dynamic loader's search path
    return found


def _load() -> tuple[ctypes.CDLL, str]:
    tried = []
    for candidate in _candidates():
        try:
            return ctypes.CDLL(candidate), candidate
        except OSError as error:
            tried.append(f"{candidate} ({error})")
        if candidate == os.environ.get("FLICKR_LIBRARY"):
            # An explicit path that fails is an error, not a reason to load something else.
            break
    raise ImportError("libflickr could not be loaded; tried: " + "; ".join(tried))


def _declare(library: ctypes.CDLL) -> None:
    for name, (restype, argtypes) in _SIGNATURES.items():
        try:
            function = getattr(library, name)
        except AttributeError:
            raise ImportError(f"libflickr at hand lacks {name}: it is older than this binding") from None
        function.argtypes = argtypes
        if restype == _STATUS:
            function.restype = c_int
            function.errcheck = _raise_on_error
        else:
            function.restype = restype
        if name in _BLOCKING:
            setattr(library, name, _interrupt.interruptible(function))


# Functions that may wait on the network, a back-off or a rate limit: a Ctrl-C on the main thread
# stops them within about 0.1 s (see _interrupt.py).
_BLOCKING = frozenset(name for name in _SIGNATURES if name in {
    "flickr_call", "flickr_call_discard", "flickr_pages_new", "flickr_pages_next", "flickr_harvest_next",
    "flickr_photo_fetch",
    "flickr_upload", "flickr_replace", "flickr_upload_file", "flickr_replace_file", "flickr_upload_buffer",
    "flickr_replace_buffer", "flickr_upload_stream", "flickr_replace_stream", "flickr_upload_wait_ticket",
    "flickr_oauth_request_token", "flickr_oauth_access_token", "flickr_oauth_check_token",
    "flickr_oauth_exchange_legacy_token", "flickr_auth_get_frob", "flickr_auth_get_token", "flickr_auth_check_token",
})


def check_version(number: int, path: str) -> None:
    """Refuses a library whose major version differs, or that is older than the binding."""
    major, minor = number >> 16, (number >> 8) & 0xFF
    if major != BINDING_VERSION[0] or minor < BINDING_VERSION[1]:
        raise ImportError(
            f"libflickr at {path} is version {major}.{minor}.{number & 0xFF}; "
            f"this binding needs {BINDING_VERSION[0]}.{BINDING_VERSION[1]} or a later {BINDING_VERSION[0]}.x"
        )


def last_error() -> errors.FlickrError:
    """The calling thread's last failure as an exception (read at once, same thread)."""
    return error_from_record(lib().flickr_error_last().contents)


def _raise_on_error(result: int, function: object, arguments: tuple[object, ...]) -> int:
    # ctypes' errcheck: a status function's restype is c_int, so `result` arrives as an int.
    if result != 0:
        raise last_error()
    return result


def error_from_record(record: ErrorRecord) -> errors.FlickrError:
    message = record.message.decode("utf-8", "replace") if record.message else ""
    error = errors.from_status(record.code, errors._name_options(message, str.lower), record.api_code, record.http_status)
    error.library_message = message
    if isinstance(error, errors.OverBudget):
        # The record is the library's own (flickr_error_last or flickr_request_error), still valid here.
        error.retry_after_ms = max(0, int(lib().flickr_error_retry_after_ms(ctypes.byref(record))))
    return error


def params_array(params: dict[str, Any]) -> "ctypes.Array[c_char_p]":
    """{name: value} -> a NULL-terminated `const char *const *` (values converted by `param_text`)."""
    flat = []
    for name, value in params.items():
        if value is None:
            continue
        flat.append(encode(name, "parameter name"))
        text = value if type(value) is str else param_text(value)  # every call passes through here
        if "\0" in text:
            encode(text, f"parameter {name!r}")  # raises, naming the parameter
        flat.append(text.encode("utf-8", "surrogatepass"))
    flat.append(None)
    return (c_char_p * len(flat))(*flat)


def param_text(value: object) -> str:
    """Python values as Flickr expects them: bools as 1/0, sequences comma-joined."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple, set, frozenset)):
        return ",".join(param_text(v) for v in value)
    return str(value)


def take_string(pointer: int | None) -> str | None:
    """Copies a library-owned `char *` into a str and frees it; None for NULL."""
    if not pointer:
        return None
    try:
        return ctypes.string_at(pointer).decode("utf-8")
    finally:
        lib().flickr_free(pointer)


def take_text(pointer: int | None) -> str:
    """`take_string` for a result that is never NULL on success: NULL raises the thread's last error."""
    text = take_string(pointer)
    if text is None:
        raise last_error()
    return text


def encode(value: str | None, what: str) -> bytes | None:
    """str -> UTF-8 bytes for a `const char *` argument; NUL characters are refused."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__}")
    if "\0" in value:
        raise errors.InvalidArgument(errors.EINVAL, f"{what} must not contain NUL characters")
    return value.encode("utf-8", "surrogatepass")
