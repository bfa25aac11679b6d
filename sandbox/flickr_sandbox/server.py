# SPDX-License-Identifier: MIT
"""The HTTP server, its request handler, and :class:`Sandbox`, the in-process API.

The top of the sandbox's layers (docs/sandbox.md): it routes each request to an endpoint
module, handing it a :class:`~.request.Request` that carries a :class:`~.request.Site` (the
state and the base URL), never the server; what only the transport needs (fault counting,
latency, logging) stays here, in :class:`ServerConfig`.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import ssl
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Sequence, Tuple, Union

from . import constants as C
from . import faults, files, oauth_endpoints, pages, rest, tls, uploads, videos
from . import response as R
from .errors import BodyError
from .faults import FaultInjector, parse_standing  # by name: Sandbox's `faults` argument shadows the module
from .request import MAX_UPLOAD_BYTES, Prepared, Request, Site
from .budget import Budget, scaled_clock
from .seed import seed
from .seed_photos import seed_photos as add_seeded_photos
from .settings import Settings, SettingsView
from .store import Store

ROUTES: dict[str, Callable[[Request], Prepared]] = {
    "/services/rest": rest.prepare,
    "/services/upload": lambda req: uploads.prepare(req, replace=False),
    "/services/replace": lambda req: uploads.prepare(req, replace=True),
    "/services/oauth/request_token": oauth_endpoints.prepare(oauth_endpoints.request_token),
    "/services/oauth/authorize": oauth_endpoints.prepare(oauth_endpoints.authorize),
    "/services/oauth/access_token": oauth_endpoints.prepare(oauth_endpoints.access_token),
    "/services/auth": oauth_endpoints.prepare(oauth_endpoints.legacy_auth),
    "/photos": pages.prepare,
}
SLOW_CHUNK = 32
# After answering a request whose body was left unread (refused before reading it), what the
# client still sends is read and dropped for this long before closing: closing with unread data
# would reset the connection, and a client still sending could lose the answer (Apache's
# "lingering close").
LINGER_SECONDS = 2.0
# What socketserver hands a server's methods: a socket over TCP (all this server sees),
# a (datagram, socket) pair over UDP.
_Request = Union[socket.socket, Tuple[bytes, socket.socket]]
log = logging.getLogger("flickr_sandbox")


@dataclass(frozen=True)
class ServerConfig:
    """What the HTTP layer needs: the endpoints' Site, and the settings of the transport itself."""

    site: Site
    faults: faults.FaultInjector  # counts ``times=N;key=K`` across requests
    latency_ms: int = 0  # added before every response (--latency-ms)
    verbose: bool = False  # log request paths and connection errors to stderr


def route(req: Request) -> Callable[[Request], Prepared] | None:
    """The prepare function for a path (trailing slash optional), or None."""
    path = req.path.rstrip("/") if req.path != "/" else req.path
    if path in ROUTES:
        return ROUTES[path]
    match = files.PHOTO_PATH.match(req.path)
    if match:
        return lambda r: files.prepare(r, match)
    played = videos.PLAY_PATH.match(req.path)
    if played:
        return lambda r: videos.prepare(r, played)
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FlickrSandbox/1.0"
    sys_version = ""
    timeout = 120  # idle keep-alive connections are closed after this
    # Headers and body go out in separate writes: without TCP_NODELAY the body waits
    # for the client's delayed ACK (~40 ms per response).
    disable_nagle_algorithm = True
    server: _HTTPServer

    def setup(self) -> None:
        super().setup()
        self.server.track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.track(self.connection, add=False)

    def do_GET(self) -> None:
        self._dispatch()

    do_POST = do_PUT = do_DELETE = do_GET

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        # Path only: query strings carry tokens and signatures.
        if self.server.config.verbose:
            sys.stderr.write(f"{self.address_string()} {self.command} {self.path.split('?')[0]} {code}\n")

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.config.verbose:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")

    def _dispatch(self) -> None:
        config = self.server.config
        req = Request(self.command, self.path, self.headers, self.rfile, config.site)
        prepare = route(req)
        if prepare is None:
            self.close_connection = True  # an unread body may follow
            self._transmit(R.html(404, "404 Not Found", "No such page on the Flickr sandbox."), None)
            return
        try:
            prepared: Prepared = prepare(req)
        except BodyError as err:
            self.close_connection = True
            self._transmit(R.text(err.status, err.message), None)
            self._linger()
            return
        except (ConnectionError, TimeoutError):
            raise  # the client went away or stalled: nobody to answer
        except Exception:
            self.close_connection = True  # the body may be half read
            self._transmit(self._internal_error(), None)
            return
        try:
            spec = self.headers.get("X-Sandbox-Fault") or \
                next((v for k, v in reversed(prepared.params) if k == faults.FAULT_PARAM), None) or \
                config.faults.standing_spec(req.path)
            try:
                fault = config.faults.activate(spec)
            except faults.FaultSyntaxError as err:
                self._transmit(R.text(400, f"sandbox_fault: {err}"), None)
                return
            if fault is not None and fault.kind in faults.REPLACING:
                resp = faults.replacement(fault)
                if resp is None:
                    self.close_connection = True
                    R.abort_connection(self.connection)
                    return
            else:
                resp = self._run(prepared)
            if not req.body_consumed:
                self.close_connection = True
            self._transmit(resp, fault)
            if not req.body_consumed:
                self._linger()
        finally:
            prepared.cleanup()

    def _run(self, prepared: Prepared) -> R.Response:
        """The endpoint's answer; a bug in it answers 500 instead of dropping the connection."""
        try:
            return prepared.run()
        except Exception:
            return self._internal_error()

    def _internal_error(self) -> R.Response:
        # Path only in the log: query strings carry tokens and signatures.
        log.exception("internal error answering %s %s", self.command, self.path.split("?")[0])
        return R.html(500, "500 Internal Server Error",
                      "The Flickr sandbox failed to answer this request (see its log).")

    def _transmit(self, resp: R.Response, fault: faults.Fault | None) -> None:
        delay = self.server.config.latency_ms
        if fault is not None and fault.kind == "latency":
            delay += fault.value
        if delay:
            time.sleep(delay / 1000)
        length = resp.content_length
        declared = length + max(16, length) if fault and fault.kind == "truncate" else length
        self.send_response(resp.status)
        self.send_header("Content-Type", resp.content_type)
        self.send_header("Content-Length", str(declared))
        for name, value in resp.headers:
            self.send_header(name, value)
        if self.close_connection or (fault and fault.kind in ("truncate", "drop")):
            self.send_header("Connection", "close")
        self.end_headers()
        try:
            if fault is not None and fault.kind == "drop":
                self._send_prefix(resp, length // 2)
                self.close_connection = True
                R.abort_connection(self.connection)
                return
            first = True
            for chunk in resp.chunks():
                if fault is not None and fault.kind == "slow":
                    for i in range(0, len(chunk), SLOW_CHUNK):
                        if not first:
                            time.sleep(fault.value / 1000)
                        first = False
                        self.wfile.write(chunk[i:i + SLOW_CHUNK])
                else:
                    self.wfile.write(chunk)
        except OSError:
            self.close_connection = True  # the client went away
            return
        if fault is not None and fault.kind == "truncate":
            self.close_connection = True

    def _linger(self) -> None:
        """Half-close, then drop what the client still sends for up to LINGER_SECONDS."""
        sock = self.connection
        deadline = time.monotonic() + LINGER_SECONDS
        try:
            sock.shutdown(socket.SHUT_WR)
            while (left := deadline - time.monotonic()) > 0:
                sock.settimeout(left)
                if not sock.recv(65536):
                    break
        except (OSError, ValueError):
            pass  # reset, timed out, or a TLS socket that cannot half-close: closing is all there is

    def _send_prefix(self, resp: R.Response, n: int) -> None:
        for chunk in resp.chunks():
            if n <= 0:
                break
            self.wfile.write(chunk[:n])
            n -= len(chunk)


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # Clients open many connections at once (128 requests in flight); the default
    # backlog of 5 makes the rest retry their SYN a second later.
    request_queue_size = 512

    # Set once the port is bound (the Site's URL names it), before serving.
    config: ServerConfig

    def __init__(self, address: tuple[str, int], ssl_context: ssl.SSLContext | None):
        self.ssl_context = ssl_context
        self._connections: set[socket.socket] = set()
        self._conn_lock = threading.Lock()
        self.accepted = 0  # TCP connections accepted since start (Sandbox.connections_accepted)
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, Handler)

    def track(self, conn: socket.socket, add: bool) -> None:
        with self._conn_lock:
            (self._connections.add if add else self._connections.discard)(conn)

    def close_all_connections(self) -> None:
        with self._conn_lock:
            conns = list(self._connections)
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def process_request(self, request: _Request, client_address: Any) -> None:
        with self._conn_lock:
            self.accepted += 1
        super().process_request(request, client_address)

    def finish_request(self, request: _Request, client_address: Any) -> None:
        if self.ssl_context is None or not isinstance(request, socket.socket):
            return super().finish_request(request, client_address)
        # The TLS handshake runs here, in the connection's own thread, not in accept().
        request.settimeout(Handler.timeout)
        try:
            tls_sock = self.ssl_context.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError):
            return
        try:
            Handler(tls_sock, client_address, self)  # the class given to __init__
        finally:
            try:
                tls_sock.close()
            except OSError:
                pass

    def handle_error(self, request: _Request, client_address: Any) -> None:
        if self.config.verbose:
            super().handle_error(request, client_address)


class Sandbox(SettingsView):
    """A running Flickr-compatible server.

    Usable as a context manager::

        with Sandbox() as sb:
            urllib.request.urlopen(sb.url + "/services/rest/?method=flickr.test.echo&api_key=" + sb.api_key)

    ``sb.settings`` (also as ``sb.url``, ``sb.api_key``... ``sb.data_dir``, ``sb.ca_file``) is what
    a client needs. ``data_dir=None`` uses a fresh temporary directory, removed by :meth:`stop`.
    ``seed_photos``, ``budget_per_hour`` and ``clock_speed`` are ``--seed-photos``,
    ``--budget-per-hour`` and ``--clock-speed`` (0, 0 and 1: none, no limit, real time);
    ``faults`` the standing faults of ``--fault`` (``SPEC[@PATH]``; a bad one raises
    ``FaultSyntaxError``).
    """

    user_nsid = C.USER_NSID

    def __init__(self, port: int = 0, host: str = "127.0.0.1", data_dir: str | None = None,
                 tls_enabled: bool = False, latency_ms: int = 0, verbose: bool = False,
                 max_upload_bytes: int = MAX_UPLOAD_BYTES, seed_photos: int = 0,
                 budget_per_hour: int = 0, clock_speed: float = 1.0, faults: Sequence[str] = ()):
        standing = tuple(parse_standing(text) for text in faults)  # a bad spec raises first
        self._own_dir = data_dir is None
        data_dir = os.path.abspath(data_dir or tempfile.mkdtemp(prefix="flickr-sandbox-"))
        os.makedirs(data_dir, exist_ok=True)
        self.host = host
        self.tls = tls_enabled
        ca_file: str | None = None
        context = None
        try:
            if tls_enabled:
                ca_file, cert, key = tls.generate(os.path.join(data_dir, "tls"), host)
                context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                context.load_cert_chain(cert, key)
            self.store = Store(data_dir)
            seed(self.store)
            add_seeded_photos(self.store, seed_photos)
            budget = Budget(budget_per_hour, scaled_clock(clock_speed)) if budget_per_hour > 0 else None
            self._httpd = _HTTPServer((host, port), context)
        except BaseException:
            if self._own_dir:
                shutil.rmtree(data_dir, ignore_errors=True)
            raise
        self.port = self._httpd.server_address[1]
        url_host = f"[{host}]" if ":" in host else host
        url = f"{'https' if tls_enabled else 'http'}://{url_host}:{self.port}"
        self.settings = Settings(url, C.API_KEY, C.API_SECRET, C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET, C.AUTH_TOKEN,
                                 data_dir, ca_file)
        self.config = ServerConfig(Site(self.store, url, max_upload_bytes, budget),
                                   FaultInjector(standing), latency_ms, verbose)
        self._httpd.config = self.config
        self._thread: threading.Thread | None = None
        self._stopped = False

    def start(self) -> Sandbox:
        """Serve on a background thread; once: a second call (say, inside `with Sandbox()`) keeps the
        first thread, since two threads serving one server would leave one running after stop()."""
        if self._stopped:
            raise RuntimeError("this sandbox has stopped; start a new one")
        if self._thread is not None:
            return self
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.1},
                                        name="flickr-sandbox", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Serve on the calling thread until :meth:`shutdown` is called from another."""
        self._httpd.serve_forever(poll_interval=0.1)

    def shutdown(self) -> None:
        self._httpd.shutdown()

    def stop(self) -> None:
        """Stop serving, close connections and the database, remove a temporary data dir."""
        if self._stopped:
            return
        self._stopped = True
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join()
        self._httpd.server_close()
        self._httpd.close_all_connections()
        self.store.close()
        if self._own_dir:
            shutil.rmtree(self.settings.data_dir, ignore_errors=True)

    @property
    def connections_accepted(self) -> int:
        """TCP connections accepted so far: what tests of a client's connection reuse count."""
        with self._httpd._conn_lock:
            return self._httpd.accepted

    def __enter__(self) -> Sandbox:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
