#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The sandbox's --seed-photos contract, measured: seed time, first requests, memory; one JSON line.

    PYTHONPATH=sandbox python3 bench/seed_photos.py [N]      (default 20000)

Each of its numbers is of a fresh in-process sandbox in a temporary data directory: the time to
start it with N seeded items (items per second), the peak resident memory then, and the first and
second request over HTTP of the original, Large 2048 and Large (1024) of the newest large seeded
photo whose sizes the free account's rule leaves downloadable (a 6000x4000 Creative Commons one).
Timings are never test assertions (sandbox/tests/test_seed_photos.py checks the behaviour).
"""
import json
import resource
import sys
import time
import urllib.request

from flickr_sandbox import Sandbox
from flickr_sandbox.methods.photolist import size_url
from flickr_sandbox.seed_photos import FIRST_ID


def fetch_ms(url):
    start = time.perf_counter()
    with urllib.request.urlopen(url) as reply:
        body = reply.read()
    return round((time.perf_counter() - start) * 1000, 1), len(body)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    start = time.perf_counter()
    sandbox = Sandbox(seed_photos=count).start()
    seconds = time.perf_counter() - start
    result = {"items": count, "seed_s": round(seconds, 2), "items_per_s": round(count / seconds),
              "maxrss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}
    try:
        photo = sandbox.store.one("SELECT * FROM photos WHERE id >= ? AND media = 'photo' AND license != 0"
                                  " AND ispublic = 1 AND width = 6000 ORDER BY id DESC LIMIT 1", (FIRST_ID,))
        for suffix in ("o", "k", "b"):
            first, size = fetch_ms(size_url(sandbox.url, photo, suffix))
            again, _ = fetch_ms(size_url(sandbox.url, photo, suffix))
            result[f"{suffix}_first_ms"], result[f"{suffix}_again_ms"], result[f"{suffix}_bytes"] = first, again, size
    finally:
        sandbox.stop()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
