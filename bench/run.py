#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs libflickr's benchmarks against its peers and physical limits, and writes bench/RESULTS.md.

    bench/run.sh [--quick] [--runs N] [--workloads 1,2,3,4,5,6,7,8] [--output PATH]
                 [--peers-seed-photos N] [--peers-latency-ms L]

bench/run.sh installs what is needed and builds, then runs this script; see
bench/README.md for the workloads, the servers and how each figure is measured.
Timings are reported, never asserted.
"""
from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
BUILD = ROOT / "build-bench"
BIN = BUILD / "bench"
PY = sys.executable
MiB = 1024 * 1024

sys.path.insert(0, str(ROOT / "sandbox"))
sys.path.insert(0, str(ROOT / "sandbox" / "tests"))  # the peers' harness (tests/peers), shared with test_peers.py
from flickr_sandbox import SandboxProcess  # noqa: E402
from peers import invocation as peer_tools  # noqa: E402
from peers.callcount import CallCounter  # noqa: E402
from flickr_sandbox import constants as sandbox_constants  # noqa: E402


def log(*args):
    print("==", *args, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Processes


class Server:
    """A bench server process (bench/server.c) that prints its base URL first.

    The sandbox is a flickr_sandbox.launch.SandboxProcess instead: it hands over its credentials too.
    """

    def __init__(self, argv, env=None, cwd=None):
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                     env=env, cwd=cwd)
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http"):
            raise SystemExit(f"server {argv} did not start")

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=10) as reply:
            return reply.read().decode()

    def stats(self):
        text = self.get("/bench/stats")
        return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", text)}

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def run_json(argv, env, timeout=1800, cwd=None, check=True):
    """Runs a client under bench/rsswrap.c; returns its last JSON line (if any) plus, from the
    wrapper, "rss_kb" (peak RSS), "cpu_s" (user+sys) and "process_wall_s" of the whole process
    (its children's, waited for, included). check=False: a failed client's result too, with its
    exit "status" and its stderr's last line ("error")."""
    argv = [str(BIN / "rsswrap")] + [str(a) for a in argv]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    err = err.decode(errors="replace")
    if proc.returncode != 0 and check:
        raise RuntimeError(f"{' '.join(argv[1:])} failed ({proc.returncode}): {err[-2000:]}")
    lines = [l for l in out.decode().splitlines() if l.startswith("{")]
    result = json.loads(lines[-1]) if lines else {}
    wrap = json.loads(err.rsplit("rsswrap: ", 1)[1])
    result.update(rss_kb=wrap["maxrss_kb"], cpu_s=wrap["cpu_s"], process_wall_s=wrap["wall_s"], status=proc.returncode)
    if proc.returncode != 0:
        result["error"] = next((l.strip() for l in reversed(err.rsplit("rsswrap: ", 1)[0].splitlines()) if l.strip()), "")
    return result


def median(values):
    return statistics.median(values)


# ---------------------------------------------------------------------------------------------
# Formatting


def fmt(x, digits=3):
    if x is None:
        return "—"
    if isinstance(x, str):
        return x
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.{digits}g}" if abs(x) < 1 else f"{x:.2f}"


def table(headers, rows):
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    for row in rows:
        out.append("| " + " | ".join(fmt(c) for c in row) + " |")
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Workloads


def workload_parse(cfg, env):
    """1. Parsing a 500-photo list with all extras."""
    xml = BIN / "photos-500.xml"
    subprocess.run([PY, BENCH / "make_photolist.py", xml, "500"], check=True, stdout=subprocess.DEVNULL)
    seconds = "0.5" if cfg.quick else "2"
    clients = [
        ("expat alone, empty handlers (baseline)", [BIN / "parse_bench", "expat"], "C"),
        ("libflickr (C): flickr_response_parse", [BIN / "parse_bench", "libflickr"], "C"),
        ("libxml2 DOM: xmlReadMemory (flickcurl's parser)", [BIN / "parse_bench", "libxml2"], "C"),
        ("libflickr (Python): parse + tree to dicts", [PY, BENCH / "parse_py.py", "libflickr"], "Py"),
        ("Python ElementTree.fromstring (flickrapi's etree)", [PY, BENCH / "parse_py.py", "etree"], "Py"),
        ("Python xmltodict.parse", [PY, BENCH / "parse_py.py", "xmltodict"], "Py"),
    ]
    results = {name: [] for name, _, _ in clients}
    allocs = {}
    for rep in range(cfg.runs):
        for name, argv, _ in clients:
            results[name].append(run_json(argv + [xml, seconds, "500"], env))
    for name, argv, kind in clients:
        if kind == "C":
            allocs[name] = results[name][0]["allocs_per_photo"]
        else:
            alloc_env = dict(env, LD_PRELOAD=str(BIN / "libbenchalloc.so"), PYTHONMALLOC="malloc", BENCH_ALLOC="1")
            allocs[name] = run_json(argv + [xml, seconds, "500"], alloc_env)["allocs_per_photo"]
    size = xml.stat().st_size
    base = median([r["mb_per_s"] for r in results[clients[0][0]]])
    rows = []
    summary = {}
    for name, _, _ in clients:
        mbs = median([r["mb_per_s"] for r in results[name]])
        ms = median([r["median_s"] for r in results[name]]) * 1e3
        rows.append([name, mbs, mbs / base, ms, allocs[name]])
        summary[name] = mbs / base
    text = (f"Input: {size:,} bytes, 500 `<photo>` elements with every extra (attributes), built by "
            f"`bench/make_photolist.py` from `Tests/Fixtures/xml/flickr.interestingness.getList.xml`. "
            f"Each run parses the whole buffer repeatedly for {seconds} s and keeps the median iteration; "
            f"the table gives the median over {cfg.runs} runs. Allocations: heap allocation calls "
            f"(malloc/calloc/realloc/memalign) of one parse, per photo, counted by `libbenchalloc.so` "
            f"(Python: with `PYTHONMALLOC=malloc` so that every object is counted).\n\n")
    text += table(["Parser", "MB/s", "× expat alone", "ms per parse", "allocations per photo"], rows)
    return text, summary


def _over_idle(runs, body):
    """Median peak over median idle, as a ratio to `body` bytes (as the kept-body columns count it)."""
    return (median([r["maxrss_kb"] for r in runs]) - median([r["idle_rss_kb"] for r in runs])) * 1024 / body


def workload_big_bodies(cfg, env, server):
    """6. Large answers mapped as they stream in: 4 and 32 MiB of three shapes; the CPU per call, and
    the peak RSS of a 32 MiB answer from C and from Python as ratios to the body (issue 34)."""
    calls = "1" if cfg.quick else "3"
    shapes = [("comment", "one 32 MiB comment (the hardening issue's case)"),
              ("text", "one element's text"),
              ("elements", "`<photo>` elements with attributes")]
    rows, memory_rows, lean_rows, summary = [], [], [], {}
    benv = dict(env, BENCH_URL=server.url)
    for shape, what in shapes:
        cpu, rss = {}, {}
        for mb in (4, 32):
            runs = [run_json([BIN / "calls_flickr", "body", shape, str(mb), calls], benv) for _ in range(cfg.runs)]
            cpu[mb] = median([(r["user_s"] + r["sys_s"]) / r["calls"] for r in runs]) * 1e3
            rss[mb] = median([r["maxrss_kb"] for r in runs]) / 1024
            if mb == 32:
                c_idle = median([r["idle_rss_kb"] for r in runs]) / 1024
        ratio = cpu[32] / cpu[4]
        rows.append([f"`{shape}`: {what}", cpu[4], cpu[32], ratio, rss[32]])
        # Python: one Flickr.call to a dict a process; then the baseline, json.loads of the same dicts.
        py = [run_json([PY, BENCH / "calls_py.py", "libflickr", "dicts", shape, "32"], benv) for _ in range(cfg.runs)]
        body = 32 * MiB
        py_idle = median([r["idle_rss_kb"] for r in py]) / 1024
        py_peak = median([r["maxrss_kb"] for r in py]) / 1024
        dicts = median([r["dicts_bytes"] for r in py]) / MiB
        c_ratio, c_over = rss[32] * MiB / body, (rss[32] - c_idle) * MiB / body
        py_over = (py_peak - py_idle) * MiB / body
        py_aim = dicts * MiB / body + 2
        memory_rows.append([f"`{shape}`", rss[32], c_idle, c_ratio, c_over, py_peak, py_idle, dicts,
                            py_over, py_aim])
        # The same with FLICKR_OPT_KEEP_BODY 0 (keep_body=False): what the body itself costs.
        lean = dict(benv, BENCH_KEEP_BODY="0")
        c_lean_over = _over_idle([run_json([BIN / "calls_flickr", "body", shape, "32", calls], lean)
                                  for _ in range(cfg.runs)], body)
        py_lean_over = _over_idle([run_json([PY, BENCH / "calls_py.py", "libflickr", "body", shape, "32"], lean)
                                   for _ in range(cfg.runs)], body)
        lean_rows.append([f"`{shape}`", c_over, c_lean_over, py_over, py_lean_over, py_aim])
        summary[shape] = (ratio, c_ratio, c_over, py_over, py_aim, c_lean_over, py_lean_over)
    text = (f"`flickr_call` of a `benchserver` answer of 4 and 32 MiB (`method=flickr.bench.body`), mapped as it "
            f"streams in (libcurl hands over 16 KiB at a time). CPU per call (user + sys, {calls} calls a run, "
            f"median of {cfg.runs} runs); linear work makes the 32 MiB call cost about 8× the 4 MiB one. "
            f"Peak RSS is the whole process's.\n\n")
    text += table(["Answer shape", "CPU ms, 4 MiB", "CPU ms, 32 MiB", "32 MiB ÷ 4 MiB (linear: 8)",
                   "peak RSS MiB, 32 MiB"], rows)
    text += ("\n\nMemory of a 32 MiB answer (issue 34), medians of the same runs. C: `calls_flickr body` "
             f"({calls} calls a process, the response freed after each); idle = the peak after one echo call, "
             "before them. Python: one `Flickr.call` to a dict a process (`calls_py.py libflickr dicts`); "
             "idle likewise; the dicts' own cost is what `tracemalloc` counts while `json.loads` builds the "
             "same dicts from their JSON (the baseline). Ratios are to the body; \"over idle\" counts what the "
             "answer added (the response: kept body and tree). Aims: C ≤ 3× the body (the comment ≤ 2×); "
             "Python over idle ≤ the dicts + 2× the body.\n\n")
    text += table(["Shape", "C peak MiB", "C idle MiB", "C peak ÷ body", "C over idle ÷ body", "Python peak MiB",
                   "Python idle MiB", "dicts (tracemalloc) MiB", "Python over idle ÷ body",
                   "aim: dicts ÷ body + 2"], memory_rows)
    text += ("\n\nThe same answers from a context that keeps no body (`FLICKR_OPT_KEEP_BODY` 0, Python "
             "`keep_body=False`: the body is not gathered as it arrives, `flickr_response_body` gives \"\"), "
             "peak over idle ÷ body, medians of as many runs; Python with `calls_py.py libflickr body`.\n\n")
    text += table(["Shape", "C, body kept", "C, body not kept", "Python, body kept", "Python, body not kept",
                   "Python aim: dicts ÷ body + 2"], lean_rows)
    return text, summary


def check_clients(sandbox, bins, env):
    """Every client makes one OAuth-signed flickr.test.login against the sandbox, which verifies signatures."""
    senv = dict(env, BENCH_URL=sandbox.url)
    checks = [
        ("libflickr (C)", [bins / "calls_flickr", "check"]),
        ("flickcurl", [bins / "calls_flickcurl", "check"]),
        ("libflickr (Python)", [PY, BENCH / "calls_py.py", "libflickr", "check"]),
        ("python-flickrapi", [PY, BENCH / "calls_py.py", "flickrapi", "check"]),
    ]
    for name, argv in checks:
        result = run_json(argv, senv)
        log(f"signature check against the sandbox: {name}: user {result.get('user')}")
    # The baseline signs the same way; the sandbox answers an unverifiable signature with HTTP 401.
    run_json([bins / "calls_curl", "seq", "3"], senv)
    log("signature check against the sandbox: libcurl+OpenSSL baseline: ok")


def workload_cpu(cfg, env, server):
    """2. Client CPU per signed call."""
    n = 1000 if cfg.quick else 5000
    senv = dict(env, BENCH_URL=server.url)
    clients = [
        ("libcurl + OpenSSL HMAC loop, no parsing (baseline)", [BIN / "calls_curl", "seq", str(n)]),
        ("libflickr (C): flickr_call", [BIN / "calls_flickr", "seq", str(n)]),
        ("libflickr (C): flickr_call_discard", [BIN / "calls_flickr", "discard", str(n)]),
        ("flickcurl 1.26: flickcurl_test_echo", [BIN / "calls_flickcurl", "seq", str(n)]),
        ("libflickr (Python): Flickr.call → dict", [PY, BENCH / "calls_py.py", "libflickr", "seq", str(n)]),
        ("libflickr (Python): Flickr.call_discard", [PY, BENCH / "calls_py.py", "libflickr", "discard", str(n)]),
        ("python-flickrapi 2.4 (etree, POST)", [PY, BENCH / "calls_py.py", "flickrapi", "seq", str(n)]),
    ]
    results = {name: [] for name, _ in clients}
    for rep in range(cfg.runs):
        for name, argv in clients:
            results[name].append(run_json(argv, senv))
    per_call = {name: median([(r["user_s"] + r["sys_s"]) / n * 1e6 for r in results[name]]) for name, _ in clients}
    base = per_call[clients[0][0]]
    rows = []
    for name, _ in clients:
        user = median([r["user_s"] / n * 1e6 for r in results[name]])
        sys_ = median([r["sys_s"] / n * 1e6 for r in results[name]])
        wall = median([r["wall_s"] / n * 1e6 for r in results[name]])
        rows.append([name, per_call[name], per_call[name] / base, user, sys_, wall])
    text = (f"{n:,} sequential OAuth-signed `flickr.test.echo` calls (`test=bench`) over one kept-alive "
            f"connection to `benchserver` (no latency). CPU is the client process's user+sys time "
            f"(every thread, from `getrusage(RUSAGE_SELF)` around the loop; start-up excluded); medians "
            f"over {cfg.runs} runs. flickcurl prints a line to stderr per echo (sent to a pipe here).\n\n")
    text += table(["Client", "CPU µs/call", "× baseline", "user µs", "sys µs", "wall µs/call"], rows)
    return text, {name: per_call[name] / base for name, _ in clients}


def workload_concurrency(cfg, env, server):
    """3. Concurrency with 50 ms server latency."""
    n = 400 if cfg.quick else 2000
    n_seq = 100 if cfg.quick else 400
    senv = dict(env, BENCH_URL=server.url)
    latency = 0.050
    clients = [
        ("libflickr (C) sequential flickr_call", [BIN / "calls_flickr", "seq", str(n_seq)], 1, n_seq),
    ]
    for k in (8, 32, 128):
        clients.append((f"libflickr (C) async, {k} in flight", [BIN / "calls_flickr", "async", str(n), str(k)], k, n))
    for k in (32, 128):
        clients.append((f"libflickr (Python) call_async, {k} in flight",
                        [PY, BENCH / "calls_py.py", "libflickr", "async", str(n), str(k)], k, n))
    results = {c[0]: [] for c in clients}
    for rep in range(cfg.runs):
        for name, argv, k, calls in clients:
            server.get("/bench/reset")
            r = run_json(argv, senv)
            stats = server.stats()
            r["connections"] = stats["connections"]
            r["requests"] = stats["requests"]
            results[name].append(r)
    rows = []
    summary = {}
    for name, _, k, calls in clients:
        wall = median([r["wall_s"] for r in results[name]])
        ideal = calls * latency / k
        conns = max(r["connections"] for r in results[name])
        rows.append([name, calls, wall, calls / wall, ideal, wall / ideal, conns,
                     median([(r["user_s"] + r["sys_s"]) / calls * 1e6 for r in results[name]])])
        summary[name] = (wall / ideal, conns, k)
    text = (f"`benchserver --latency-ms 50` answers every call 50 ms after reading it (connections wait in "
            f"parallel). One context; async calls keep K requests in flight (a new one starts as one "
            f"completes). Ideal = calls × 50 ms / K (latency-bound). Connections = TCP connections the "
            f"server accepted during the run (its own counter, `/bench/stats`), the most over the runs. "
            f"The sequential row runs {n_seq} calls (at 50 ms each a full 2,000 would take 100 s per run). "
            f"Medians over {cfg.runs} runs.\n\n")
    text += table(["Client", "calls", "wall s", "calls/s", "ideal s", "× ideal", "connections",
                   "CPU µs/call"], rows)
    return text, summary


def make_upload_file(size):
    path = BIN / f"upload-{size // MiB}MiB.jpg"
    if not path.exists() or path.stat().st_size != size:
        # A sparse file with a JPEG header: the reads come from the page cache (no disk in the way).
        with open(path, "wb") as f:
            f.write(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00")
            f.truncate(size)
    return path


def workload_upload(cfg, env, server):
    """4. Upload throughput and peak RSS."""
    size = (128 if cfg.quick else 1024) * MiB
    path = make_upload_file(size)
    senv = dict(env, BENCH_URL=server.url)
    url = server.url + "/services/upload/"
    clients = [
        ("curl -F photo=@file (baseline)",
         ["curl", "-s", "-S", "-o", "/dev/null", "-F", f"photo=@{path}", "-F", "title=bench", url]),
        ("libflickr (C), no progress callback", [BIN / "calls_flickr", "upload", str(path), "0"]),
        ("libflickr (C), progress callback", [BIN / "calls_flickr", "upload", str(path), "1"]),
        ("libflickr (Python), no progress", [PY, BENCH / "calls_py.py", "libflickr", "upload", str(path), "0"]),
        ("libflickr (Python), progress", [PY, BENCH / "calls_py.py", "libflickr", "upload", str(path), "1"]),
        ("flickcurl 1.26", [BIN / "calls_flickcurl", "upload", str(path)]),
        ("python-flickrapi 2.4", [PY, BENCH / "calls_py.py", "flickrapi", "upload", str(path)]),
    ]
    runs = max(1, cfg.runs - 2) if cfg.runs > 3 else cfg.runs
    results = {name: [] for name, _ in clients}
    for rep in range(runs):
        for name, argv in clients:
            r = run_json(argv, senv)
            results[name].append({"wall": r["process_wall_s"], "rss": r["rss_kb"], "cpu": r["cpu_s"]})
    base = median([size / r["wall"] for r in results[clients[0][0]]])
    rows = []
    summary = {}
    for name, _ in clients:
        thr = median([size / r["wall"] for r in results[name]])
        rss = max(r["rss"] for r in results[name]) / 1024
        cpu = median([r["cpu"] for r in results[name]])
        rows.append([name, thr / MiB, thr / base, rss, cpu])
        summary[name] = (thr / base, rss)
    text = (f"One {size // MiB} MiB file (sparse, so reads come from the page cache) uploaded to "
            f"`benchserver`, which reads and discards the body. Throughput = file size / the client "
            f"process's wall time (start-up included: a few ms, under 1%); peak RSS = the client "
            f"process's `ru_maxrss` (measured by `bench/rsswrap.c`, see there why; the Python rows include the interpreter, about 10 MiB "
            f"with nothing imported); CPU = the process's user+sys. Medians over {runs} runs (RSS: the "
            f"maximum).\n\n")
    text += table(["Client", "MiB/s", "× curl", "peak RSS MiB", "CPU s"], rows)
    return text, summary


def workload_budget(cfg, env, server):
    """7. What the key's budget (FLICKR_OPT_BUDGET_PER_HOUR) costs a call."""
    n = 5000 if cfg.quick else 20000
    senv = dict(env, BENCH_URL=server.url)
    runs = {"off": [], "on": []}
    for rep in range(cfg.runs):
        for name in ("off", "on"):  # interleaved, so that drift in the machine's load hits both
            with tempfile.TemporaryDirectory(prefix="bench-budget-") as cache:
                extra = {"XDG_CACHE_HOME": cache}
                if name == "on":
                    extra["BENCH_BUDGET"] = "100000"  # never reached: every call takes its slot at once
                runs[name].append(run_json([BIN / "calls_flickr", "discard", str(n)], dict(senv, **extra)))
    per_call = {name: {key: median([r[key] / n * 1e6 for r in results]) for key in ("user_s", "sys_s", "wall_s")}
                for name, results in runs.items()}
    rows = []
    for name, label in (("off", "budget off (the library's default)"), ("on", "budget on (100,000 an hour)")):
        cost = per_call[name]
        rows.append([label, cost["user_s"] + cost["sys_s"], cost["user_s"], cost["sys_s"], cost["wall_s"]])
    cpu = rows[1][1] - rows[0][1]
    wall = rows[1][4] - rows[0][4]
    rows.append(["difference: the budget's cost per call", cpu, rows[1][2] - rows[0][2], rows[1][3] - rows[0][3], wall])
    text = (f"{n:,} sequential `flickr_call_discard` calls to `benchserver` with and without "
            f"FLICKR_OPT_BUDGET_PER_HOUR, each run with a fresh budget file (a new XDG_CACHE_HOME); runs "
            f"interleaved, medians over {cfg.runs} runs. Each call takes the file's flock, checks its size "
            f"(fstat), reads one slot of the mapped ring and writes its own, and unlocks.\n\n")
    text += table(["Budget", "CPU µs/call", "user µs", "sys µs", "wall µs/call"], rows)
    return text, {"cpu_us": cpu, "wall_us": wall}


def workload_footprint(cfg, env, server):
    """5. Library size, load + context creation, first call."""
    libflickr = (BUILD / "libflickr.so.0").resolve()  # libflickr.so.0.MINOR.PATCH
    ours = "libflickr " + libflickr.name.removeprefix("libflickr.so.")
    flickcurl = Path("/usr/lib/x86_64-linux-gnu/libflickcurl.so.0")
    rows = []
    sizes = {}
    for name, lib in ((ours, libflickr), ("flickcurl 1.26", flickcurl)):
        real = lib.resolve()
        stripped = BIN / (real.name + ".stripped")
        shutil.copy(real, stripped)
        subprocess.run(["strip", "--strip-all", stripped], check=True)
        needed = subprocess.run(["readelf", "-d", real], capture_output=True, text=True).stdout
        deps = ", ".join(re.findall(r"Shared library: \[([^\]]+)\]", needed))
        sizes[name] = (real.stat().st_size, stripped.stat().st_size, deps)
    senv = dict(env, BENCH_URL=server.url, LD_LIBRARY_PATH=str(BUILD))
    results = {ours: [], "flickcurl 1.26": []}
    runs = cfg.runs * 2 + 1
    for rep in range(runs):
        for name, mode in ((ours, "libflickr"), ("flickcurl 1.26", "flickcurl")):
            results[name].append(run_json([BIN / "footprint", mode, server.url], senv))
    summary = {}
    for name in results:
        r = results[name]
        dl = median([x["dlopen_s"] for x in r]) * 1e3
        ctx = median([x["context_s"] for x in r]) * 1e3
        first = median([x["first_call_s"] for x in r]) * 1e3
        rss = median([x["rss_kb"] for x in r]) / 1024
        size, stripped, deps = sizes[name]
        rows.append([name, size / 1024, stripped / 1024, dl, ctx, first, rss, deps])
        summary[name] = (stripped, dl + ctx, first)
    text = (f"Sizes of the shared object as built/installed and after `strip --strip-all`. Times from "
            f"`bench/footprint.c` in a fresh process: `dlopen(RTLD_NOW)` with its dependencies plus the "
            f"`dlsym`s, creating and configuring a context (key, secret, token, endpoint; flickcurl: "
            f"`flickcurl_init` + `flickcurl_new` + setters), then the first signed `flickr.test.echo` "
            f"(new TCP connection to `benchserver`). Peak RSS of the whole process after the first call. "
            f"Medians over {runs} runs (page cache warm).\n\n")
    text += table(["Library", "size KiB", "stripped KiB", "dlopen ms", "context ms", "first call ms",
                   "process RSS MiB", "needs"], rows)
    return text, summary


SANDBOX_KEY = (sandbox_constants.API_KEY, sandbox_constants.API_SECRET)
SANDBOX_TOKEN = (sandbox_constants.OAUTH_TOKEN, sandbox_constants.OAUTH_TOKEN_SECRET)


def peer_clients(python, env):
    """Workload 8's clients, side by side: (label, launch). launch(work, rest_url) prepares one run in
    the new folder work, against the REST endpoint rest_url, and returns (argv, cwd, env, photo_ids):
    photo_ids() gives the ids of the items whose files the run left."""
    def peer(tool):
        def launch(work, rest_url):
            run = peer_tools.photostream(tool, work)
            return [python, *run.argv(rest_url)], run.cwd, run.env(), run.photo_ids
        return launch
    pins = dict(line.split("==", 1) for line in peer_tools.REQUIREMENTS.read_text().splitlines() if "==" in line)
    return [(f"flickr-download {pins['flickr-download']} (`-p`; flickr-api {pins['flickr-api']})", peer("flickr-download")),
            (f"gallery-dl {pins['gallery-dl']}", peer("gallery-dl")),
            ("`flickr backup` (libflickr, albums and collections too)", backup_launch(env))]


def backup_launch(env):
    """libflickr's own `flickr backup DIR` as workload 8's third client: the whole account, its
    albums and collections as folders of links, a JSON and an XMP sidecar per item. The key's
    budget file lives in the run's folder (XDG_CACHE_HOME), apart from the user's."""
    def launch(work, rest_url):
        backup = work / "backup"
        work.mkdir(parents=True)
        base = rest_url.rsplit("/services/rest/", 1)[0]
        run_env = dict(env, XDG_CACHE_HOME=str(work / "cache"), FLICKR_API_KEY=SANDBOX_KEY[0],
                       FLICKR_API_SECRET=SANDBOX_KEY[1], FLICKR_OAUTH_TOKEN=SANDBOX_TOKEN[0],
                       FLICKR_OAUTH_TOKEN_SECRET=SANDBOX_TOKEN[1])
        argv = [PY, "-m", "flickr", "backup", str(backup), "--endpoint", base, "--progress", "none"]

        def photo_ids():
            # A media file is YYYY/MM/{id}_{slug}.{ext}; sidecars end .json and .xmp.
            return {p.name.split("_", 1)[0] for p in backup.glob("[0-9]*/[0-9]*/*")
                    if p.is_file() and not p.is_symlink() and p.suffix not in (".json", ".xmp")}
        return argv, work, run_env, photo_ids
    return launch


def workload_peers(cfg, env):
    """8. Other people's tools downloading a seeded sandbox user's whole photostream."""
    n = cfg.peers_seed_photos if cfg.peers_seed_photos is not None else (200 if cfg.quick else 1000)
    latency = cfg.peers_latency_ms
    log("workload 8: the peers' venv (build/peers-venv, scripts/venv.sh)")
    clients = peer_clients(peer_tools.peers_python(), env)
    # Generous: flickr-download makes 3 calls an item, the sandbox answers a few hundred a second.
    timeout = 600 + n * (0.1 + 4 * latency / 1000)
    serial = itertools.count()
    with tempfile.TemporaryDirectory(prefix="bench-peers-") as tmp, \
            SandboxProcess("--seed-photos", str(n), env=env, stderr=subprocess.DEVNULL) as sandbox, \
            CallCounter(sandbox.url) as warm, CallCounter(sandbox.url, delay_ms=latency) as proxy:
        total = run_json([PY, BENCH / "calls_py.py", "libflickr", "count"], dict(env, BENCH_URL=sandbox.url))["photos"]
        if total <= 0:
            raise SystemExit(f"the sandbox user's photostream holds {total} items")

        def one(launch, counter):
            work = Path(tmp) / f"run-{next(serial)}"
            argv, cwd, run_env, photo_ids = launch(work, counter.url + "/services/rest/")
            mark = counter.mark()
            # A tool that stops short is measured as it stopped: the items it left tell how far it got.
            result = run_json(argv, run_env, timeout=timeout, cwd=cwd, check=False)
            result.update(calls=len(counter.since(mark)), photos=len(photo_ids()))
            shutil.rmtree(work)  # 10,000 originals are gigabytes
            return result

        # Untimed: the sandbox draws each picture on its first request (an original: 26 to 64 ms).
        for label, launch in clients:
            r = one(launch, warm)
            log(f"warm-up, no latency: {label}: {r['photos']} of {total} items, {r['calls']} REST calls, "
                f"{r['process_wall_s']:.1f} s, exit {r['status']} {r.get('error', '')}")
        results = {label: [] for label, _ in clients}
        for rep in range(cfg.runs):
            for label, launch in clients:
                results[label].append(one(launch, proxy))
    rows, summary, failures = [], {}, []
    for label, _ in clients:
        runs = results[label]
        photos = min(r["photos"] for r in runs)
        calls = median([r["calls"] for r in runs])
        wall = median([r["process_wall_s"] for r in runs])
        per_k = calls / photos * 1000 if photos else None
        failed = [r for r in runs if r["status"] != 0]
        if failed:
            failures.append(f"- {label} exited {failed[0]['status']} in {len(failed)} of {len(runs)} runs: "
                            f"`{failed[0]['error'][:200]}`")
        calls_text = f"{calls:,.0f}" if calls == int(calls) else f"{calls:,.1f}"  # a count, not a measure
        # Not "stopped": a tool may exit non-zero having done all it could (flickr backup leaves
        # videos still processing for its next run); the failures below say which.
        exit_note = f" (exit {failed[0]['status']})" if failed else ""
        row = [label, f"{photos:,} of {total:,}" + exit_note, calls_text, per_k, wall,
               photos / wall, max(r["rss_kb"] for r in runs) / 1024, median([r["cpu_s"] for r in runs])]
        if latency:
            row.append(calls * latency / 1000)
        rows.append(row)
        summary[label] = (photos, total, per_k or 0, wall, exit_note)
    headers = ["Tool", "items downloaded", "REST calls", "calls per 1,000 items downloaded", "wall s", "items/s",
               "peak RSS MiB", "CPU s"]
    if latency:
        headers.append(f"REST calls × {latency} ms, s")
    where = f"behind a proxy adding {latency} ms to every REST call" if latency else "with no latency added"
    text = (f"A sandbox started with `--seed-photos {n:,}` (the sandbox user's {total:,} items in all, private "
            f"ones included), {where}; each tool downloads the user's whole photostream, signed as the user, "
            f"into a new folder, each run a fresh process (`sandbox/tests/peers/run_peer.py` in build/peers-venv, "
            f"the tools retargeted by their endpoint constant only, with the options "
            f"`sandbox/tests/peers/invocation.py` gives `test_peers.py`). REST calls are counted by the proxy the tools call "
            f"(`sandbox/tests/peers/callcount.py`, also the one delaying them); photo files come from the "
            f"sandbox itself, undelayed. Items downloaded: distinct item ids among the files left, the fewest "
            f"over the runs (calls per 1,000 items are of those); wall time, CPU (user + sys) and peak RSS "
            f"are the tool's process tree's (`bench/rsswrap.c`; RSS the maximum over the runs). gallery-dl waits at least 0.5 s between "
            f"API calls whatever it is told. One untimed run of each tool first, with no latency, has the "
            f"sandbox draw every picture once. Medians over {cfg.runs} runs.\n\n")
    text += table(headers, rows)
    if failures:
        text += "\n\nStopped short (the counts are of what it did before):\n" + "\n".join(failures)
    return text, summary


# ---------------------------------------------------------------------------------------------
# Machine


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=30).stdout.strip()
    except Exception:
        return ""


def machine():
    cpuinfo = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    model = re.search(r"model name\s*:\s*(.*)", cpuinfo)
    mhz = re.search(r"cpu MHz\s*:\s*(.*)", cpuinfo)
    mem = sh("free -m | awk '/Mem:/ {print $2\" MiB total, \"$7\" MiB available\"}'")
    versions = [
        ("CPU", (model.group(1) if model else platform.processor()) + (f" ({mhz.group(1)} MHz)" if mhz else "")),
        ("nproc", sh("nproc")),
        ("memory", mem),
        ("kernel", platform.release()),
        ("OS", sh(". /etc/os-release && echo $PRETTY_NAME")),
        ("Swift", sh("swift --version 2>&1 | head -1")),
        ("C compiler", sh("cc --version | head -1")),
        ("Python", platform.python_version()),
        ("libcurl", sh("curl-config --version")),
        ("expat", sh("dpkg-query -W -f='${Version}' libexpat1")),
        ("libxml2", sh("dpkg-query -W -f='${Version}' libxml2")),
        ("OpenSSL", sh("openssl version")),
        ("flickcurl", sh("dpkg-query -W -f='${Version}' libflickcurl0")),
        ("python-flickrapi", sh(f"{PY} -c 'import flickrapi; print(flickrapi.__version__)'")),
        ("xmltodict", sh(f"{PY} -c 'import importlib.metadata as m; print(m.version(\"xmltodict\"))'")),
        ("libflickr", sh("git -C " + str(ROOT) + " describe --always --dirty 2>/dev/null")),
    ]
    load = os.getloadavg()
    versions.append(("load average at start", f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"))
    return "\n".join(f"- **{k}**: {v}" for k, v in versions)


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer calls, a 128 MiB upload, 3 runs")
    parser.add_argument("--runs", type=int, help="repetitions per figure (odd; default 5, quick 3)")
    parser.add_argument("--workloads", default="1,2,3,4,5,6,7,8")
    parser.add_argument("--peers-seed-photos", type=int, metavar="N",
                        help="workload 8: the sandbox's --seed-photos (default 1000, quick 200)")
    parser.add_argument("--peers-latency-ms", type=int, default=0, metavar="L",
                        help="workload 8: milliseconds added to every REST call (default 0)")
    parser.add_argument("--output", default=str(BENCH / "RESULTS.md"))
    cfg = parser.parse_args()
    cfg.runs = cfg.runs or (3 if cfg.quick else 5)
    if cfg.peers_seed_photos is not None and cfg.peers_seed_photos < 0:
        parser.error("--peers-seed-photos takes 0 or more")
    if not 0 <= cfg.peers_latency_ms <= 10_000:
        parser.error("--peers-latency-ms takes 0 to 10000")
    if cfg.runs % 2 == 0:
        cfg.runs += 1
    wanted = {int(w) for w in cfg.workloads.split(",")}

    env = dict(os.environ, FLICKR_LIBRARY=str(BUILD / "libflickr.so.0"),
               PYTHONPATH=os.pathsep.join((str(ROOT / "bindings/python"), str(ROOT / "apps"), str(ROOT / "sandbox"))), PYTHONDONTWRITEBYTECODE="1")
    started = datetime.datetime.now(datetime.timezone.utc)
    sandbox = SandboxProcess(env=env, stderr=subprocess.DEVNULL)
    fast = Server([BIN / "benchserver", "--port", "0"])
    slow = Server([BIN / "benchserver", "--port", "0", "--latency-ms", "50"])
    env.update(BENCH_KEY=sandbox.api_key, BENCH_SECRET=sandbox.api_secret,
               BENCH_TOKEN=sandbox.oauth_token, BENCH_TOKEN_SECRET=sandbox.oauth_token_secret)
    sections = []
    aims = []
    try:
        check_clients(sandbox, BIN, env)
        if 1 in wanted:
            log("workload 1: parsing")
            text, s = workload_parse(cfg, env)
            sections.append(("1. Parsing a 500-photo list", text))
            ours = s["libflickr (C): flickr_response_parse"]
            libxml2 = s['libxml2 DOM: xmlReadMemory (flickcurl' + chr(39) + 's parser)']
            aims.append(f"- Parse: libflickr reaches **{ours:.2f}×** expat-alone throughput, **{ours / libxml2:.2f}×** "
                        f"libxml2's DOM (aim ≥ 1.15×); libxml2 DOM {libxml2:.2f}×, "
                        f"ElementTree {s['Python ElementTree.fromstring (flickrapi' + chr(39) + 's etree)']:.2f}×.")
        if 2 in wanted:
            log("workload 2: CPU per signed call")
            text, s = workload_cpu(cfg, env, fast)
            sections.append(("2. Client CPU per signed call", text))
            aims.append(f"- CPU per call (aim ≤ 1.1× the libcurl baseline from C, ≤ 1.5× from Python, issue 34): "
                        f"answer not read, as the baseline: C flickr_call_discard "
                        f"**{s['libflickr (C): flickr_call_discard']:.2f}×**, Python call_discard "
                        f"**{s['libflickr (Python): Flickr.call_discard']:.2f}×**; answer mapped: C flickr_call "
                        f"**{s['libflickr (C): flickr_call']:.2f}×** (aim: at most flickcurl's, which maps it with libxml2: "
                        f"{s['flickcurl 1.26: flickcurl_test_echo']:.2f}×), Python call → dict "
                        f"**{s['libflickr (Python): Flickr.call → dict']:.2f}×** "
                        f"(python-flickrapi {s['python-flickrapi 2.4 (etree, POST)']:.2f}×).")
        if 3 in wanted:
            log("workload 3: concurrency")
            text, s = workload_concurrency(cfg, env, slow)
            sections.append(("3. Concurrency at 50 ms latency", text))
            parts = [f"{k} in flight {r:.2f}× ideal with {c} connections"
                     for name, (r, c, k) in s.items() if "(C) async" in name]
            aims.append("- Concurrency (C): " + "; ".join(parts) + " (aim ≤ 1.2× at 128 in flight, connections ≤ in flight).")
        if 4 in wanted:
            log("workload 4: upload")
            text, s = workload_upload(cfg, env, fast)
            sections.append(("4. Upload", text))
            parts = [f"{name}: {t:.2f}× curl, {rss:.1f} MiB" for name, (t, rss) in s.items() if "libflickr" in name]
            aims.append("- Upload (aim ≥ 1× curl, RSS ≤ 32 MiB): " + "; ".join(parts) + ".")
        if 5 in wanted:
            log("workload 5: footprint")
            text, s = workload_footprint(cfg, env, fast)
            sections.append(("5. Footprint", text))
            ours, theirs = s[next(k for k in s if k.startswith("libflickr"))], s["flickcurl 1.26"]
            aims.append(f"- Footprint: stripped .so {ours[0] / 1024:,.0f} KiB (aim: no larger than "
                        f"900 KiB, issue 34) vs flickcurl's {theirs[0] / 1024:,.0f} KiB; load + context {ours[1]:.2f} ms vs "
                        f"{theirs[1]:.2f} ms; first call {ours[2]:.2f} ms vs {theirs[2]:.2f} ms "
                        f"(**{ours[2] / theirs[2]:.2f}×**, aim ≤ 1×; dlopen + context + first call "
                        f"{(ours[1] + ours[2]) / (theirs[1] + theirs[2]):.2f}×).")
        if 6 in wanted:
            log("workload 6: large answers")
            text, s = workload_big_bodies(cfg, env, fast)
            sections.append(("6. Large answers, mapped as they stream in", text))
            aims.append("- Linear on every answer (32 MiB ÷ 4 MiB, aim about 8): "
                        + ", ".join(f"{shape} {v[0]:.1f}×" for shape, v in s.items()) + ".")
            aims.append("- Memory of a 32 MiB answer (aims: C ≤ 3× the body, the comment ≤ 2×; Python over idle "
                        "≤ its dicts + 2× the body): "
                        + "; ".join(f"{shape} C {v[1]:.2f}× ({v[2]:.2f}× over idle), Python {v[3]:.2f}× "
                                    f"(aim {v[4]:.2f}×)" for shape, v in s.items()) + ". "
                        + "Body not kept (FLICKR_OPT_KEEP_BODY 0), over idle: "
                        + "; ".join(f"{shape} C {v[5]:.2f}×, Python {v[6]:.2f}×" for shape, v in s.items()) + ".")
        if 7 in wanted:
            log("workload 7: the key's budget")
            text, s = workload_budget(cfg, env, fast)
            sections.append(("7. The key's budget per call", text))
            aims.append(f"- Budget (FLICKR_OPT_BUDGET_PER_HOUR) per call (aim under 2 µs): **{s['cpu_us']:.2f} µs** CPU, "
                        f"{s['wall_us']:.2f} µs wall.")
        if 8 in wanted:
            text, s = workload_peers(cfg, env)
            sections.append(("8. Other tools downloading a seeded photostream", text))
            aims.append("- Photostream download (issue 32: `flickr backup` with the fewest REST calls and the "
                        "fastest wall time of the three): "
                        + "; ".join(f"{name.split(' (')[0]} {got:,} of {total:,} items{exit_note}, "
                                    f"{per_k:,.0f} REST calls per 1,000 items, {wall:.1f} s"
                                    for name, (got, total, per_k, wall, exit_note) in s.items())
                        + ".")
    finally:
        for server in (sandbox, fast, slow):
            server.stop()

    mode = "quick mode (`--quick`)" if cfg.quick else "full mode"
    doc = [f"# libflickr benchmarks\n",
           f"Generated by `bench/run.sh` ({mode}, {cfg.runs} runs per figure unless stated) on "
           f"{started:%Y-%m-%d %H:%M} UTC. Every figure is a median over repeated runs; ratios are to "
           f"the baseline named in each table. Timings are never test assertions. How each figure is "
           f"measured: `bench/README.md`.\n",
           "## Against the aims\n", "\n".join(aims) + "\n",
           "## Machine\n", machine() + "\n"]
    for title, text in sections:
        doc += [f"## {title}\n", text + "\n"]
    notes = BENCH / "NOTES.md"
    if notes.exists():
        doc.append(notes.read_text())
    Path(cfg.output).write_text("\n".join(doc))
    log(f"wrote {cfg.output}")


if __name__ == "__main__":
    main()
