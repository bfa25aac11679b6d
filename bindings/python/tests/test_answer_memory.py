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

from libtest import PYTHONPATH, answering

BODY_MIB = 16

CHILD = r"""
import json, sys, tracemalloc
import flickr

def kib(field):
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field + ":"))

api = flickr.Flickr("key", "secret", rest_endpoint=sys.argv[1], max_response_bytes=64 << 20)
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


def test_a_large_answer_costs_its_dicts_and_at_most_twice_the_body():
    line = b"the quick brown fox jumps over the lazy dog 0123456789\n"
    text = line * (BODY_MIB * 1024 * 1024 // len(line))
    body = b'<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="ok">\n<text>' + text + b"</text>\n</rsp>\n"
    with answering(body) as url:
        done = subprocess.run([sys.executable, "-c", CHILD, url + "/services/rest/"], capture_output=True, text=True,
                              timeout=120, env=dict(os.environ, PYTHONPATH=PYTHONPATH))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["text_bytes"] == len(text)
    added = result["added_kib"] * 1024
    print(f"body {len(body):,} bytes; peak RSS +{added / len(body):.2f}x the body; "
          f"dicts {result['dicts_bytes'] / len(body):.2f}x")
    # The first call's own warm-up (libcurl, OpenSSL, the parser's tables) is a few MiB.
    assert added <= result["dicts_bytes"] + 2 * len(body) + (8 << 20)
