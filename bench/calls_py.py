#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Python drivers for workloads 2-4 (libflickr's binding and python-flickrapi); prints one JSON line.

    calls_py.py libflickr seq N | discard N | async N INFLIGHT | upload PATH 0|1 | check | count
    calls_py.py libflickr body SHAPE MB | dicts SHAPE MB
    calls_py.py flickrapi seq N | upload PATH | check

``count`` (workload 8): the number of items in the user's photostream, private ones included.
``body`` (workload 6): one ``call`` of benchserver's MB MiB answer of SHAPE to a dict, with the body's
size and the process's peak RSS. ``dicts``: the baseline of that call, what Python's own objects
for the same answer cost: the dict of one ``call`` rendered as JSON, then the peak tracemalloc
counts while ``json.loads`` builds the same dicts from it (the call's memory is freed first).

Environment as bench/calls_flickr.c (BENCH_URL, BENCH_KEY, BENCH_SECRET, BENCH_TOKEN,
BENCH_TOKEN_SECRET; BENCH_KEEP_BODY, when set, is the client's ``keep_body``). CPU is the whole
process's, around the measured loop only.
python-flickrapi always POSTs and parses answers with ElementTree (format='etree').
"""
import json
import os
import resource
import sys
import time


def env(name):
    return os.environ[name]


def usage():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime, r.ru_stime, r.ru_maxrss


def libflickr_client():
    import flickr
    base = env("BENCH_URL")
    return flickr.Flickr(env("BENCH_KEY"), env("BENCH_SECRET"), rest_endpoint=base + "/services/rest/",
                         upload_endpoint=base + "/services/upload/", oauth_token=env("BENCH_TOKEN"),
                         oauth_token_secret=env("BENCH_TOKEN_SECRET"), timeout_ms=60000)


def flickrapi_client():
    import flickrapi
    from flickrapi import auth, core
    base = env("BENCH_URL") + "/services"
    core.FlickrAPI.REST_URL = base + "/rest/"
    core.FlickrAPI.UPLOAD_URL = base + "/upload/"
    core.FlickrAPI.REPLACE_URL = base + "/replace/"
    token = auth.FlickrAccessToken(env("BENCH_TOKEN"), env("BENCH_TOKEN_SECRET"), "delete")
    return flickrapi.FlickrAPI(env("BENCH_KEY"), env("BENCH_SECRET"), token=token, store_token=False,
                               format="etree")


def main():
    lib, mode, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    api = libflickr_client() if lib == "libflickr" else flickrapi_client()
    out = {}
    if mode == "check":
        if lib == "libflickr":
            out["user"] = api.call("flickr.test.login")["user"]["id"]
        else:
            out["user"] = api.test.login().find("user").get("id")
    elif mode == "count" and lib == "libflickr":
        out["photos"] = int(api.call("flickr.people.getPhotos", user_id="me", per_page=1)["photos"]["total"])
    elif mode in ("seq", "discard"):
        n = int(args[0])
        if lib != "libflickr":
            call = lambda: api.test.echo(test="bench")  # noqa: E731
        elif mode == "discard":
            call = lambda: api.call_discard("flickr.test.echo", test="bench")  # noqa: E731
        else:
            call = lambda: api.call("flickr.test.echo", test="bench")  # noqa: E731
        t0 = time.perf_counter()
        u0, s0, _ = usage()
        for _ in range(n):
            call()
        u1, s1, _ = usage()
        out = {"calls": n, "wall_s": time.perf_counter() - t0, "user_s": u1 - u0, "sys_s": s1 - s0}
    elif mode == "async" and lib == "libflickr":
        import threading
        n, k = int(args[0]), int(args[1])
        slots = threading.Semaphore(k)
        failures = [0]

        def done(future):
            if future.exception() is not None:
                failures[0] += 1
            slots.release()

        t0 = time.perf_counter()
        u0, s0, _ = usage()
        for _ in range(n):
            slots.acquire()
            api.call_async("flickr.test.echo", test="bench").add_done_callback(done)
        for _ in range(k):
            slots.acquire()
        u1, s1, _ = usage()
        out = {"calls": n, "inflight": k, "failures": failures[0], "wall_s": time.perf_counter() - t0,
               "user_s": u1 - u0, "sys_s": s1 - s0}
    elif mode == "upload":
        path = args[0]
        progress_calls = [0]

        def progress(sent, total):
            progress_calls[0] += 1

        t0 = time.perf_counter()
        u0, s0, _ = usage()
        if lib == "libflickr":
            answer = api.upload(path, progress if args[1:] == ["1"] else None, title="bench", is_public=0)
            photo_id = answer["photoid"]["_text"]
        else:
            photo_id = api.upload(path, title="bench", is_public=0).find("photoid").text
        u1, s1, rss = usage()
        out = {"photo_id": photo_id, "wall_s": time.perf_counter() - t0, "user_s": u1 - u0, "sys_s": s1 - s0,
               "maxrss_kb": rss, "progress_calls": progress_calls[0]}
    elif mode in ("body", "dicts") and lib == "libflickr":
        api.set_option("max_response_bytes", 128 << 20)
        if "BENCH_KEEP_BODY" in os.environ:
            api.set_option("keep_body", int(os.environ["BENCH_KEEP_BODY"]))
        api.call("flickr.test.echo", test="bench")  # everything loaded: the idle process's RSS
        idle = usage()[2]
        answer = api.call("flickr.bench.body", shape=args[0], mb=args[1])
        out = {"body_bytes": int(args[1]) << 20, "idle_rss_kb": idle, "maxrss_kb": usage()[2]}
        if mode == "dicts":
            import tracemalloc
            text = json.dumps(answer, separators=(",", ":"))
            del answer
            tracemalloc.start()
            rebuilt = json.loads(text)
            out["dicts_bytes"] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            del rebuilt
    else:
        raise SystemExit("bad arguments")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
