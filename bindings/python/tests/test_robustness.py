# SPDX-License-Identifier: MIT
"""Robustness of the binding and the library inside a Python process: exceptions raised
in callbacks, objects used after close, interpreter shutdown with requests in flight,
hostile servers (redirects to another host or from https to http, hostile XML bodies),
and TLS verification on by default."""
from __future__ import annotations

import http.server
import io
import os
import ssl
import subprocess
import sys
import textwrap
import threading

import pytest

import flickr
import flickr.client
from libtest import PACKAGE_DIR, endpoints

JPEG = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 40


def no_retries() -> dict:
    """max_retries=0 where the binding knows the option, so the first failure is what we see."""
    return {"max_retries": 0} if "max_retries" in flickr.client.NUMBER_OPTIONS else {}


@pytest.fixture
def api(library_path, sandbox):
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, oauth_token=sandbox.oauth_token,
                       oauth_token_secret=sandbox.oauth_token_secret, **endpoints(sandbox), **no_retries()) as api:
        yield api


# -- exceptions inside callbacks ------------------------------------------------------------------


class Boom(Exception):
    pass


def test_progress_exception_aborts_and_is_reraised(api):
    calls = []

    def progress(sent, total):
        calls.append(sent)
        raise Boom("from progress")

    with pytest.raises(Boom, match="from progress") as caught:
        api.upload(JPEG * 20, progress=progress, title="never")
    assert len(calls) == 1  # the first exception stopped the upload
    assert not isinstance(caught.value, flickr.FlickrError)
    assert api.call("flickr.test.echo", x="after")["x"]["_text"] == "after"  # still usable


def test_base_exceptions_in_callbacks_are_reraised_too(api):
    def progress(sent, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        api.upload(JPEG, progress=progress)

    class Exploding(io.BytesIO):
        def read(self, size=-1):
            raise SystemExit(3)

    with pytest.raises(SystemExit):
        api.upload(Exploding(JPEG), length=len(JPEG), filename="x.jpg")
    assert api.call("flickr.test.echo", x="ok")["x"]["_text"] == "ok"


def test_read_exception_mid_stream_aborts_and_is_reraised(api):
    class Failing(io.BytesIO):
        reads = 0

        def read(self, size=-1):
            Failing.reads += 1
            if Failing.reads == 3:
                raise OSError("disk on fire")
            return super().read(min(size, 1000))

    data = JPEG * 100
    with pytest.raises(OSError, match="disk on fire"):
        api.upload(Failing(data), length=len(data), filename="f.jpg")
    assert Failing.reads == 3


def test_progress_returning_false_aborts(api):
    with pytest.raises(flickr.Aborted):
        api.upload(JPEG * 20, progress=lambda sent, total: False)


def test_async_failures_reach_the_future(api):
    futures = [api.call_async("flickr.test.echo", sandbox_fault=spec)
               for spec in ("malformed", "http503", "reset")]
    kinds = (flickr.ParseError, flickr.FlickrError, flickr.FlickrError)
    for future, kind in zip(futures, kinds):
        with pytest.raises(kind):
            future.result(timeout=30)
    assert api.call_async("flickr.test.echo", x="1").result(timeout=30)["x"]["_text"] == "1"


# -- closed objects -------------------------------------------------------------------------------


def test_closed_twice_and_used_after_close(library_path, sandbox):
    api = flickr.Flickr(sandbox.api_key, sandbox.api_secret, **endpoints(sandbox))
    api.close()
    api.close()  # idempotent
    assert api.closed
    uses = [
        lambda: api.call("flickr.test.echo"),
        lambda: api.post("flickr.test.echo"),
        lambda: api.call_xml("flickr.test.echo"),
        lambda: api.call_discard("flickr.test.echo"),
        lambda: api.call_async("flickr.test.echo"),
        lambda: list(api.walk("flickr.photos.search")),
        lambda: api.upload(JPEG),
        lambda: api.replace(JPEG, "1"),
        lambda: api.wait_ticket("1-2", 10),
        lambda: api.set_option("timeout_ms", 5),
        lambda: api.get_option("user_agent"),
        lambda: api.oauth.request_token("oob"),
        lambda: api.oauth.authorize_url("token", "read"),
        lambda: api.oauth.check_token(),
    ]
    for use in uses:
        with pytest.raises(flickr.FlickrError):
            use()
    with api:  # entering and leaving a closed object is harmless
        pass
    del api  # __del__ on a closed object


def test_close_while_requests_are_in_flight(library_path, sandbox):
    api = flickr.Flickr(sandbox.api_key, sandbox.api_secret, **endpoints(sandbox), **no_retries())
    futures = [api.call_async("flickr.test.echo", sandbox_fault="latency=300", n=str(i)) for i in range(10)]
    api.close()  # the requests keep what they need of the context
    for i, future in enumerate(futures):
        assert future.result(timeout=30)["n"]["_text"] == str(i)


def test_bad_arguments_raise_not_crash(api):
    with pytest.raises(flickr.InvalidArgument):
        api.call("flickr.test.echo", x="a\0b")  # NUL would silently truncate in C
    with pytest.raises(flickr.InvalidArgument):
        api.call("flickr.test.echo", x="\udcff")  # a lone surrogate is not UTF-8
    with pytest.raises(flickr.InvalidArgument):
        api.call("flickr.test.echo", api_key="mine")  # set by the library
    with pytest.raises(flickr.FlickrError):
        api.set_option("timeout_ms", 2 ** 70)
    with pytest.raises(flickr.FlickrError):
        api.set_option("rest_endpoint", "ftp://example.com/")
    with pytest.raises(flickr.FlickrError):
        flickr.Flickr("", "secret")
    assert api.call("flickr.test.echo", x="fine")["x"]["_text"] == "fine"


# -- interpreter shutdown -------------------------------------------------------------------------


SHUTDOWN_SCRIPT = textwrap.dedent("""
    import sys, threading, flickr
    url, key, secret, token, token_secret, mode = sys.argv[1:7]
    api = flickr.Flickr(key, secret, oauth_token=token, oauth_token_secret=token_secret,
                        rest_endpoint=url + "/services/rest/", upload_endpoint=url + "/services/upload/")
    futures = [api.call_async("flickr.test.echo", sandbox_fault="latency=2000", n=str(i)) for i in range(20)]
    futures += [api.call_async("flickr.test.echo", sandbox_fault="slow=100") for i in range(5)]
    def blocked():
        try:
            api.call("flickr.test.echo", sandbox_fault="latency=3000")
        except Exception:
            pass
    def uploading():
        try:
            api.upload(b"\\xff\\xd8\\xff\\xe0" + b"x" * 5_000_000, progress=lambda s, t: None)
        except BaseException:
            pass
    threading.Thread(target=blocked, daemon=True).start()
    threading.Thread(target=uploading, daemon=True).start()
    import time; time.sleep(0.3)
    print("exiting", flush=True)
    if mode == "exit":
        sys.exit(0)
    if mode == "close":
        api.close()
    # "end": fall off the end with everything in flight (api freed by __del__ at shutdown)
""")


@pytest.mark.parametrize("mode", ["end", "exit", "close"])
def test_interpreter_shutdown_with_requests_in_flight(library_path, sandbox, mode):
    for _ in range(2):
        result = subprocess.run(
            [sys.executable, "-c", SHUTDOWN_SCRIPT, sandbox.url, sandbox.api_key, sandbox.api_secret,
             sandbox.oauth_token, sandbox.oauth_token_secret, mode],
            capture_output=True, text=True, timeout=60,
            env=dict(os.environ, PYTHONPATH=str(PACKAGE_DIR), FLICKR_LIBRARY=str(library_path)))
        assert "exiting" in result.stdout
        assert result.returncode == 0, result.stderr
        assert "Fatal Python error" not in result.stderr
        assert "Exception ignored" not in result.stderr, result.stderr


EXIT_DURING_CALLBACKS = textwrap.dedent("""
    import sys, threading, flickr
    url, key, secret = sys.argv[1:4]
    api = flickr.Flickr(key, secret, base_url=url)
    import logging
    logging.getLogger("flickr").addHandler(logging.NullHandler())
    logging.getLogger("flickr").setLevel(logging.DEBUG)
    # A daemon thread blocked in a call whose interrupt callback the library asks every 100 ms, a
    # stream upload whose read callback is asked as the body goes, and done callbacks to come: the
    # interpreter exits under all of them (the ctypes thunks go away as it does).
    def blocked():
        api.call("flickr.test.echo", sandbox_fault="latency=5000")
    def chunks():
        class Slow:
            def read(self, n):
                import time; time.sleep(0.05); return b"x" * min(n, 1000)
        api.upload(Slow(), length=10_000_000, filename="a.jpg")
    for target in (blocked, blocked, chunks):
        threading.Thread(target=target, daemon=True).start()
    for i in range(10):
        api.call_async("flickr.test.echo", sandbox_fault="latency=300", n=str(i))
    import time; time.sleep(0.25)
    print("exiting", flush=True)
""")


def test_exit_while_the_library_is_about_to_call_back(library_path, sandbox):
    """At exit the binding shuts the library's callbacks down (flickr_shutdown_callbacks) while
    Python is whole: a callback after the interpreter freed its trampolines crashed the process
    (SIGSEGV in about one run in ten under load, before)."""
    for _ in range(6):
        result = subprocess.run(
            [sys.executable, "-c", EXIT_DURING_CALLBACKS, sandbox.url, sandbox.api_key, sandbox.api_secret],
            capture_output=True, text=True, timeout=60,
            env=dict(os.environ, PYTHONPATH=str(PACKAGE_DIR), FLICKR_LIBRARY=str(library_path)))
        assert "exiting" in result.stdout, result.stderr
        assert result.returncode == 0, (result.returncode, result.stderr)
        assert "Fatal Python error" not in result.stderr


# -- hostile servers ------------------------------------------------------------------------------


class HostileServer:
    """A tiny HTTP(S) server on 127.0.0.1 answering each path with a canned response,
    and recording the paths it was asked for."""

    def __init__(self, routes: dict, tls: tuple | None = None):
        self.requests: list[str] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self):
                path = self.path.split("?", 1)[0]
                server.requests.append(path)
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                status, headers, body = routes.get(path, (404, {}, b"not here"))
                if callable(body):
                    body = body(server)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value(server) if callable(value) else value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _answer

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.scheme = "http"
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(tls[0], tls[1])
            self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
            self.scheme = "https"
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "", host: str = "127.0.0.1") -> str:
        return f"{self.scheme}://{host}:{self.port}{path}"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


OK_BODY = b'<?xml version="1.0"?><rsp stat="ok"><hello who="hostile"/></rsp>'


@pytest.fixture
def bystander():
    """A server that must never be asked anything."""
    server = HostileServer({"/services/rest/": (200, {"Content-Type": "text/xml"}, OK_BODY)})
    yield server
    server.close()


def hostile_api(server, path, **options) -> flickr.Flickr:
    return flickr.Flickr("key", "secret", rest_endpoint=server.url(path), **no_retries(), **options)


def test_redirects_to_another_host_are_refused(library_path, bystander):
    routes = {
        "/other-host": (302, {"Location": bystander.url("/services/rest/")}, b""),
        "/other-name": (307, {"Location": bystander.url("/services/rest/", host="localhost")}, b""),
        "/same": (302, {"Location": "/ok"}, b""),
        "/ok": (200, {"Content-Type": "text/xml"}, OK_BODY),
        "/loop": (302, {"Location": "/loop"}, b""),
        "/scheme": (301, {"Location": "file:///etc/passwd"}, b""),
    }
    server = HostileServer(routes)
    try:
        for path in ("/other-host", "/other-name", "/scheme"):
            with hostile_api(server, path) as api, pytest.raises(flickr.FlickrError) as caught:
                api.call("flickr.test.echo")
            assert "redirect" in str(caught.value)
        with hostile_api(server, "/loop") as api, pytest.raises(flickr.FlickrError, match="redirect"):
            api.call("flickr.test.echo")
        # Same-origin redirects are followed (the control).
        with hostile_api(server, "/same") as api:
            assert api.call("flickr.test.echo")["hello"]["who"] == "hostile"
            assert api.post("flickr.test.echo")["hello"]["who"] == "hostile"
    finally:
        server.close()
    assert bystander.requests == []  # never contacted


def test_redirects_from_https_to_http_are_refused(library_path, tmp_path, bystander):
    from flickr_sandbox import tls
    ca, cert, key = tls.generate(str(tmp_path), "127.0.0.1")
    routes = {
        "/down": (302, {"Location": lambda s: f"http://127.0.0.1:{s.port}/ok"}, b""),
        "/away": (302, {"Location": bystander.url("/services/rest/")}, b""),
        "/ok": (200, {"Content-Type": "text/xml"}, OK_BODY),
    }
    server = HostileServer(routes, tls=(cert, key))
    try:
        with hostile_api(server, "/ok", ca_file=ca) as api:  # the control: https works with the CA
            assert api.call("flickr.test.echo")["hello"]["who"] == "hostile"
        with hostile_api(server, "/down", ca_file=ca) as api, pytest.raises(flickr.FlickrError, match="redirect"):
            api.call("flickr.test.echo")
        with hostile_api(server, "/away", ca_file=ca) as api, pytest.raises(flickr.FlickrError, match="redirect"):
            api.call("flickr.test.echo")
        # Without the CA the server's certificate is refused: verification is on by default.
        with hostile_api(server, "/ok") as api, pytest.raises(flickr.TLSError):
            api.call("flickr.test.echo")
        assert server.requests.count("/ok") == 1
    finally:
        server.close()
    assert bystander.requests == []


def _laughs() -> bytes:
    entities = '<!ENTITY l0 "lol">' + "".join(
        f'<!ENTITY l{i} "{("&l%d;" % (i - 1)) * 10}">' for i in range(1, 10))
    return f'<?xml version="1.0"?><!DOCTYPE rsp [{entities}]><rsp stat="ok">&l9;</rsp>'.encode()


def test_hostile_xml_bodies_are_refused(library_path, tmp_path, bystander):
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text("DISK-CONTENT")
    deep = b"<rsp stat='ok'>" + b"<a>" * 5000 + b"</a>" * 5000 + b"</rsp>"
    bodies = {
        "/dtd": b'<!DOCTYPE rsp><rsp stat="ok"/>',
        "/file-entity": f'<!DOCTYPE rsp [<!ENTITY x SYSTEM "file://{secret_file}">]><rsp stat="ok">&x;</rsp>'.encode(),
        "/net-entity": (f'<!DOCTYPE rsp [<!ENTITY x SYSTEM "{bystander.url("/services/rest/")}">]>'
                        '<rsp stat="ok">&x;</rsp>').encode(),
        "/external-dtd": f'<!DOCTYPE rsp SYSTEM "{bystander.url("/services/rest/")}"><rsp stat="ok"/>'.encode(),
        "/laughs": _laughs(),
        "/deep": deep,
        "/binary": bytes(range(256)) * 10,
    }
    server = HostileServer({path: (200, {"Content-Type": "text/xml"}, body) for path, body in bodies.items()})
    try:
        for path in bodies:
            with hostile_api(server, path) as api, pytest.raises(flickr.ParseError) as caught:
                api.call("flickr.test.echo")
            assert "DISK-CONTENT" not in str(caught.value)
    finally:
        server.close()
    assert bystander.requests == []
