# SPDX-License-Identifier: MIT
"""Per-request fault injection, so client tests can reach every error path.

A fault is requested with the ``sandbox_fault`` parameter (query, form or
multipart field; it is signed like any parameter, then removed before the
method sees the arguments) or the ``X-Sandbox-Fault`` header.  Syntax::

    SPEC[;times=N][;key=K]

    latency=MS    wait MS milliseconds, then answer normally
    slow=MS       answer normally, but send the body 32 bytes at a time, MS ms apart
    drop          send headers (true Content-Length) and half the body, then reset the connection
    truncate      send headers with a Content-Length larger than the body, the body, then close
    reset         close the connection (TCP RST) without any response
    http500 | http502 | http503 | http504
                  that status with an HTML outage page
    http429[=N]   429 Too Many Requests with Retry-After: N (default 1)
    malformed     200 text/xml whose body is broken XML
    empty         200 text/xml with an empty body
    huge=BYTES    200 text/xml, a valid <rsp stat="ok"> padded with a comment to BYTES bytes

With ``times=N`` the fault hits only the first N requests that carry the same
key (``key=K``, default: the whole spec), later ones are served normally, so
retry logic can be tested.  Faults that replace the answer (http*, malformed,
empty, huge, reset) skip processing entirely: no side effects, no nonce use.
A spec's length and the number of keys counted are bounded (FAULT_SPEC_CHARS
and FAULT_KEYS in limits.py): past either, HTTP 400.

Standing faults are set when the server starts (``--fault SPEC[@PATH]``,
``Sandbox(faults=[...])``) and apply to requests that ask for none, for a
program that cannot add a parameter or a header (another Flickr tool, a CLI):
``http429=2;times=3@/photos/`` answers the first three requests whose path
starts with ``/photos/`` (the image files) with 429 and Retry-After: 2.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Iterator

from . import envelope
from .limits import FAULT_KEYS, FAULT_SPEC_CHARS
from .params import parse_unsigned
from .response import Response, html, too_many_requests

# The request parameter that asks for a fault (the header is X-Sandbox-Fault). It is signed like
# any parameter, and removed before a method sees its arguments.
FAULT_PARAM = "sandbox_fault"

# kind -> (takes a value, value required, default value)
_KINDS = {
    "latency": (True, True, 0), "slow": (True, True, 0), "huge": (True, True, 0),
    "http429": (True, False, 1),
    "drop": (False, False, 0), "truncate": (False, False, 0), "reset": (False, False, 0),
    "malformed": (False, False, 0), "empty": (False, False, 0),
    "http500": (False, False, 0), "http502": (False, False, 0),
    "http503": (False, False, 0), "http504": (False, False, 0),
}
# Faults that stand in for the real answer (the request is not processed).
REPLACING = {"http429", "http500", "http502", "http503", "http504", "malformed", "empty", "huge", "reset"}

# Largest fault value: 2**40 ms (~35 years) still fits time.sleep(), 2**40 bytes (1 TiB) of huge is plenty.
MAX_VALUE = 2 ** 40

_OUTAGE_TITLES = {500: "500 Internal Server Error", 502: "502 Bad Gateway",
                  503: "503 Service Unavailable", 504: "504 Gateway Time-out"}


class FaultSyntaxError(ValueError):
    """The fault spec cannot be parsed."""


@dataclass(frozen=True)
class Fault:
    kind: str
    value: int = 0  # milliseconds, bytes or Retry-After seconds; 0 for kinds that take none


def parse(spec: str) -> tuple[Fault, int | None, str | None]:
    """Parse ``SPEC[;times=N][;key=K]`` into (fault, times, key)."""
    if len(spec) > FAULT_SPEC_CHARS:  # a key is kept: any client could grow the sandbox by one
        raise FaultSyntaxError(f"a fault spec has at most {FAULT_SPEC_CHARS} characters")
    head, *options = [p.strip() for p in spec.split(";")]
    kind, has_value, raw = head.partition("=")
    kind = kind.strip().lower()
    if kind not in _KINDS:
        raise FaultSyntaxError(f"unknown fault {kind!r}")
    takes, required, default = _KINDS[kind]
    if has_value and not takes:
        raise FaultSyntaxError(f"fault {kind!r} takes no value")
    if required and not has_value:
        raise FaultSyntaxError(f"fault {kind!r} needs a value")
    value = parse_unsigned(raw.strip()) if has_value else default
    if value is None or value > MAX_VALUE:
        raise FaultSyntaxError(f"fault value must be an integer from 0 to {MAX_VALUE}: {raw!r}")
    times: int | None = None
    key: str | None = None
    for option in options:
        name, _, val = option.partition("=")
        if name == "times":
            times = parse_unsigned(val)  # ASCII digits within 64 bits (int() refuses "²")
            if times is None:
                raise FaultSyntaxError(f"bad fault option {option!r}")
        elif name == "key" and val:
            key = val
        else:
            raise FaultSyntaxError(f"bad fault option {option!r}")
    return Fault(kind, value), times, key


@dataclass(frozen=True)
class StandingFault:
    """A fault for every request under ``prefix`` that asks for none (``SPEC[@PATH]``)."""

    spec: str
    prefix: str = "/"


def parse_standing(text: str) -> StandingFault:
    """``SPEC`` (every path) or ``SPEC@/path/prefix``, the spec checked as a request's would be."""
    spec, at, prefix = text.rpartition("@")
    if not at or not prefix.startswith("/"):
        spec, prefix = text, "/"
    parse(spec)
    return StandingFault(spec, prefix)


class FaultInjector:
    """Decides, request by request, whether a requested fault applies (``times``/``key`` counting),
    and which standing fault a request that asks for none gets (the first whose prefix matches)."""

    def __init__(self, standing: tuple[StandingFault, ...] = ()) -> None:
        self._lock = threading.Lock()
        self._seen: dict[str, int] = {}
        self.standing = standing

    def standing_spec(self, path: str) -> str | None:
        path = path.split("?", 1)[0]
        return next((f.spec for f in self.standing if path.startswith(f.prefix)), None)

    def activate(self, spec: str | None) -> Fault | None:
        if not spec:
            return None
        fault, times, key = parse(spec)
        if times is None:
            return fault
        key = key or spec
        with self._lock:
            seen = self._seen.get(key, 0)
            if not seen and len(self._seen) >= FAULT_KEYS:
                raise FaultSyntaxError(f"the sandbox counts at most {FAULT_KEYS} fault keys; restart it")
            self._seen[key] = seen + 1
        return fault if seen < times else None


def replacement(fault: Fault) -> Response | None:
    """The stand-in response for a replacing fault (None for reset: nothing is sent)."""
    if fault.kind == "reset":
        return None
    if fault.kind == "http429":
        return too_many_requests(fault.value)
    if fault.kind.startswith("http"):
        status = int(fault.kind[4:])
        return html(status, _OUTAGE_TITLES[status],
                    "Flickr is having a massage. Please try again in a moment.")
    if fault.kind == "malformed":
        return Response(200, (envelope.XML_HEADER + '<rsp stat="ok">\n<photos page="1" pages="1"'
                              ' perpage="100" total="1">\n\t<photo id="1" title="unterminated & '
                              '<broken\n</rsp>\n').encode())
    if fault.kind == "empty":
        return Response(200, b"")
    return Response(200, _huge_body(fault.value), length=max(fault.value, _HUGE_MIN))


_HUGE_HEAD = (envelope.XML_HEADER + '<rsp stat="ok">\n<!-- ').encode()
_HUGE_TAIL = b" -->\n</rsp>\n"
_HUGE_MIN = len(_HUGE_HEAD) + len(_HUGE_TAIL)


def _huge_body(size: int) -> Iterator[bytes]:
    """A valid envelope padded inside a comment, generated in 64 KiB pieces."""
    yield _HUGE_HEAD
    remaining = max(0, size - _HUGE_MIN)
    block = b"x" * 65536
    while remaining > 0:
        n = min(remaining, len(block))
        yield block[:n]
        remaining -= n
    yield _HUGE_TAIL
