# SPDX-License-Identifier: MIT
"""The loopback HTTP server a browser login waits on: Flickr redirects the user's browser to
http://127.0.0.1:PORT/callback?oauth_token=..&oauth_verifier=.., and this server takes that one
request.

Private, used by `_login` only. `import flickr` does not load it (nor http.server): client.py imports
`flickr.oauth` only once `Flickr.oauth` or a login is used.
"""
from __future__ import annotations

import http.server
import threading
import time
import urllib.parse
from typing import Any


class CallbackReceiver:
    """A one-shot loopback HTTP server that waits for GET /callback?..."""

    def __init__(self, host: str, port: int):
        self._arrived = threading.Event()
        self._answered = threading.Event()  # the browser had its page
        self._callback: str | None = None
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                path = urllib.parse.urlsplit(self.path)
                if path.path != "/callback" or receiver._arrived.is_set():
                    self.send_error(404)
                    return
                # Recorded before the browser sees a byte: whoever saw the page can count on the
                # login having the callback (a pasted answer never wins over it then).
                receiver._callback = receiver.base + self.path
                receiver._arrived.set()
                query = urllib.parse.parse_qs(path.query)
                ok = bool(query.get("oauth_verifier"))
                body = ("<html><body><h1>" + ("Approved" if ok else "Not approved") +
                        "</h1><p>You can close this window and return to the application.</p></body></html>")
                data = body.encode("utf-8")
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(data)))
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(data)
                finally:  # written, or the browser went away: nothing more to wait for
                    receiver._answered.set()

            def log_message(self, format: str, *args: Any) -> None:  # keep the console quiet
                pass

        self._server = http.server.ThreadingHTTPServer((host, port), Handler)
        self._server.daemon_threads = True
        bound_host, bound_port = self._server.server_address[:2]
        bound_host = bound_host.decode() if isinstance(bound_host, bytes) else str(bound_host)
        shown = f"[{bound_host}]" if ":" in bound_host else bound_host
        self.base = f"http://{shown}:{bound_port}"
        self.url = self.base + "/callback"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.1},
                                        daemon=True)
        self._thread.start()

    def wait(self, timeout: float, other: threading.Event | None = None) -> str | None:
        """The callback URL once it arrived, or None after `timeout` seconds or once `other` is
        set (an answer that came another way); a callback that arrived first wins."""
        deadline = time.monotonic() + max(0.0, timeout)
        while not self._arrived.wait(0.1):
            if (other is not None and other.is_set()) or time.monotonic() >= deadline:
                return self._callback if self._arrived.is_set() else None
        return self._callback

    def close(self) -> None:
        """Stops the server and its thread, once the browser that called back had its page (up
        to 1 s); the port is free again."""
        if self._arrived.is_set():
            self._answered.wait(1.0)
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
