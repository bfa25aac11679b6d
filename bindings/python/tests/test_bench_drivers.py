# SPDX-License-Identifier: MIT
"""bench/'s Python drivers still run against the binding and the sandbox.

The suite does not run the benchmarks (timings are never tests), so a refactor of the binding
once left bench/parse_py.py importing a function that no longer existed, and bench/run.sh failed
at workload 1. These runs are a few iterations each: they check that the drivers work and report
what run.py reads, not how fast anything is.
"""
import json
import os
import subprocess
import sys

from libtest import PYTHONPATH, REPO, answering

BENCH = REPO / "bench"


def run_driver(*argv, env_extra=None) -> dict:
    env = dict(os.environ, PYTHONPATH=PYTHONPATH, **(env_extra or {}))
    done = subprocess.run([sys.executable, *map(str, argv)], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_parse_driver_reads_a_photo_list_with_every_parser(library_path, tmp_path):
    xml = tmp_path / "photos.xml"
    xml.write_text('<rsp stat="ok"><photos page="1"><photo id="1" title="a"/><photo id="2" title="b"/></photos></rsp>')
    for mode in ("libflickr", "etree"):  # xmltodict is installed by bench/run.sh only
        result = run_driver(BENCH / "parse_py.py", mode, xml, "0.01", "2")
        assert result["mode"] == mode and result["bytes"] == xml.stat().st_size
        assert result["iterations"] >= 5 and result["median_s"] > 0


def test_call_drivers_sign_and_call_the_sandbox(library_path, sandbox):
    env = {"BENCH_URL": sandbox.url, "BENCH_KEY": sandbox.api_key, "BENCH_SECRET": sandbox.api_secret,
           "BENCH_TOKEN": sandbox.oauth_token, "BENCH_TOKEN_SECRET": sandbox.oauth_token_secret}
    for client in ("libflickr", "flickrapi"):
        assert run_driver(BENCH / "calls_py.py", client, "check", env_extra=env)["user"]
    for mode in ("seq", "discard"):
        result = run_driver(BENCH / "calls_py.py", "libflickr", mode, "3", env_extra=env)
        assert result["calls"] == 3 and result["user_s"] >= 0
    result = run_driver(BENCH / "calls_py.py", "libflickr", "async", "6", "2", env_extra=env)
    assert result["calls"] == 6 and result["failures"] == 0


def test_body_driver_reports_peak_memory_and_the_dicts_baseline():
    body = b'<rsp stat="ok"><text>' + b"x" * 100_000 + b"</text></rsp>"
    with answering(body) as url:  # the echo call and the large one both get this answer
        env = {"BENCH_URL": url, "BENCH_KEY": "key", "BENCH_SECRET": "secret", "BENCH_TOKEN": "token",
               "BENCH_TOKEN_SECRET": "token-secret"}
        result = run_driver(BENCH / "calls_py.py", "libflickr", "dicts", "text", "1", env_extra=env)
    assert result["body_bytes"] == 1 << 20
    assert 0 < result["idle_rss_kb"] <= result["maxrss_kb"]
    assert result["dicts_bytes"] >= 100_000  # the text's str, at least
