# SPDX-License-Identifier: MIT
"""kill -9 at random moments of `flickr backup`, then a run to the end: the backup is complete, no
partial file stands under a final name, and no item finished before a kill is fetched after it
(counted in the sandbox's own request log)."""
import os
import random
import re
import signal
import sqlite3
import subprocess
import time

import pytest

import flickr.backup
from backuptest import client, media_files, partial_files, run_cli, small_account, start_cli, state_rows
from flickr_sandbox import SandboxProcess

ITEMS, KILLS = 30, 20
_FETCH = re.compile(r"GET /photos/\w+/(\d+)_\w+\.\w+ 200")


@pytest.fixture(scope="module")
def logged_server(library_path, tmp_path_factory):
    log_path = tmp_path_factory.mktemp("sandbox") / "requests.log"
    with open(log_path, "w") as log:
        # Files 100 ms late (a standing fault on /photos/): a run then finishes about as many items
        # as the test reads events before its kill, on a busy machine too, so most kills land
        # mid-run (at 10 ms, with two other test runs beside it, the account was done by kill 14).
        server = SandboxProcess("--verbose", "--latency-ms", "10", "--fault", "latency=100@/photos/", stderr=log)
        try:
            with client(server) as api:
                items = small_account(api, ITEMS)
            yield server, items, log_path
        finally:
            server.stop()


def fetched_ids(log_path, start: int = 0) -> list[str]:
    """The photo ids whose image the sandbox served, from line `start` of its log."""
    lines = log_path.read_text().splitlines()[start:]
    return [m.group(1) for m in map(_FETCH.search, lines) if m]


def test_kill_nine_at_random_moments(logged_server, tmp_path):
    server, items, log_path = logged_server
    rng = random.Random(32)
    kills = []
    for n in range(KILLS):
        process = start_cli(server, "backup", str(tmp_path), "--concurrency", "2", "--progress", "json",
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        # A random moment: after a random number of events (0: during start-up or the listing), then
        # a few milliseconds more, so that the kill lands inside a fetch, a rename or a commit.
        wanted, seen = rng.randrange(0, 10), 0
        while seen < wanted and process.stdout.readline():
            seen += 1
        time.sleep(rng.uniform(0, 0.04))
        process.send_signal(signal.SIGKILL)
        process.stdout.close()
        process.wait()
        done = finished(tmp_path)
        kills.append((len(log_path.read_text().splitlines()), done, process.returncode))
        assert not partial_names(tmp_path, items)
    print("done at each kill:", [len(k[1]) for k in kills])
    # Killed, or (once all is done, a run has little to do) ended first; most kills land mid-run.
    assert all(code in (-signal.SIGKILL, 0) for _, _, code in kills)
    assert sum(0 < len(done) < ITEMS for _, done, _ in kills) >= KILLS // 2, [len(k[1]) for k in kills]
    final = run_cli(server, "backup", str(tmp_path))
    assert final.returncode == 0, final.stderr
    print(final.stderr.strip())
    files = media_files(tmp_path)
    assert sorted(files) == sorted(items)
    assert all(files[i].read_bytes() == data for i, data in items.items())
    assert not partial_files(tmp_path)
    assert flickr.backup.verify(tmp_path)["ok"]
    for line, done, _ in kills:  # what was finished at a kill is never fetched afterwards
        assert not done & set(fetched_ids(log_path, line))
    counts = {i: fetched_ids(log_path).count(i) for i in items}
    print("fetches per item:", sorted(counts.values()))


def finished(root) -> set:
    """The items the state database says are done (none when the kill came before it had its tables)."""
    try:
        return {row[0] for row in state_rows(root, "SELECT id FROM items WHERE need=''")}
    except sqlite3.OperationalError:
        return set()


def partial_names(root, items) -> list[str]:
    """Final names holding anything but the item's whole file (a partial download, say)."""
    wrong = []
    for item_id, path in media_files(root).items():
        if path.read_bytes() != items[item_id]:
            wrong.append(str(path))
    return wrong + [p for p in partial_files(root) if not os.path.basename(p).startswith(".")]
