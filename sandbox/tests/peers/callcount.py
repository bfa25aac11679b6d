# SPDX-License-Identifier: MIT
"""A counting reverse proxy in front of a sandbox: which REST methods a peer calls, with what.

The peers are pointed at this proxy's URL instead of the sandbox's (their endpoint constant
is all that changes). It forwards every request as it came, Host header included, so OAuth
signatures made for the proxy's URL verify at the sandbox (which checks them against the Host
as sent), and records each REST call's method and parameter names. Photo files are not seen
here: the sandbox's answers point at its own URL; the tests count those from its request log.

``delay_ms`` makes it a latency proxy too (bench/run.py's workload 8): each REST call waits that
long before it is forwarded, each in its own thread, so calls in flight wait side by side as
they would on a long network path. The photo files, fetched from the sandbox itself, do not.
"""

from __future__ import annotations

import http.client
import threading
import time
import urllib.parse
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Parameters every call carries: credentials, signatures and the answer's format.
NOISE = frozenset({"api_key", "api_sig", "auth_token", "format", "nojsoncallback", "method"})
HOP_BY_HOP = frozenset({"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
                        "proxy-authorization", "proxy-authenticate"})
TIMEOUT = 60.0
MAX_DELAY_MS = 10_000  # a REST call's added latency: far past any real network's, short of TIMEOUT


@dataclass(frozen=True)
class RestCall:
    """One REST call: Flickr method, the other parameters it was given (names), its extras."""

    method: str
    params: tuple[str, ...]
    extras: str

    def __str__(self) -> str:
        extras = f" extras={self.extras}" if self.extras else ""
        return f"{self.method}({', '.join(self.params)}){extras}"


class CallCounter:
    """``with CallCounter(sandbox_url) as proxy:`` -- ``proxy.url``; ``proxy.calls`` so far."""

    def __init__(self, target_url: str, delay_ms: int = 0):
        parts = urllib.parse.urlsplit(target_url)
        if parts.scheme != "http" or not parts.hostname or not parts.port:
            raise ValueError(f"CallCounter forwards to http://host:port only, not {target_url!r}")
        if not 0 <= delay_ms <= MAX_DELAY_MS:
            raise ValueError(f"CallCounter delays a call 0 to {MAX_DELAY_MS} ms, not {delay_ms}")
        self.delay = delay_ms / 1000
        self.target = (parts.hostname, parts.port)
        self.calls: list[RestCall] = []
        self.pages: list[str] = []  # paths of the other requests (gallery-dl's site-key page)
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.1},
                                        name="peers-callcount", daemon=True)

    def record(self, path: str, query: str, body: bytes, content_type: str) -> bool:
        """Count one request; whether it is a REST call."""
        if not path.rstrip("/").endswith("/services/rest"):
            with self._lock:
                self.pages.append(path)
            return False
        pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
        if content_type.startswith("application/x-www-form-urlencoded"):
            pairs += urllib.parse.parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
        args = dict(pairs)
        names = tuple(sorted(k for k in args if k not in NOISE and not k.startswith("oauth_")))
        with self._lock:
            self.calls.append(RestCall(args.get("method", "?"), names, args.get("extras", "")))
        return True

    def mark(self) -> int:
        """Where the calls stand now: ``since(mark)`` gives the calls made after it."""
        with self._lock:
            return len(self.calls)

    def since(self, mark: int) -> list[RestCall]:
        with self._lock:
            return self.calls[mark:]

    def __enter__(self) -> CallCounter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._thread.join()
        self._httpd.server_close()


def _handler(counter: CallCounter) -> type[BaseHTTPRequestHandler]:
    class Forward(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            path, _, query = self.path.partition("?")
            if counter.record(path, query, body, self.headers.get("Content-Type", "")) and counter.delay:
                time.sleep(counter.delay)  # the simulated network path's latency, not a wait for anything
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            conn = http.client.HTTPConnection(*counter.target, timeout=TIMEOUT)
            try:
                # skip_host: the client's Host header goes on as it was, the signature covers it.
                conn.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
                for key, value in headers.items():
                    conn.putheader(key, value)
                conn.endheaders(body or None)
                reply = conn.getresponse()
                data = reply.read()
                self.send_response_only(reply.status, reply.reason)
                for key, value in reply.getheaders():
                    if key.lower() not in HOP_BY_HOP and key.lower() != "content-length":
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            finally:
                conn.close()

        do_POST = do_GET

        def log_message(self, format: str, *args: object) -> None:
            pass  # the sandbox logs; this proxy only counts

    return Forward
