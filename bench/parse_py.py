#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Workload 1 (Python side): parses one buffer repeatedly and prints one JSON line.

    parse_py.py MODE FILE SECONDS PHOTOS

MODE: etree      xml.etree.ElementTree.fromstring (what python-flickrapi's format='etree' does)
      xmltodict  xmltodict.parse (what many Python users do for dicts)
      libflickr  our binding end to end: flickr_response_parse, then the tree to dicts
                 (the same path Flickr.call takes after the HTTP exchange)
      libflickr-json  the same with the tree read through JSON (the binding's fallback, and
                 its only path before bench/NOTES.md Change 20)
      handover, handover-json  only the tree to dicts (marshal's format where the binding takes
                 it, or JSON), of a tree parsed once before timing
With BENCH_ALLOC=1 (run under LD_PRELOAD=libbenchalloc.so PYTHONMALLOC=malloc) it
counts the allocation calls of one iteration instead of timing.
"""
import ctypes
import json
import os
import sys
import time


def parser(mode):
    if mode == "etree":
        import xml.etree.ElementTree as ET
        return ET.fromstring
    if mode == "xmltodict":
        import xmltodict
        return xmltodict.parse
    if mode == "libflickr":
        # What Flickr.call does with an answer: the library maps it, Python reads the tree as dicts
        # (the binding's private layers, as there is no public parse of a buffer).
        from flickr import _ffi, _response
        lib = _ffi.lib()

        def parse(data):
            with _ffi.Response() as response:
                lib.flickr_response_parse(response.out, data, len(data))
                return _response.as_dict(response)
        return parse
    if mode == "libflickr-json":
        from flickr import _ffi, _response
        lib = _ffi.lib()

        def parse_json(data):
            with _ffi.Response() as response:
                lib.flickr_response_parse(response.out, data, len(data))
                return _response._from_json(lib.flickr_response_json(response))
        return parse_json
    if mode in ("handover", "handover-json"):
        from flickr import _ffi, _response
        lib = _ffi.lib()
        parsed = {}

        def handover(data):
            if data not in parsed:  # the one parse, kept alive for the run
                response = _ffi.Response()
                lib.flickr_response_parse(response.out, data, len(data))
                parsed[data] = response
            if mode == "handover":
                return _response.as_dict(parsed[data])
            return _response._from_json(lib.flickr_response_json(parsed[data]))
        return handover
    raise SystemExit(f"unknown mode {mode}")


def main():
    mode, path, seconds, photos = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    data = open(path, "rb").read()
    fn = parser(mode)
    for _ in range(3):
        fn(data)
    if os.environ.get("BENCH_ITERATIONS"):  # a fixed count, for callgrind's instruction counts
        for _ in range(int(os.environ["BENCH_ITERATIONS"])):
            fn(data)
        print(json.dumps({"mode": mode, "iterations": int(os.environ["BENCH_ITERATIONS"])}))
        return
    if os.environ.get("BENCH_ALLOC") == "1":
        counter = ctypes.CDLL(None)
        counter.bench_alloc_count.restype = ctypes.c_ulonglong
        counter.bench_alloc_reset()
        result = fn(data)
        allocs = counter.bench_alloc_count()
        del result
        print(json.dumps({"mode": mode, "allocs": allocs, "allocs_per_photo": allocs / photos}))
        return
    times = []
    start = time.perf_counter()
    while len(times) < 5 or time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        fn(data)
        times.append(time.perf_counter() - t0)
    times.sort()
    median = times[len(times) // 2]
    print(json.dumps({"mode": mode, "bytes": len(data), "iterations": len(times), "median_s": median,
                      "min_s": times[0], "mb_per_s": len(data) / median / 1e6}))


if __name__ == "__main__":
    main()
