# SPDX-License-Identifier: MIT
"""HTTP responses and how they go on the wire (including injected faults).

Every response carries a Content-Length, so HTTP/1.1 keep-alive works and
clients can reuse connections.
"""

from __future__ import annotations


import os
import socket
import struct
from dataclasses import dataclass, field
from html import escape as html_escape
from typing import BinaryIO, Iterable, Iterator

from . import envelope
from .errors import ApiError


@dataclass
class Response:
    status: int
    body: bytes | Iterable[bytes] = b""
    content_type: str = envelope.XML_CONTENT_TYPE
    headers: list[tuple[str, str]] = field(default_factory=list)
    length: int | None = None  # required when body is an iterable

    def chunks(self) -> Iterable[bytes]:
        return [self.body] if isinstance(self.body, bytes) else self.body

    @property
    def content_length(self) -> int:
        if isinstance(self.body, bytes):
            return len(self.body)
        if self.length is None:
            raise TypeError("a Response with a streamed body needs its length")
        return self.length


def xml_ok(payload: list[envelope.Node]) -> Response:
    return Response(200, envelope.xml_ok(payload))


def api_error(err: ApiError, json_callback: str | None = None, as_json: bool = False) -> Response:
    if as_json:
        return Response(200, envelope.json_bytes(envelope.json_fail(err.code, err.message), json_callback),
                        envelope.JSON_CONTENT_TYPE)
    return Response(200, envelope.xml_fail(err.code, err.message))


def text(status: int, body: str) -> Response:
    """The plain-text form answers of the OAuth endpoints."""
    return Response(status, body.encode("utf-8"), "text/plain;charset=UTF-8")


def html(status: int, title: str, message: str, headers: list[tuple[str, str]] | None = None) -> Response:
    body = (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html_escape(title)}</title>"
            f"</head>\n<body><h1>{html_escape(title)}</h1>\n<p>{message}</p></body></html>\n")
    return Response(status, body.encode("utf-8"), "text/html; charset=utf-8", headers or [])


def json_ok(payload: list[envelope.Node], callback: str | None) -> Response:
    return Response(200, envelope.json_bytes(envelope.json_ok(payload), callback),
                    envelope.JSON_CONTENT_TYPE)


def too_many_requests(retry_after: int) -> Response:
    """Flickr's answer to a key over its calls per hour (and the ``http429`` fault's)."""
    return html(429, "429 Too Many Requests", "You have sent too many requests in a given amount of time.",
                [("Retry-After", str(retry_after))])


def open_file(f: BinaryIO, content_type: str) -> Response:
    """A 200 whose body is the open file ``f``, read in 64 KiB pieces as it is sent, then closed."""
    return Response(200, _file_chunks(f), content_type, length=os.fstat(f.fileno()).st_size)


def _file_chunks(f: BinaryIO) -> Iterator[bytes]:
    with f:
        while chunk := f.read(64 * 1024):
            yield chunk


def redirect(location: str) -> Response:
    return Response(302, b"", "text/html; charset=utf-8", [("Location", location)])


def abort_connection(sock: socket.socket) -> None:
    """Close with a TCP RST (SO_LINGER 0) instead of an orderly FIN."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass


