# SPDX-License-Identifier: MIT
"""The parts of an incoming HTTP request every endpoint needs, and what they know of the server.

A :class:`Request` is built by the HTTP server from the request line, the headers and the
connection's input stream, with a :class:`Site`: the state and the sandbox's own URL.  It knows
nothing of the server itself, so the endpoints below the server never import it (the sandbox's
layers: docs/sandbox.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from email.message import Message
from io import BufferedIOBase
from typing import Callable, Iterator
from urllib.parse import parse_qsl, urlsplit

from .errors import BodyError
from .oauth import base_url, parse_authorization
from .response import Response
from .store import Store

CHUNK = 64 * 1024
MAX_FORM_BYTES = 16 * 1024 * 1024


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

    def body_chunks(self) -> Iterator[bytes]:
        """The request body in pieces of at most 64 KiB (Content-Length or chunked)."""
        rfile = self._rfile
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            yield from self._chunked(rfile)
            self.body_consumed = True
            return
        raw = self.headers.get("Content-Length")
        if raw is None:
            if self.method in ("POST", "PUT"):
                raise BodyError(411, "Length Required")
            self.body_consumed = True
            return
        try:
            remaining = int(raw)
        except ValueError:
            raise BodyError(400, "Bad Content-Length") from None
        while remaining > 0:
            data = rfile.read(min(remaining, CHUNK))
            if not data:
                raise BodyError(400, "Body shorter than Content-Length")
            remaining -= len(data)
            yield data
        self.body_consumed = True

    @staticmethod
    def _chunked(rfile: BufferedIOBase) -> Iterator[bytes]:
        while True:
            line = rfile.readline(1024)
            try:
                size = int(line.split(b";")[0].strip(), 16)
            except ValueError:
                raise BodyError(400, "Bad chunk size") from None
            if size == 0:
                while rfile.readline(1024).strip():  # trailers
                    pass
                return
            while size > 0:
                data = rfile.read(min(size, CHUNK))
                if not data:
                    raise BodyError(400, "Truncated chunk")
                size -= len(data)
                yield data
            rfile.readline(1024)

    def read_form(self) -> list[tuple[str, str]]:
        """Query parameters plus an urlencoded body (other bodies are read and ignored)."""
        is_form = self.headers.get("Content-Type", "").split(";")[0].strip().lower() == \
            "application/x-www-form-urlencoded"
        body = bytearray()
        for chunk in self.body_chunks():
            if is_form:
                body += chunk
                if len(body) > MAX_FORM_BYTES:
                    raise BodyError(413, "Request Entity Too Large")
        return self.query_pairs + (parse_form(bytes(body)) if is_form else [])


@dataclass
class Prepared:
    """A request whose body has been consumed, ready to be answered.

    ``params`` (every parameter, for the fault lookup) is known before ``run``
    does the work, so injected faults can replace the processing.
    """

    params: list[tuple[str, str]]
    run: Callable[[], Response]
    cleanup: Callable[[], None] = field(default=lambda: None)
