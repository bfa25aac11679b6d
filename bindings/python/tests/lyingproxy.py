# SPDX-License-Identifier: MIT
"""A lying Flickr on 127.0.0.1: a proxy in front of a sandbox that rewrites one method's answers
(issue 40's listings that repeat page 1 with pages=10^12, lose page 2, or say total=10^12), and
counts the calls it was asked. Past `limit` calls of the method it answers a Flickr error, so a
client that would loop for ever (today's main) stops and the test fails on its count."""
import contextlib
import http.client
import http.server
import re
import threading
import urllib.parse
from collections import Counter
from typing import Callable, Iterator

#: rewrite(page, body) -> body: the method's real answer for `page`, as the proxy sends it on.
Rewrite = Callable[[int, bytes], bytes]


def attributes(body: bytes, element: str, **values: object) -> bytes:
    """`body` (REST XML) with `element`'s attributes set to `values` (page="1" and so on)."""
    def one(match: "re.Match[bytes]") -> bytes:
        tag = match.group(0)
        for name, value in values.items():
            tag = re.sub(rb' %s="[^"]*"' % name.encode(), b' %s="%s"' % (name.encode(), str(value).encode()), tag)
        return tag
    return re.sub(rb"<%s [^>]*>" % element.encode(), one, body, count=1)


def without(body: bytes, item: str, item_id: str = "[^\"]*") -> bytes:
    """`body` with the `item` elements of id `item_id` (a regular expression: every one by default)
    taken out: a page that lost an item, or answers empty."""
    pattern = rb'<%s id="%s"[^>]*?(?:/>|>.*?</%s>)\s*' % (item.encode(), item_id.encode(), item.encode())
    return re.sub(pattern, b"", body, flags=re.DOTALL)


def repeating_page1(**values: object) -> Rewrite:
    """Every page answered by page 1's items, with its attributes set to `values` and `page` to the one
    asked: the listing of issue 40 (pages=10^12, page 1 repeated)."""
    first: list[bytes] = []

    def rewrite(page: int, body: bytes) -> bytes:
        if page == 1 or not first:
            first[:] = [body]
        return attributes(first[0], "photos", page=page, **values)
    return rewrite


class Proxy:
    def __init__(self, upstream: str, method: str, rewrite: Rewrite, limit: int) -> None:
        self.upstream = urllib.parse.urlsplit(upstream)
        self.method, self.rewrite, self.limit = method, rewrite, limit
        self.calls: Counter[str] = Counter()
        self.lock = threading.Lock()


@contextlib.contextmanager
def lying(upstream: str, method: str, rewrite: Rewrite, *, limit: int = 200) -> Iterator[Proxy]:
    """A proxy (its `.url`) to `upstream` rewriting `method`'s answers."""
    proxy = Proxy(upstream, method, rewrite, limit)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _forward(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            split = urllib.parse.urlsplit(self.path)
            fields = dict(urllib.parse.parse_qsl(split.query))
            if self.command == "POST" and "form-urlencoded" in self.headers.get("Content-Type", ""):
                fields.update(urllib.parse.parse_qsl(body.decode("latin-1")))
            name = fields.get("method", "")
            with proxy.lock:
                proxy.calls[name] += 1
                over = name == proxy.method and proxy.calls[name] > proxy.limit
            if over:
                answer = b'<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="fail"><err code="105" msg="lying proxy: call limit"/></rsp>'
                return self._send(200, answer, "text/xml")
            connection = http.client.HTTPConnection(proxy.upstream.hostname, proxy.upstream.port, timeout=60)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "accept-encoding")}
            connection.request(self.command, self.path, body=body or None, headers=headers)
            response = connection.getresponse()
            data = response.read()
            kind = response.getheader("Content-Type", "text/xml")
            connection.close()
            if name == proxy.method and response.status == 200:
                data = proxy.rewrite(int(fields.get("page", "1") or 1), data)
            self._send(response.status, data, kind)

        def _send(self, status: int, data: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _forward

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    proxy.url = f"http://127.0.0.1:{server.server_address[1]}"  # type: ignore[attr-defined]
    try:
        yield proxy
    finally:
        server.shutdown()
        server.server_close()
