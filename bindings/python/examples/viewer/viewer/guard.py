# SPDX-License-Identifier: MIT
"""Who may talk to the viewer: its own pages, by the names it is served under.

A page on another site can make a browser send requests to 127.0.0.1, and with DNS rebinding
(its own name resolving to 127.0.0.1) read the answers, as the viewer's origin would: so the
viewer answers only requests whose Host is one of its own names and port (misdirected, 421,
otherwise), and changes nothing (POST, PUT, PATCH, DELETE) unless the request comes from its
own pages: an Origin equal to its own (browsers send Origin with every such request; a client
that is not a browser sends it too), and a Sec-Fetch-Site, when sent, of same-origin (403).
"""

from __future__ import annotations

from typing import Iterable

from flask import Request, Response

# The names a browser on this machine reaches a loopback server by.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def host_name(host: str) -> str:
    """An address or name as it appears in a Host header: IPv6 addresses in brackets, lower case."""
    host = host.strip().lower()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _split_host(header: str) -> tuple[str, str]:
    """(name, port) of a Host header: the port is "80" when it is left out, "" when unreadable."""
    if header.startswith("["):  # an IPv6 address
        name, bracket, rest = header.partition("]")
        name += bracket
    else:
        name, colon, port = header.partition(":")
        rest = colon + port
    if not rest:
        return name, "80"
    return (name, rest[1:]) if rest.startswith(":") else (name, "")


class Guard:
    """Checks each request's Host, and the Origin of each request that changes something."""

    def __init__(self, names: Iterable[str] = ()):
        self.names = frozenset(host_name(n) for n in (*LOOPBACK_NAMES, *names) if n)

    def refusal(self, request: Request) -> Response | None:
        """None for a request to answer, else the answer that refuses it."""
        header = request.headers.get("Host", "").strip().lower()
        name, port = _split_host(header)
        if name not in self.names or port != str(request.environ.get("SERVER_PORT")):
            return Response(f"Misdirected request: this viewer answers for {', '.join(sorted(self.names))} "
                            "on its port only.\n", 421, mimetype="text/plain")
        if request.method in SAFE_METHODS:
            return None
        origin = request.headers.get("Origin")
        site = request.headers.get("Sec-Fetch-Site")
        if origin != f"{request.scheme}://{header}" or site not in (None, "same-origin"):
            return Response('{"error": "Refused: changes come only from the viewer\'s own pages '
                            '(Origin)."}\n', 403, mimetype="application/json")
        return None
