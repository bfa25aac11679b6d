# SPDX-License-Identifier: MIT
"""Exceptions raised by the binding, one class per libflickr status code.

Every exception carries:
- ``code``: the library's status (a negative ``FLICKR_E*`` value, e.g. ``EAPI``),
- ``api_code``: Flickr's own ``<err code>`` for API errors, else 0,
- ``http_status``: the HTTP status of the answer, else 0,
- ``message``: the library's message (never containing a secret), naming options as a Python
  program sets them (``timeout_ms``) where the library names its C options
  (``FLICKR_OPT_TIMEOUT_MS``, kept in ``library_message``; ``message_naming`` names them
  otherwise, as a command names them by its flags).

The classes are grouped in families, as httpx groups its exceptions, so that a caller catches a
family rather than a hand-kept tuple:

- :class:`TransportError`: no usable HTTP answer came back (:class:`NetworkError`,
  :class:`Timeout`, :class:`TLSError`), it was an HTTP failure (:class:`HTTPError`), or the key's
  budget had no slot in time (:class:`OverBudget`); retrying later may help.
- :class:`ServiceError`: Flickr answered and refused (:class:`APIError`, :class:`OAuthError`).
- :class:`ResponseError`: an answer came but could not be used (:class:`ParseError`,
  :class:`TooBig`).
- :class:`UsageError`: what the caller asked cannot be done (:class:`InvalidArgument`,
  :class:`StateError`, :class:`NotFound`).
- :class:`NoMemory`, :class:`Aborted` and :class:`FileError` stand alone under
  :class:`FlickrError`.

``Timeout`` was ``TimeoutError``, a name that shadowed the builtin in any module that imported it;
the old name still gives the same class, with a DeprecationWarning.
"""
from __future__ import annotations

import builtins
import re
import warnings
from typing import TYPE_CHECKING, Callable

# The status codes, generated from include/flickr/common.h (scripts/gen-header-tables.py); an
# exception class below for each error code.
from ._header import (  # re-exported: errors.EINVAL is where callers find them
    EABORTED as EABORTED,
    EAPI as EAPI,
    EBUDGET as EBUDGET,
    EHTTP as EHTTP,
    EINVAL as EINVAL,
    EIO as EIO,
    ENETWORK as ENETWORK,
    ENOMEM as ENOMEM,
    ENOTFOUND as ENOTFOUND,
    EOAUTH as EOAUTH,
    EPARSE as EPARSE,
    ESTATE as ESTATE,
    ETIMEOUT as ETIMEOUT,
    ETLS as ETLS,
    ETOOBIG as ETOOBIG,
    ERROR as ERROR,
    OK as OK,
)

# The library's messages name its C options ("(FLICKR_OPT_CHECK_ARGUMENTS)"); a Python program
# sets them as keywords, the C name in lower case without the prefix (check_arguments=False).
_C_OPTION = re.compile(r"\bFLICKR_OPT_([A-Z0-9_]+)\b")


def _name_options(text: str, name: Callable[[str], str]) -> str:
    """`text` with each C option (FLICKR_OPT_TIMEOUT_MS) named as `name` says ("TIMEOUT_MS" in)."""
    return _C_OPTION.sub(lambda found: name(found.group(1)), text)


class FlickrError(Exception):
    """Base class of every libflickr failure."""

    def __new__(cls, code: int = ERROR, message: str = "", api_code: int = 0, http_status: int = 0) -> FlickrError:
        # Builtin bases such as OSError interpret extra constructor arguments (errno...);
        # give them the message alone.
        return super().__new__(cls, message)

    def __init__(self, code: int, message: str, api_code: int = 0, http_status: int = 0):
        super().__init__(message)
        self.code = code
        self.message = message
        self.library_message = message  # the library's own text, C option names and all
        self.api_code = api_code
        self.http_status = http_status

    def message_naming(self, name: Callable[[str], str]) -> str:
        """The library's message with each C option it names called what `name` returns for the
        option's name without ``FLICKR_OPT_`` (``"TIMEOUT_MS"``): how a command line names them by
        its own flags (``--timeout``). ``message`` is the same with the binding's keywords."""
        return _name_options(self.library_message, name)

    def __repr__(self) -> str:
        extra = ""
        if self.api_code:
            extra += f", api_code={self.api_code}"
        if self.http_status:
            extra += f", http_status={self.http_status}"
        return f"{type(self).__name__}({self.message!r}, code={self.code}{extra})"


class TransportError(FlickrError):
    """No usable HTTP answer: a network, time limit, TLS or HTTP failure (retrying may help)."""


class ServiceError(FlickrError):
    """Flickr (or its OAuth endpoints) answered and refused the request."""


class ResponseError(FlickrError):
    """An answer came but could not be used: malformed, or larger than allowed."""


class UsageError(FlickrError):
    """What the caller asked cannot be done: a bad argument, a closed object, an unknown name."""


class InvalidArgument(UsageError, ValueError):
    """FLICKR_EINVAL: an argument was missing, malformed or out of range."""


class NoMemory(FlickrError):
    """FLICKR_ENOMEM."""


class NetworkError(TransportError, ConnectionError):
    """FLICKR_ENETWORK: DNS, connect, reset or another transport failure."""


class Timeout(TransportError, builtins.TimeoutError):
    """FLICKR_ETIMEOUT: a connect, idle or total time limit passed.

    Named like requests' ``Timeout`` so that it shadows no builtin; a builtin ``TimeoutError``
    too, so that ``except TimeoutError`` catches it.
    """


class HTTPError(TransportError):
    """FLICKR_EHTTP: a non-2xx answer without a Flickr envelope; see ``http_status``."""


class OverBudget(TransportError):
    """FLICKR_EBUDGET: the API key's budget (``budget_per_hour``), or an API or image host's
    back-off after its HTTP 429, has no slot before the call's time limit; nothing was sent.
    ``retry_after`` is how many seconds until one frees up (``retry_after_ms`` in ms)."""

    retry_after_ms: int = 0

    @property
    def retry_after(self) -> float:
        return self.retry_after_ms / 1000


class APIError(ServiceError):
    """FLICKR_EAPI: Flickr answered stat="fail"; ``api_code`` is Flickr's error code."""


class OAuthError(ServiceError):
    """FLICKR_EOAUTH: an OAuth endpoint refused the request; the message holds its answer."""


class ParseError(ResponseError):
    """FLICKR_EPARSE: the answer was empty, not XML, or not of the expected form."""


class Aborted(FlickrError):
    """FLICKR_EABORTED: a callback asked to stop, or the request was cancelled."""


class TLSError(TransportError):
    """FLICKR_ETLS: certificate not trusted, wrong host, or handshake failure."""


class FileError(FlickrError, OSError):
    """FLICKR_EIO: a local file or stream could not be read, or the photo cache written."""


class TooBig(ResponseError):
    """FLICKR_ETOOBIG: the answer exceeded max_response_bytes."""


class StateError(UsageError):
    """FLICKR_ESTATE: the object cannot do this now (for example, it was closed)."""


class NotFound(UsageError):
    """FLICKR_ENOTFOUND: no such thing (a method name the catalogue does not hold)."""


_CLASSES = {
    EINVAL: InvalidArgument,
    ENOMEM: NoMemory,
    ENETWORK: NetworkError,
    ETIMEOUT: Timeout,
    EHTTP: HTTPError,
    EAPI: APIError,
    EOAUTH: OAuthError,
    EPARSE: ParseError,
    EABORTED: Aborted,
    ETLS: TLSError,
    EIO: FileError,
    ETOOBIG: TooBig,
    ESTATE: StateError,
    ENOTFOUND: NotFound,
    EBUDGET: OverBudget,
}


def from_status(code: int, message: str, api_code: int = 0, http_status: int = 0) -> FlickrError:
    """The exception for a status code; unknown codes give the base class."""
    return _CLASSES.get(code, FlickrError)(code, message, api_code, http_status)


#: Old names that still work, each the very class of its new name: {old: (new, what to know)}.
_RENAMED = {
    "TimeoutError": ("Timeout",
                     "it is also a subclass of the builtin TimeoutError, so `except TimeoutError` catches it"),
}

if TYPE_CHECKING:  # what type checkers see of the old names (at run time, __getattr__ below)
    TimeoutError = Timeout


def _renamed(module: str, name: str) -> type:
    """The class behind `name`, an old name read from `module` (flickr or flickr.errors), with a
    DeprecationWarning pointing at the line that read it; AttributeError for any other name."""
    if name not in _RENAMED:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    new, note = _RENAMED[name]
    warnings.warn(f"{module}.{name} is deprecated, use flickr.{new} (the same class; {note})", DeprecationWarning,
                  stacklevel=3)
    renamed: type = globals()[new]
    return renamed


def __getattr__(name: str) -> type:
    return _renamed(__name__, name)
