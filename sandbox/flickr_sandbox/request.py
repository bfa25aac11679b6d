# SPDX-License-Identifier: MIT
"""The parts of an incoming HTTP request every endpoint needs, and what they know of the server.

A :class:`Request` is built by the HTTP server from the request line, the headers and the
connection's input stream, with a :class:`Site`: the state and the sandbox's own URL.  It knows
nothing of the server itself, so the endpoints below the server never import it (the sandbox's
layers: docs/sandbox.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from email.message import Message
from io import BufferedIOBase
from typing import Callable, Iterator
from urllib.parse import parse_qsl, urlsplit

from .budget import Budget
from .errors import BodyError
from .oauth import base_url, parse_authorization
from .response import Response
from .store import Store

CHUNK = 64 * 1024
# Every body has a bound, checked against Content-Length before a byte is read (and counted
# as a chunked one arrives): a REST or OAuth form is held in memory, so 16 MiB (a
# photosets.editPhotos of 5,000 ids is 60 KiB); an upload streams, so the Site's bound.
MAX_FORM_BYTES = 16 * 1024 * 1024
# Flickr's largest file is a 1 GB video; 1 MiB more for the form fields and boundaries.
MAX_UPLOAD_BYTES = 1024 * 1024 * 1024 + 1024 * 1024
# A body must arrive at 64 KiB/s on average after a grace of 30 s: a client that dribbles a
# byte a minute (slowloris) is answered 408 instead of holding its thread for ever.
BODY_GRACE_SECONDS = 30.0
BODY_MIN_RATE = 64 * 1024


def parse_form(text: bytes | str) -> list[tuple[str, str]]:
    """application/x-www-form-urlencoded (and query strings): ``+`` is a space, blanks kept."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    # Decode as latin-1 first so parse_qsl's percent-decoding yields the raw bytes...
    pairs = parse_qsl(text, keep_blank_values=True, encoding="latin-1")
    # ...then reinterpret them as UTF-8, as Flickr does.
    return [(_utf8(k), _utf8(v)) for k, v in pairs]


def _utf8(value: str) -> str:
    return value.encode("latin-1").decode("utf-8", "replace")


@dataclass(frozen=True)
class Site:
    """What an endpoint knows of the sandbox answering: its state and its own base URL.

    All the settings a request needs, handed down by the server instead of the server itself.
    """

    store: Store
    url: str  # scheme://host:port, no trailing slash: links in answers, signatures without Host
    max_upload_bytes: int = MAX_UPLOAD_BYTES  # the largest upload or replace body (--max-upload-bytes)
    budget: Budget | None = None  # API calls per key and hour (--budget-per-hour), None: no limit


class Request:
    """One request: method, path as sent, query parameters, headers and body access."""

    def __init__(self, method: str, target: str, headers: Message, rfile: BufferedIOBase, site: Site):
        self.site = site
        self.method = method
        self.path, _, query = target.partition("?")
        self.query_pairs = parse_form(query.split("#", 1)[0])
        self.headers = headers
        self._rfile = rfile
        self.body_consumed = False

    def signing_url(self) -> str:
        """The base-string URL: our own scheme, the Host header as sent, the path as sent."""
        ours = urlsplit(self.site.url)
        return base_url(ours.scheme, self.headers.get("Host") or ours.netloc, self.path)

    def header_oauth(self) -> list[tuple[str, str]] | None:
        return parse_authorization(self.headers.get("Authorization"))

    def body_chunks(self, limit: int) -> Iterator[bytes]:
        """The request body in pieces of at most 64 KiB (Content-Length or chunked).

        A body longer than ``limit`` is refused (413) before it is read when its length is
        declared, as soon as it passes the bound when chunked; one that arrives slower than
        BODY_MIN_RATE after BODY_GRACE_SECONDS is refused with 408.
        """
        clock = _BodyClock()
        rfile = self._rfile
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            received = 0
            for data in self._chunked(rfile, clock):
                received += len(data)
                if received > limit:
                    raise BodyError(413, "Request Entity Too Large")
                yield data
            self.body_consumed = True
            return
        raw = self.headers.get("Content-Length")
        if raw is None:
            if self.method in ("POST", "PUT"):
                raise BodyError(411, "Length Required")
            self.body_consumed = True
            return
        remaining = parse_length(raw)
        if remaining is None:
            raise BodyError(400, "Bad Content-Length")
        if remaining > limit:
            raise BodyError(413, "Request Entity Too Large")
        yield from _pieces(rfile, remaining, clock, "Body shorter than Content-Length")
        self.body_consumed = True

    @staticmethod
    def _chunked(rfile: BufferedIOBase, clock: _BodyClock) -> Iterator[bytes]:
        while True:
            line = rfile.readline(1024)
            clock.advance(len(line))
            try:
                size = int(line.split(b";")[0].strip(), 16)
            except ValueError:
                raise BodyError(400, "Bad chunk size") from None
            if size < 0:
                raise BodyError(400, "Bad chunk size")
            if size == 0:
                while rfile.readline(1024).strip():  # trailers
                    clock.advance(0)
                return
            yield from _pieces(rfile, size, clock, "Truncated chunk")
            rfile.readline(1024)

    def read_form(self) -> list[tuple[str, str]]:
        """Query parameters plus an urlencoded body (other bodies are read and ignored)."""
        is_form = self.headers.get("Content-Type", "").split(";")[0].strip().lower() == \
            "application/x-www-form-urlencoded"
        body = bytearray()
        for chunk in self.body_chunks(MAX_FORM_BYTES):
            if is_form:
                body += chunk
        return self.query_pairs + (parse_form(bytes(body)) if is_form else [])


def parse_length(raw: str) -> int | None:
    """A Content-Length: ASCII digits only (int() would take "+5", " 5", "5_0" and "٥")."""
    raw = raw.strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 19 else None


class _BodyClock:
    """How long a body has taken against how much of it arrived (BODY_MIN_RATE)."""

    def __init__(self) -> None:
        self._start = time.monotonic()
        self._received = 0

    def advance(self, n: int) -> None:
        self._received += n
        allowed = BODY_GRACE_SECONDS + self._received / BODY_MIN_RATE
        if time.monotonic() - self._start > allowed:
            raise BodyError(408, "Request Timeout")


@dataclass
class Prepared:
    """A request whose body has been consumed, ready to be answered.

    ``params`` (every parameter, for the fault lookup) is known before ``run``
    does the work, so injected faults can replace the processing.
    """

    params: list[tuple[str, str]]
    run: Callable[[], Response]
    cleanup: Callable[[], None] = field(default=lambda: None)


def _pieces(rfile: BufferedIOBase, length: int, clock: _BodyClock, short: str) -> Iterator[bytes]:
    """`length` bytes of the body as they arrive; a body that ends first is a 400 saying `short`."""
    while length > 0:
        # read1: one receive at most, so that the clock is looked at after each.
        data = rfile.read1(min(length, CHUNK))
        if not data:
            raise BodyError(400, short)
        clock.advance(len(data))
        length -= len(data)
        yield data
