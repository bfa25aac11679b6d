# SPDX-License-Identifier: MIT
"""What `Flickr` and `AsyncFlickr` share, as httpx's ``BaseClient`` is shared by its ``Client`` and
``AsyncClient``: one libflickr context (`ClientCore`) with its options, log and lifetime, the verb
rule of every call, and the start of the library's asynchronous requests, whose futures the
context's dispatcher completes (`flickr._dispatch`).

Each client holds a core; an AsyncFlickr's ``sync`` is a Flickr over the same core. Neither client
reaches into the other: what both need is here, under this private module's public names
(test_async_client.py holds AsyncFlickr to it).
"""
from __future__ import annotations

import ctypes
import logging
from typing import Any, Callable, Optional, Union

from . import _dispatch, _ffi, _interrupt, _response, errors
from ._dispatch import Convert, RequestFuture
# Option keywords (STRING_OPTIONS, NUMBER_OPTIONS) are the C option names without FLICKR_OPT_, in
# lower case, generated from include/flickr/context.h by scripts/gen-header-tables.py; the verbs
# (flickr_http_method: GET, POST, and METHOD_VERB, the catalogue's) from include/flickr/client.h.
from ._header import GET as GET, METHOD_VERB as METHOD_VERB, POST as POST
from ._header import NUMBER_OPTIONS, STRING_OPTIONS

OptionValue = Union[str, int, bool, None]


def verb(post: bool | None) -> int:
    """The one rule for every call: post=None takes the method's verb from the catalogue (POST
    for Flickr's write and delete methods, GET otherwise and for unknown methods)."""
    return METHOD_VERB if post is None else (POST if post else GET)


#: Receives the library's request log: a DEBUG line per request, an INFO line per retry.
logger = logging.getLogger("flickr")


def _log_line(line: bytes, userdata: Optional[int]) -> None:
    # One module-level thunk for every context, so it can never be collected while C holds it.
    try:
        text = line.decode("utf-8", "replace")
        logger.log(logging.INFO if text.startswith("retry ") else logging.DEBUG, "%s", text)
    except BaseException:  # never let an exception escape into C
        pass


# Wrapped by a call, not as a decorator: the function keeps its signature for the type checker.
_on_log = _ffi.LogCallback(_log_line)
_NO_LOG = _ffi.LogCallback()  # a NULL function pointer: no log callback


class ClientCore:
    """One libflickr context, as both clients use it. ``live()`` is its handle (StateError once
    closed); ``close()`` frees it, and so does the garbage collector once no client holds it."""

    def __init__(self, api_key: str, secret: str | None, options: dict[str, OptionValue]) -> None:
        lib = _ffi.lib()
        self._handle: Any = None
        self.dispatcher = _dispatch.Dispatcher()  # no thread until the first asynchronous call
        self.api_key = api_key
        handle = _ffi.ContextPtr()
        lib.flickr_context_new(ctypes.byref(handle), _ffi.encode(api_key, "api_key"), _ffi.encode(secret, "secret"))
        self._handle = handle
        lib.flickr_context_set_interrupt(handle, _interrupt.CALLBACK, None)  # Ctrl-C within ~0.1 s
        self._logging = False
        self._sync_log(handle)
        try:
            for name, value in options.items():
                self.set_option(name, value)
        except BaseException:
            self.close()
            raise

    def live(self) -> Any:
        """The context's handle for a C call; raises StateError once closed."""
        handle = self._handle
        if not handle:
            raise errors.StateError(errors.ESTATE, "this Flickr object is closed")
        if logger.isEnabledFor(logging.INFO) != self._logging:  # cached by logging: a dict lookup
            self._sync_log(handle)
        return handle

    def _sync_log(self, handle: Any) -> None:
        """Gives the library a log callback only while the `flickr` logger shows INFO (retries) or
        DEBUG (requests): otherwise each request would format a line and cross into Python for
        nothing (about 9 µs a call). Checked again before every call, so a level set later counts."""
        wanted = logger.isEnabledFor(logging.INFO)
        _ffi.lib().flickr_context_set_log(handle, _on_log if wanted else _NO_LOG, None)
        self._logging = wanted

    # -- options --------------------------------------------------------

    def set_option(self, name: str, value: OptionValue) -> None:
        """Sets one option; ``None`` restores a string option's default."""
        handle = self.live()
        if name in STRING_OPTIONS:
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{name} must be a str or None, not {type(value).__name__}")
            _ffi.lib().flickr_context_set_string(handle, STRING_OPTIONS[name], _ffi.encode(value, name))
        elif name in NUMBER_OPTIONS:
            if isinstance(value, bool):
                value = int(value)
            if not isinstance(value, int):
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
            if not -(2**63) <= value < 2**63:
                raise errors.InvalidArgument(errors.EINVAL, f"{name} is out of range: {value}")
            _ffi.lib().flickr_context_set_int64(handle, NUMBER_OPTIONS[name], value)  # long is 32 bits on i686
        else:
            raise TypeError(f"unknown option {name!r}; known: {', '.join(sorted(STRING_OPTIONS | NUMBER_OPTIONS))}")

    def get_option(self, name: str) -> str | int | None:
        """The option's current value (its default when unset)."""
        handle = self.live()
        if name in STRING_OPTIONS:
            out = ctypes.c_void_p()
            _ffi.lib().flickr_context_get_string(ctypes.byref(out), handle, STRING_OPTIONS[name])
            return _ffi.take_string(out.value)
        if name in NUMBER_OPTIONS:
            number = ctypes.c_int64()
            _ffi.lib().flickr_context_get_int64(ctypes.byref(number), handle, NUMBER_OPTIONS[name])
            return number.value
        raise TypeError(f"unknown option {name!r}")

    def check_keeps_body(self) -> None:
        """call_xml's precondition: the context keeps the answers' bodies."""
        if self.get_option("keep_body") == 0:
            raise errors.InvalidArgument(errors.EINVAL, "call_xml needs the answer's body, and this client "
                                         "was made with keep_body=False")

    # -- asynchronous requests --------------------------------------------

    def start(self, start: Callable[[Any, int], Any], convert: Convert = _response.as_dict,
              keep_alive: object = None) -> RequestFuture:
        """Starts a request through `start(request_out, key)` (a C *_async call given
        `_dispatch.on_done` and `key`) and returns its future, completed by this context's
        dispatcher; the future holds `keep_alive` (what C reads until the request ends)."""
        return _dispatch.start(start, self.dispatcher, convert, keep_alive)

    def call_future(self, method: str, params: dict[str, Any], verb: int,
                    convert: Convert = _response.as_dict) -> RequestFuture:
        """A call started on the library's worker, as a future of `convert(response)`."""
        lib = _ffi.lib()
        context = self.live()
        encoded = _ffi.encode(method, "method")
        return self.start(lambda request, key: lib.flickr_call_async(
            request, context, encoded, _ffi.params_array(params), verb, _dispatch.on_done, key), convert)

    # -- lifetime -------------------------------------------------------

    @property
    def closed(self) -> bool:
        return not self._handle

    def close(self) -> None:
        """Releases the context; calling it again does nothing. Requests in flight still complete
        their futures; the dispatcher's threads end after the last one. Safe from a done callback
        (nothing here waits for a dispatcher thread)."""
        handle, self._handle = self._handle, None
        if handle:
            _ffi.lib().flickr_context_free(handle)
            self.dispatcher.close()

    def __del__(self) -> None:
        # During interpreter shutdown module globals may already be gone.
        if getattr(self, "_handle", None) and _ffi is not None and _ffi._lib is not None:
            try:
                self.close()
            except Exception:
                pass
