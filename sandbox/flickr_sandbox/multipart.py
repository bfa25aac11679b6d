# SPDX-License-Identifier: MIT
"""Streaming ``multipart/form-data`` parser (RFC 7578).

Push-based: feed it the request body in chunks of any size; it calls back with
each part's headers, its data in pieces, and its end.  It never holds more than
one chunk plus a boundary's worth of bytes, so a multi-gigabyte photo part goes
straight to disk.  (The stdlib ``cgi`` module is deprecated and buffers.)
"""

from __future__ import annotations

import re
from email.message import Message
from typing import Callable, Protocol


class MultipartError(ValueError):
    """The body is not valid multipart/form-data."""


class PartSink(Protocol):
    def write(self, data: bytes) -> None: ...
    def close(self) -> None: ...


MAX_HEADER_BYTES = 16 * 1024


def boundary_from_content_type(content_type: str) -> str | None:
    """The ``boundary`` parameter of a multipart/form-data Content-Type, or None."""
    msg = Message()
    msg["content-type"] = content_type
    if msg.get_content_type() != "multipart/form-data":
        return None
    boundary = msg.get_param("boundary")
    return boundary if isinstance(boundary, str) and 0 < len(boundary) <= 200 else None


_DISPOSITION_PARAM = re.compile(r';\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))')


def as_text(value: str, invalid: str = "replace") -> str:
    """A header value as text: bytes that were not UTF-8 as U+FFFD, or as \\xNN with
    ``invalid="backslashreplace"`` (to show what a client sent)."""
    return value.encode("utf-8", "surrogateescape").decode("utf-8", invalid)


def parse_disposition(value: str) -> dict[str, str]:
    """Parameters of a Content-Disposition header (``name``, ``filename``), raw UTF-8 allowed."""
    params = {}
    for m in _DISPOSITION_PARAM.finditer(value):
        raw = m.group(2) if m.group(2) is not None else (m.group(3) or "").strip()
        params[m.group(1).lower()] = re.sub(r"\\(.)", r"\1", raw)
    return params


class MultipartParser:
    """Incremental parser.

    ``on_part(headers) -> sink`` is called at each part start with its headers
    (lower-case names; in values, bytes that are not UTF-8 are surrogate-escaped: see as_text);
    the returned sink receives the part's bytes through ``write`` and is ``close``-d at the
    part's end.
    """

    def __init__(self, boundary: str, on_part: Callable[[dict[str, str]], PartSink]):
        self._delim = b"\r\n--" + boundary.encode("latin-1")
        self._on_part = on_part
        # A leading CRLF lets the first boundary match the same delimiter as the others.
        self._buf = b"\r\n"
        # preamble, after_boundary, headers, body (then _sink is the part's sink) or done.
        self._state = "preamble"
        self._sink: PartSink | None = None

    @property
    def finished(self) -> bool:
        return self._state == "done"

    def feed(self, data: bytes) -> None:
        if self._state == "done":
            return  # epilogue: ignored, as RFC 2046 says
        self._buf += data
        while self._step():
            pass

    def close(self) -> None:
        """End of body: it is an error unless the closing boundary was seen."""
        if self._state != "done":
            if self._sink is not None:
                self._sink.close()
                self._sink = None
            raise MultipartError("body ended before the closing boundary")

    def _step(self) -> bool:
        """Consume what the buffer allows; True if progress may continue."""
        buf = self._buf
        if self._sink is not None:
            return self._body(self._sink, buf)
        if self._state == "preamble":
            i = buf.find(self._delim)
            if i < 0:
                # Keep only a possible partial delimiter.
                self._buf = buf[-(len(self._delim) - 1):]
                return False
            self._buf = buf[i + len(self._delim):]
            self._state = "after_boundary"
            return True
        if self._state == "after_boundary":
            if len(buf) < 2:
                return False
            if buf[:2] == b"--":
                self._state = "done"
                self._buf = b""
                return False
            # Transport padding (spaces/tabs) may follow the boundary before CRLF.
            j = buf.find(b"\r\n")
            if j < 0:
                if len(buf) > 1024:
                    raise MultipartError("garbage after boundary")
                return False
            if buf[:j].strip(b" \t"):
                raise MultipartError("garbage after boundary")
            self._buf = buf[j + 2:]
            self._state = "headers"
            return True
        if self._state == "headers":
            j = buf.find(b"\r\n\r\n")
            if buf.startswith(b"\r\n"):
                j, head = 0, b""
            elif j < 0:
                if len(buf) > MAX_HEADER_BYTES:
                    raise MultipartError("part headers too long")
                return False
            else:
                head = buf[:j]
                j += 2
            headers = {}
            for line in head.split(b"\r\n"):
                if b":" not in line:
                    raise MultipartError("malformed part header")
                name, _, value = line.partition(b":")
                # surrogateescape: bytes that are not UTF-8 stay visible to the caller (see as_text).
                headers[name.strip().lower().decode("latin-1")] = value.strip().decode("utf-8", "surrogateescape")
            self._buf = buf[j + 2:]
            self._sink = self._on_part(headers)
            self._state = "body"
            return True
        return False

    def _body(self, sink: PartSink, buf: bytes) -> bool:
        """Pass a part's data to its sink; at the next delimiter, close it."""
        i = buf.find(self._delim)
        if i < 0:
            # Everything except a possible delimiter prefix at the end is data.
            keep = len(self._delim) - 1
            if len(buf) > keep:
                sink.write(buf[:-keep])
                self._buf = buf[-keep:]
            return False
        if i:
            sink.write(buf[:i])
        sink.close()
        self._sink = None
        self._buf = buf[i + len(self._delim):]
        self._state = "after_boundary"
        return True
