# SPDX-License-Identifier: MIT
"""libflickr for Python: a Flickr API client over the native libflickr library.

Importing this package does not load the native library; it is loaded on
first use (see ``flickr._ffi`` for where it is looked for), so the sandbox
(``python -m flickr_sandbox``) runs without it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import errors, limits, urls
from ._version import VERSION as __version__
from .api import MethodInfo, method_info, methods
from .async_client import AsyncFlickr
from .client import Flickr, Walk
from .errors import (
    APIError,
    Aborted,
    FileError,
    FlickrError,
    HTTPError,
    InvalidArgument,
    NetworkError,
    NoMemory,
    NotFound,
    OverBudget,
    OAuthError,
    ParseError,
    ResponseError,
    ServiceError,
    StateError,
    Timeout,
    TLSError,
    TooBig,
    TransportError,
    UsageError,
)
from .values import text

if TYPE_CHECKING:  # the deprecated old name, as type checkers see it (at run time, __getattr__ below)
    from .errors import Timeout as TimeoutError  # noqa: F401

__all__ = [
    "Flickr",
    "Walk",
    "AsyncFlickr",
    "MethodInfo",
    "method_info",
    "methods",
    "urls",
    "limits",
    "FlickrError",
    "APIError",
    "Aborted",
    "FileError",
    "HTTPError",
    "InvalidArgument",
    "NetworkError",
    "NoMemory",
    "NotFound",
    "OverBudget",
    "OAuthError",
    "ParseError",
    "StateError",
    "Timeout",
    "TLSError",
    "TooBig",
    "TransportError",
    "ServiceError",
    "ResponseError",
    "UsageError",
    "library_version",
    "text",
    "__version__",
]


def library_version() -> str:
    """The version of the loaded native library, "MAJOR.MINOR.PATCH"."""
    from . import _ffi

    version: bytes = _ffi.lib().flickr_version()  # a c_char_p result: bytes
    return version.decode("ascii")


def __getattr__(name: str) -> type:
    """Old names, still working: ``flickr.TimeoutError`` is ``flickr.Timeout``, with a DeprecationWarning."""
    return errors._renamed(__name__, name)
