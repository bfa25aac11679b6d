#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A harvest's API calls per 1,000 items against the minimum (2 at Flickr's 500 a page), one JSON
line per case, against a sandbox seeded with N items (--seed-photos) capping searches at 4,000.

    FLICKR_LIBRARY=build/libflickr.so.0 PYTHONPATH=bindings/python:apps:sandbox \\
        python3 bench/harvest.py [N ...]           (default 10000 25000 100000)

Cases: the whole account (upload dates), the same by taken dates, and 4 shards (calls summed).
Timings are never test assertions (bindings/python/tests/test_harvest.py checks the behaviour).
"""
import json
import math
import sys
import time

import flickr
from flickr_sandbox import SandboxProcess


def case(api, name, items, **kwargs):
    start = time.perf_counter()
    calls = found = 0
    for k, n in kwargs.pop("shards", [(1, 1)]):
        harvest = api.harvest("flickr.photos.search", user_id="me", shard=(k, n), **kwargs)
        found += sum(1 for _ in harvest)
        calls += harvest.report.calls
    return {"case": name, "items": found, "expected": items, "calls": calls,
            "calls_per_1000": round(1000 * calls / max(found, 1), 2),
            "minimum_per_1000": round(1000 * math.ceil(items / 500) / items, 2),
            "seconds": round(time.perf_counter() - start, 2)}


def main():
    for count in [int(a) for a in sys.argv[1:]] or [10_000, 25_000, 100_000]:
        with SandboxProcess("--seed-photos", str(count)) as sandbox:
            s = sandbox.settings
            with flickr.Flickr(s.api_key, s.api_secret, base_url=sandbox.url, oauth_token=s.oauth_token,
                               oauth_token_secret=s.oauth_token_secret) as api:
                items = count + 100  # the sandbox user's own 100 default photos
                for result in (case(api, "upload dates", items), case(api, "taken dates", items, dates="taken"),
                               case(api, "4 shards", items, shards=[(k, 4) for k in range(1, 5)])):
                    print(json.dumps(dict(result, seeded=count)), flush=True)


if __name__ == "__main__":
    main()
