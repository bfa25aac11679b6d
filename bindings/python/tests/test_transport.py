# SPDX-License-Identifier: MIT
"""Transport behaviour seen from a recording HTTP server: User-Agent, proxies,
redirects, kept-alive connections."""
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import flickr
from libtest import PACKAGE_DIR

OK = b'<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="ok">\n<seen path="%s" />\n</rsp>'


class Recorder(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        self.requests = []  # (request line path, headers, client port)
        super().__init__(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.server.requests.append((self.path, dict(self.headers), self.client_address[1]))
        route = self.path.split("?")[0]
        if route.endswith("/moved/"):
            self.answer(302, b"", [("Location", "/services/rest/?redirected=1")])
        elif route.endswith("/away/"):
            self.answer(302, b"", [("Location", "http://127.0.0.2:9/services/rest/")])
        else:
            self.answer(200, OK % route.encode())

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "text/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def recorder():
    server = Recorder()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_user_agent(library_path, recorder):
    with flickr.Flickr("key", "secret", rest_endpoint=recorder.url + "/services/rest/") as api:
        api.call("flickr.test.echo")
        api.set_option("user_agent", "MyApp/2.0 (contact@example.com)")
        api.call("flickr.test.echo")
    agents = [headers.get("User-Agent") for _, headers, _ in recorder.requests]
    assert agents == [f"libflickr/{flickr.__version__}", "MyApp/2.0 (contact@example.com)"]


def test_connections_are_kept_alive(library_path, recorder):
    with flickr.Flickr("key", "secret", rest_endpoint=recorder.url + "/services/rest/") as api:
        for i in range(10):
            api.call("flickr.test.echo", n=i)
        futures = [api.call_async("flickr.test.echo", n=i) for i in range(3)]
        for f in futures:
            f.result(timeout=10)
        for i in range(5):
            api.call("flickr.test.echo", n=i)
    ports = [port for _, _, port in recorder.requests]
    assert len(ports) == 18
    assert len(set(ports[:10])) == 1  # ten sequential calls, one connection
    assert len(set(ports)) <= 4  # the pool grew at most by the calls in flight at once


def test_same_origin_redirect_is_followed_and_others_refused(library_path, recorder):
    with flickr.Flickr("key", "secret", rest_endpoint=recorder.url + "/moved/") as api:
        answer = api.call("flickr.test.echo")
        assert answer["seen"]["path"] == "/services/rest/"
        assert recorder.requests[-1][0].startswith("/services/rest/?")
        assert "method=flickr.test.echo" in recorder.requests[-1][0]  # re-built for the new URL
    with flickr.Flickr("key", "secret", rest_endpoint=recorder.url + "/away/", max_retries=0) as api:
        with pytest.raises(flickr.HTTPError, match="redirect"):
            api.call("flickr.test.echo")


def test_proxy_option(library_path, recorder):
    # The recorder acts as an HTTP proxy: requests arrive with the absolute URL.
    with flickr.Flickr("key", "secret", rest_endpoint="http://flickr.example.invalid/services/rest/",
                       proxy=recorder.url) as api:
        assert api.call("flickr.test.echo")["stat"] == "ok"
    assert recorder.requests[-1][0].startswith("http://flickr.example.invalid/services/rest/?")


PROBE = """
import flickr
api = flickr.Flickr("key", "secret", rest_endpoint="http://flickr.example.invalid/services/rest/", max_retries=0)
if {disable!r}:
    api.set_option("proxy", "")
try:
    print(api.call("flickr.test.echo")["stat"])
except flickr.NetworkError:
    print("no proxy")
"""


@pytest.mark.parametrize("disable", [False, True])
def test_proxy_environment_variable(library_path, recorder, disable):
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_DIR), http_proxy=recorder.url)
    env.pop("no_proxy", None)
    env.pop("NO_PROXY", None)
    result = subprocess.run([sys.executable, "-c", PROBE.format(disable=disable)], env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ("no proxy" if disable else "ok")
