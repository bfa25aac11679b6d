# SPDX-License-Identifier: MIT
"""`Flickr`: a context holding credentials, tokens, endpoints and transport settings."""
from __future__ import annotations

import ctypes
from typing import Union

from . import _ffi, errors

OptionValue = Union[str, int, bool, None]

# Option keywords are the C option names without FLICKR_OPT_, in lower case.
STRING_OPTIONS = {
    "rest_endpoint": 1,
    "upload_endpoint": 2,
    "replace_endpoint": 3,
    "oauth_endpoint": 4,
    "oauth_token": 5,
    "oauth_token_secret": 6,
    "auth_token": 7,
    "user_agent": 8,
    "proxy": 9,
    "ca_file": 10,
    "auth_endpoint": 11,
}
NUMBER_OPTIONS = {
    "timeout_ms": 100,
    "connect_timeout_ms": 101,
    "max_response_bytes": 102,
    "oauth_in_header": 103,
}


class Flickr:
    """A libflickr context.

    ``Flickr(api_key, secret, **options)``; options are the keywords of
    ``STRING_OPTIONS`` and ``NUMBER_OPTIONS`` (e.g. ``rest_endpoint=``,
    ``oauth_token=``, ``ca_file=``, ``timeout_ms=``). Safe to share between
    threads. Use as a context manager, or call :meth:`close`.
    """

    def __init__(self, api_key: str, secret: str | None = None, **options: OptionValue):
        lib = _ffi.lib()
        self._handle = None
        handle = _ffi.ContextPtr()
        lib.flickr_context_new(ctypes.byref(handle), _ffi.encode(api_key, "api_key"), _ffi.encode(secret, "secret"))
        self._handle = handle
        try:
            for name, value in options.items():
                self.set_option(name, value)
        except BaseException:
            self.close()
            raise

    # -- options --------------------------------------------------------

    def set_option(self, name: str, value: OptionValue) -> None:
        """Sets one option; ``None`` restores a string option's default."""
        handle = self._live()
        if name in STRING_OPTIONS:
            _ffi.lib().flickr_context_set_string(handle, STRING_OPTIONS[name], _ffi.encode(value, name))
        elif name in NUMBER_OPTIONS:
            if isinstance(value, bool):
                value = int(value)
            if not isinstance(value, int):
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
            if not -(2**63) <= value < 2**63:
                raise errors.InvalidArgument(errors.EINVAL, f"{name} is out of range: {value}")
            _ffi.lib().flickr_context_set_long(handle, NUMBER_OPTIONS[name], value)
        else:
            raise TypeError(f"unknown option {name!r}; known: {', '.join(sorted(STRING_OPTIONS | NUMBER_OPTIONS))}")

    def get_option(self, name: str) -> str | int | None:
        """The option's current value (its default when unset)."""
        handle = self._live()
        if name in STRING_OPTIONS:
            out = ctypes.c_void_p()
            _ffi.lib().flickr_context_get_string(ctypes.byref(out), handle, STRING_OPTIONS[name])
            return _ffi.take_string(out.value)
        if name in NUMBER_OPTIONS:
            number = ctypes.c_long()
            _ffi.lib().flickr_context_get_long(ctypes.byref(number), handle, NUMBER_OPTIONS[name])
            return number.value
        raise TypeError(f"unknown option {name!r}")

    # -- lifetime -------------------------------------------------------

    def _live(self):
        if not self._handle:
            raise errors.StateError(errors.ESTATE, "this Flickr object is closed")
        return self._handle

    @property
    def closed(self) -> bool:
        return not self._handle

    def close(self) -> None:
        """Releases the context; calling it again does nothing."""
        handle, self._handle = self._handle, None
        if handle:
            _ffi.lib().flickr_context_free(handle)

    def __enter__(self) -> "Flickr":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __del__(self) -> None:
        # During interpreter shutdown module globals may already be gone.
        if getattr(self, "_handle", None) and _ffi is not None and _ffi._lib is not None:
            try:
                self.close()
            except Exception:
                pass
