# SPDX-License-Identifier: MIT
"""The memory `Flickr.call` costs on a large answer (issue 34): at most what its dicts cost plus
twice the body. The call runs in a fresh process (its own peak RSS, reset by clear_refs once the
client is made); the answer, 16 MiB of one element's text, comes from this test's server.

Before Change 21 (bench/NOTES.md) the peak was the dicts plus 4.2x the body: the response (body
kept twice, the text in the tree) was alive while Python copied the rendered JSON and built the
dicts."""
import json
import os
import subprocess
import sys

import pytest

from libtest import PYTHONPATH, answering

BODY_MIB = 16

CHILD = r"""
import json, sys, tracemalloc
import flickr

def kib(field):
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field + ":"))

api = flickr.Flickr("key", "secret", rest_endpoint=sys.argv[1], max_response_bytes=64 << 20,
                    keep_body=int(sys.argv[2]))
with open("/proc/self/clear_refs", "w") as clear:
    clear.write("5")  # VmHWM = VmRSS from here
base = kib("VmRSS")
answer = api.call("flickr.test.echo")
peak = kib("VmHWM")
text = json.dumps(answer, separators=(",", ":"))
del answer
tracemalloc.start()
rebuilt = json.loads(text)
dicts = tracemalloc.get_traced_memory()[1]
print(json.dumps({"added_kib": peak - base, "dicts_bytes": dicts, "text_bytes": len(rebuilt["text"]["_text"])}))
"""


def _measure(keep_body: int) -> tuple[int, int, int]:
    """(body bytes, peak RSS added by the call, the dicts' own bytes)."""
    line = b"the quick brown fox jumps over the lazy dog 0123456789\n"
    text = line * (BODY_MIB * 1024 * 1024 // len(line))
    body = b'<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="ok">\n<text>' + text + b"</text>\n</rsp>\n"
    with answering(body) as url:
        done = subprocess.run([sys.executable, "-c", CHILD, url + "/services/rest/", str(keep_body)],
                              capture_output=True, text=True, timeout=120, env=dict(os.environ, PYTHONPATH=PYTHONPATH))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["text_bytes"] == len(text)
    added = result["added_kib"] * 1024
    print(f"keep_body={keep_body}: body {len(body):,} bytes; peak RSS +{added / len(body):.2f}x the body; "
          f"dicts {result['dicts_bytes'] / len(body):.2f}x")
    return len(body), added, result["dicts_bytes"]


def test_a_large_answer_costs_its_dicts_and_at_most_twice_the_body():
    body, added, dicts = _measure(1)
    # The first call's own warm-up (libcurl, OpenSSL, the parser's tables) is a few MiB.
    assert added <= dicts + 2 * body + (8 << 20)


def test_without_its_body_an_answer_costs_one_body_less():
    body, added, dicts = _measure(0)
    assert added <= dicts + body + (8 << 20)


def test_call_xml_refuses_a_client_that_keeps_no_body():
    import asyncio

    import flickr

    with answering(b'<rsp stat="ok"><method>flickr.test.echo</method></rsp>') as url:
        with flickr.Flickr("key", "secret", base_url=url, keep_body=False) as api:
            assert api.get_option("keep_body") == 0
            assert api.call("flickr.test.echo")["method"]["_text"] == "flickr.test.echo"
            with pytest.raises(flickr.InvalidArgument, match="keep_body=False"):
                api.call_xml("flickr.test.echo")
            api.set_option("keep_body", True)
            assert "<method>flickr.test.echo</method>" in api.call_xml("flickr.test.echo")

        async def refused() -> None:
            async with flickr.AsyncFlickr("key", "secret", base_url=url, keep_body=0) as api:
                with pytest.raises(flickr.InvalidArgument, match="keep_body=False"):
                    await api.call_xml("flickr.test.echo")

        asyncio.run(refused())


def test_a_client_without_bodies_still_reports_failures_whole():
    """The first 512 bytes are gathered for a failure's message, and an error envelope is mapped
    as it arrives: keep_body=False changes no failure."""
    import http.server
    import threading

    import flickr

    padding = "<p>" + "x" * 2000 + "</p>"
    answers = {
        "/fail": (200, '<rsp stat="fail"><err code="1" msg="Photo not found" />' + padding + "</rsp>"),
        "/html": (503, "<html><body><h1>Service busy, come back later</h1>" + padding + "</body></html>"),
        "/oauth": (401, "oauth_problem=signature_invalid&debug=" + "y" * 2000),
        "/junk": (200, "not xml at all " + "z" * 2000),
    }

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status, text = answers[self.path.split("?")[0].rstrip("/").rsplit("/", 1)[0] or "/"]
            data = text.encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    seen = 0
    try:
        for keep_body in (1, 0):
            messages = {}
            for path, kind in (("/fail", flickr.APIError), ("/html", flickr.HTTPError),
                               ("/oauth", flickr.FlickrError), ("/junk", flickr.FlickrError)):
                endpoint = f"http://127.0.0.1:{server.server_address[1]}{path}/rest"
                with flickr.Flickr("key", "secret", rest_endpoint=endpoint, keep_body=keep_body,
                                   max_retries=0) as api:
                    with pytest.raises(kind) as caught:
                        api.call("flickr.photos.getInfo", photo_id="1")
                messages[path] = (type(caught.value), str(caught.value), caught.value.api_code)
                seen += 1
            assert messages["/fail"][2] == 1 and "Photo not found" in messages["/fail"][1]
            assert "Service busy" in messages["/html"][1]
            assert "signature_invalid" in messages["/oauth"][1]
            if keep_body:
                kept = messages
            else:
                assert messages == kept
    finally:
        server.shutdown()
        server.server_close()
    print(f"{seen} failures, the same with and without bodies")
