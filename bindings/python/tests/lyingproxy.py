# SPDX-License-Identifier: MIT
"""A lying Flickr on 127.0.0.1: a proxy in front of a sandbox that rewrites its answers and counts
the calls it was asked. `rewriting` hands every answer to the test (the backup's odd values, a
video still processing); `lying` rewrites one method's pages (issue 40's listings that repeat
page 1 with pages=10^12, lose page 2, or say total=10^12) and, past `limit` calls of it, answers a
Flickr error, so a client that would loop for ever (today's main) stops and the test fails on its
count. The one proxy of the tests: the backup's and the harvest's lies go through it."""
import contextlib
import http.client
import http.server
import re
import threading
import urllib.parse
from collections import Counter
from typing import Callable, ContextManager, Dict, Iterator

from libtest import serving

#: rewrite(page, body) -> body: the method's real answer for `page`, as the proxy sends it on.
Rewrite = Callable[[int, bytes], bytes]
#: rewrite(method, params, body) -> body: any answer ("" for a request that names no method), as sent on.
RewriteAny = Callable[[str, Dict[str, str], bytes], bytes]


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
    """A running proxy: its `url`, and `calls` (method -> how many were asked)."""

    def __init__(self, upstream: str, rewrite: RewriteAny, method: str, limit: int) -> None:
        self.upstream = urllib.parse.urlsplit(upstream)
        self.rewrite, self.method, self.limit = rewrite, method, limit
        self.calls: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.url = ""

    def over_limit(self, name: str) -> bool:
        """Counts a call of `name`: whether it is one of `method` past `limit` (0: no limit)."""
        with self.lock:
            self.calls[name] += 1
            return bool(self.limit) and name == self.method and self.calls[name] > self.limit


LIMIT_ANSWER = b'<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="fail"><err code="105" msg="lying proxy: call limit"/></rsp>'
# Set by the proxy from the data it sends, or meaningless once it has rewritten the body.
HOP_HEADERS = ("content-length", "transfer-encoding", "connection", "content-encoding")


@contextlib.contextmanager
def rewriting(upstream: str, rewrite: RewriteAny, *, method: str = "", limit: int = 0) -> Iterator[Proxy]:
    """A proxy (its `.url`) to `upstream` (a sandbox's URL) that hands each 200 answer to
    rewrite(method, params, body) on its way back; past `limit` calls of `method` it answers a
    Flickr error instead of asking upstream."""
    proxy = Proxy(upstream, rewrite, method, limit)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _forward(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            fields = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query))
            if self.command == "POST" and "form-urlencoded" in self.headers.get("Content-Type", ""):
                fields.update(urllib.parse.parse_qsl(body.decode("latin-1")))
            name = fields.get("method", "")
            if proxy.over_limit(name):
                return self._send(200, LIMIT_ANSWER, [("Content-Type", "text/xml")])
            connection = http.client.HTTPConnection(proxy.upstream.hostname or "127.0.0.1", proxy.upstream.port, timeout=60)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "accept-encoding")}
            try:
                connection.request(self.command, self.path, body=body or None, headers=headers)  # Host kept: OAuth
                response = connection.getresponse()
                data = response.read()
            finally:
                connection.close()
            if response.status == 200:
                data = proxy.rewrite(name, fields, data)
            self._send(response.status, data, response.getheaders())

        def _send(self, status: int, data: bytes, headers: list[tuple[str, str]]) -> None:
            self.send_response(status)
            for key, value in headers:
                if key.lower() not in HOP_HEADERS:
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _forward

        def log_message(self, *args: object) -> None:
            pass

    with serving(Handler) as url:
        proxy.url = url
        yield proxy


def lying(upstream: str, method: str, rewrite: Rewrite, *, limit: int = 200) -> ContextManager[Proxy]:
    """A proxy (its `.url`) to `upstream` rewriting `method`'s answers, page by page."""
    def one_method(name: str, fields: Dict[str, str], body: bytes) -> bytes:
        return rewrite(int(fields.get("page", "1") or 1), body) if name == method else body
    return rewriting(upstream, one_method, method=method, limit=limit)
