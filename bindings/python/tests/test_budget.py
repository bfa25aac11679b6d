# SPDX-License-Identifier: MIT
"""budget_per_hour across processes, against a server of the test's own that counts what reaches
it: 8 processes share one key's budget (none goes over, none fails within it); a process killed
with kill -9 while it holds the budget file's lock blocks nobody; a wait for a slot ends at the
time limit or at Ctrl-C; an image host's 429 holds back the process's downloads, which never
count against the budget. The budget file lives in the test's own XDG_CACHE_HOME."""
import fcntl
import hashlib
import http.server
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import flickr
from libtest import PYTHONPATH, run_cli, running_sandbox

API_KEY, SECRET = "budget-test-key", "budget-test-secret"
OK = b'<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="ok"><method>flickr.test.echo</method></rsp>\n'
JPEG = b"\xff\xd8\xff\xe0" + b"\0" * 200


class CountingServer:
    """127.0.0.1: REST calls answered ok and counted; images at /photos/..., the first `refusals`
    of them answered 429 with Retry-After: 1."""

    def __init__(self, refusals: int = 0) -> None:
        self.calls: list[float] = []
        self.images: list[float] = []
        self.refusals = refusals
        self.lock = threading.Lock()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with outer.lock:
                    if self.path.startswith("/photos/"):
                        outer.images.append(time.monotonic())
                        refuse = outer.refusals > 0
                        outer.refusals -= refuse
                    else:
                        outer.calls.append(time.monotonic())
                        refuse = False
                if refuse:
                    self.send_response(429)
                    self.send_header("Retry-After", "1")
                    body = b"slow down"
                else:
                    self.send_response(200)
                    body = JPEG if self.path.startswith("/photos/") else OK
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def server():
    counting = CountingServer()
    yield counting
    counting.close()


@pytest.fixture
def cache(tmp_path, library_path, monkeypatch):
    """The test's XDG_CACHE_HOME, for this process's contexts and the processes it starts."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path


# A process sharing the budget: CALLS calls (their outcomes on one line), then on "go" one more
# ("announce": saying "calling" first, from inside the call's try); prints its outcome.
CLIENT = """
import sys, time, flickr
url, per_hour, calls, timeout_ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
key, secret = sys.argv[5], sys.argv[6]
api = flickr.Flickr(key, secret, base_url=url, budget_per_hour=per_hour, timeout_ms=timeout_ms, max_retries=0)
def one(announce=False):
    start = time.monotonic()
    try:
        if announce:
            print("calling", flush=True)  # inside the try: a Ctrl-C from here on is the call's
        api.call("flickr.test.echo")
        return "ok"
    except flickr.OverBudget as error:
        return f"over {error.retry_after:.0f} {time.monotonic() - start:.3f}"
    except KeyboardInterrupt:
        return f"interrupted {time.monotonic() - start:.3f}"
print(*[one() for _ in range(calls)], sep="|", flush=True)
command = sys.stdin.readline().strip()
if command in ("go", "announce"):
    print(one(announce=command == "announce"), flush=True)
"""


def start_client(url: str, per_hour: int, calls: int, timeout_ms: int = 2000,
                 key: tuple[str, str] = (API_KEY, SECRET)) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=PYTHONPATH)
    return subprocess.Popen([sys.executable, "-c", CLIENT, url, str(per_hour), str(calls), str(timeout_ms), *key],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)


def budget_file(cache) -> str:
    return str(cache / "libflickr" / "budget" / (hashlib.sha256(API_KEY.encode()).hexdigest()[:32] + ".budget"))


def test_eight_processes_share_one_budget(server, cache):
    per_hour, processes, calls = 24, 8, 3
    clients = [start_client(server.url, per_hour, calls) for _ in range(processes)]
    first = [client.stdout.readline().strip() for client in clients]  # each has made its 3 calls
    seen = len(server.calls)
    for client in clients:
        client.stdin.write("go\n")
        client.stdin.flush()
    extra = [client.stdout.readline().strip() for client in clients]
    for client in clients:
        client.communicate(timeout=30)
    print(f"{processes} processes, budget {per_hour}: the server saw {seen} calls, then {len(server.calls)};"
          f" extra calls: {extra[:2]}...")
    assert first == ["ok|ok|ok"] * processes  # none failed within the budget
    assert seen == len(server.calls) == per_hour  # none went over it
    for outcome in extra:
        word, retry_after, took = outcome.split()
        assert word == "over" and 3500 <= float(retry_after) <= 3600 and float(took) < 0.5, outcome
    # The file is named by a hash of the key, never the key; its directory is the user's alone.
    assert os.path.exists(budget_file(cache))
    assert os.stat(os.path.dirname(budget_file(cache))).st_mode & 0o777 == 0o700
    assert API_KEY.encode() not in open(budget_file(cache), "rb").read()


def test_eight_processes_never_meet_the_sandboxs_hourly_limit(cache):
    """The same against the sandbox enforcing Flickr's hourly limit per key (--budget-per-hour 24,
    Flickr's 429 past it): 8 processes sharing a library budget of 24 make their 24 calls, none
    refused, and their 25th waits in the library, never reaching the sandbox; a context without
    the budget then meets the sandbox's 429, so the sandbox did count all 24."""
    per_hour, processes, calls = 24, 8, 3
    with running_sandbox("--budget-per-hour", str(per_hour)) as sandbox:
        key = (sandbox.settings.api_key, sandbox.settings.api_secret)
        clients = [start_client(sandbox.url, per_hour, calls, key=key) for _ in range(processes)]
        first = [client.stdout.readline().strip() for client in clients]
        for client in clients:
            client.stdin.write("go\n")
            client.stdin.flush()
        extra = [client.stdout.readline().strip() for client in clients]
        for client in clients:
            client.communicate(timeout=30)
        unbudgeted = flickr.Flickr(*key, base_url=sandbox.url, max_retries=0)
        with pytest.raises(flickr.HTTPError) as refused:
            unbudgeted.call("flickr.test.echo")
        unbudgeted.close()
    print(f"{processes} processes, library budget {per_hour}, sandbox limit {per_hour}: {first[:1]}..., "
          f"then {extra[:1]}...; without the budget: {refused.value}")
    assert first == ["ok|ok|ok"] * processes  # the sandbox refused none of the 24
    assert all(outcome.startswith("over ") for outcome in extra), extra
    assert "429" in str(refused.value)


HOLDER = """
import fcntl, os, sys, time
os.makedirs(os.path.dirname(sys.argv[1]), mode=0o700, exist_ok=True)
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
sys.stdin.readline()
"""


def test_a_lock_holder_killed_with_kill_9_blocks_nobody(server, cache):
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, budget_file(cache)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    # While it holds the lock, a call waits for it (here until its 1 s limit)...
    blocked = start_client(server.url, 100, 1, timeout_ms=1000)
    outcome = blocked.communicate(timeout=30)
    assert "budget file" in outcome[1] and "Timeout" in outcome[1], outcome
    # ...and once it is killed mid-hold, the kernel drops its lock: 8 processes waiting for it go ahead.
    clients = [start_client(server.url, 100, 0, timeout_ms=10_000) for _ in range(8)]
    assert [client.stdout.readline() for client in clients] == ["\n"] * 8  # each is up, no call yet
    for client in clients:
        client.stdin.write("go\n")
        client.stdin.flush()
    before = len(server.calls)
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    killed = time.monotonic()
    outcomes = [client.communicate(timeout=30)[0].strip() for client in clients]
    took = time.monotonic() - killed
    print(f"kill -9 of the lock holder: {before} calls got through before it; the 8 waiting processes"
          f" then made {len(server.calls)} calls in {took:.2f} s")
    assert before == 0 and outcomes == ["ok"] * 8 and len(server.calls) == 8
    assert took < 5


def test_a_wait_for_a_slot_ends_at_the_time_limit_and_at_ctrl_c(server, cache):
    # In this process, a key of its own: a process opens a key's file once, where its first
    # budgeted call finds XDG_CACHE_HOME, so keys shared with other tests' processes stay out of it.
    with flickr.Flickr(API_KEY + "-wait", SECRET, base_url=server.url, budget_per_hour=2, timeout_ms=2000) as api:
        api.call("flickr.test.echo")
        api.call("flickr.test.echo")
        start = time.monotonic()
        with pytest.raises(flickr.OverBudget) as refused:
            api.call("flickr.test.echo")
        took = time.monotonic() - start
    assert took < 0.5 and 3500 < refused.value.retry_after <= 3600
    assert "budget_per_hour" in str(refused.value) and refused.value.code == flickr.errors.EBUDGET
    assert isinstance(refused.value, flickr.TransportError)
    # A day's time limit: after its 2 calls, the process waits an hour for its third, until Ctrl-C.
    client = start_client(server.url, 2, 2, timeout_ms=86_400_000)
    assert client.stdout.readline().strip() == "ok|ok"
    client.stdin.write("announce\n")
    client.stdin.flush()
    assert client.stdout.readline().strip() == "calling"
    client.send_signal(signal.SIGINT)
    sent = time.monotonic()
    line = client.communicate(timeout=30)[0].strip()
    print(f"over budget: refused in {took * 1000:.1f} ms with a 2 s limit; Ctrl-C ended the hour's wait"
          f" {time.monotonic() - sent:.2f} s after the signal ({line})")
    assert line.startswith("interrupted") and time.monotonic() - sent < 2
    assert len(server.calls) == 4


def test_an_image_hosts_429_holds_back_the_processs_downloads(cache, tmp_path):
    server = CountingServer(refusals=1)
    options = dict(base_url=server.url, photo_endpoint=server.url + "/photos", max_retries=0,
                   photo_cache_dir=str(tmp_path / "photos"), budget_per_hour=1)
    try:
        with flickr.Flickr(API_KEY, SECRET, **options) as first, \
                flickr.Flickr(API_KEY, SECRET, **options, timeout_ms=500) as hurried, \
                flickr.Flickr(API_KEY, SECRET, **options, timeout_ms=5000) as patient:
            with pytest.raises(flickr.HTTPError) as answered:
                first.fetch_photo({"id": "1", "secret": "aa", "server": "7"})
            assert answered.value.http_status == 429
            refused_at = server.images[0]
            # Another context of the process: within 0.5 s it cannot wait the second out.
            with pytest.raises(flickr.OverBudget) as held:
                hurried.fetch_photo({"id": "2", "secret": "bb", "server": "7"})
            assert 0 < held.value.retry_after <= 1 and "429" in str(held.value)
            # With 5 s it waits, then downloads; and 5 downloads under a budget of 1 call an hour:
            # images never count against the key's budget.
            for photo_id in "23456":
                patient.fetch_photo({"id": photo_id, "secret": "bb", "server": "7"})
            waited = server.images[1] - refused_at
            print(f"image host 429 (Retry-After: 1): the next download went out {waited:.2f} s later;"
                  f" {len(server.images)} image requests, {len(server.calls)} API calls")
            assert 0.95 <= waited < 3
            assert len(server.images) == 6 and len(server.calls) == 0
    finally:
        server.close()


def test_the_cli_budgets_the_key_by_default_and_budget_sets_it(sandbox, tmp_path):
    cache = tmp_path / "cli-cache"
    budget_dir = cache / "libflickr" / "budget"
    run = lambda *argv: run_cli(sandbox, *argv, env_extra={"XDG_CACHE_HOME": str(cache)})  # noqa: E731
    assert run("--budget", "0", "call", "flickr.test.echo").returncode == 0
    assert not budget_dir.exists()  # 0: no budget, no file
    assert run("call", "flickr.test.echo").returncode == 0
    # The default (3600, Flickr's limit) made the key's file: one, named by a hash of the key.
    files = os.listdir(budget_dir)
    assert files == [hashlib.sha256(sandbox.api_key.encode()).hexdigest()[:32] + ".budget"]
    # Two processes, each with --budget 2 (before or after the command): the third call is refused.
    assert run("call", "flickr.test.echo", "--budget", "2").returncode == 0
    refused = run("--budget", "2", "call", "flickr.test.echo", "--timeout", "1")
    print(f"--budget 2 after 2 calls: exit {refused.returncode}: {refused.stderr.strip()}")
    assert refused.returncode == 4 and "--budget" in refused.stderr and "Traceback" not in refused.stderr
    bad = run("--budget", "-1", "call", "flickr.test.echo")
    assert bad.returncode == 2 and "0 to 100000" in bad.stderr


def test_async_flickr_takes_the_budget_too(server, cache):
    import asyncio

    async def main() -> float:
        async with flickr.AsyncFlickr(API_KEY + "-async", SECRET, base_url=server.url, budget_per_hour=1) as api:
            await api.call("flickr.test.echo")
            with pytest.raises(flickr.OverBudget) as refused:
                await api.call("flickr.test.echo")
            return refused.value.retry_after

    retry_after = asyncio.run(main())
    print(f"AsyncFlickr, budget 1: the second call refused, a slot in {retry_after:.0f} s")
    assert 3500 < retry_after <= 3600 and len(server.calls) == 1


# In a file system of 16 KiB that a file has filled (a tmpfs, mounted in a mount namespace of its
# own by `unshare -rm`: as root or not, nothing outside sees it): one budgeted call of 3600 an hour,
# whose file (28.9 KB) has no room. Mapped over a hole, the file's first store killed the process
# with SIGBUS.
FULL_DISK = """
import errno, os, sys, flickr
cache, url = sys.argv[1], sys.argv[2]
fd = os.open(os.path.join(cache, "filler"), os.O_WRONLY | os.O_CREAT, 0o600)
try:
    while True:
        os.write(fd, bytes(4096))
except OSError as error:
    assert error.errno == errno.ENOSPC, error
print("full:", os.statvfs(cache).f_bavail, "blocks free", flush=True)
api = flickr.Flickr("budget-full-disk-key", "secret", base_url=url, budget_per_hour=3600, max_retries=0)
try:
    api.call("flickr.test.echo")
    print("ok")
except flickr.FlickrError as error:
    print(type(error).__name__, error.code, error.library_message)
"""


def test_a_full_file_system_is_an_error_not_sigbus(server, tmp_path, library_path):
    cache = tmp_path / "small"
    cache.mkdir()
    mount = 'mount -t tmpfs -o size=16k,mode=0700 tmpfs "$0" && exec "$@"'
    env = dict(os.environ, PYTHONPATH=PYTHONPATH, XDG_CACHE_HOME=str(cache))
    done = subprocess.run(["unshare", "-rm", "sh", "-c", mount, str(cache), sys.executable, "-c", FULL_DISK,
                           str(cache), server.url], capture_output=True, text=True, env=env, timeout=60)
    print(f"full disk: exit {done.returncode}: {done.stdout.strip()} {done.stderr.strip()[-300:]}")
    assert done.returncode != -signal.SIGBUS, "the budget file's first store killed the process (SIGBUS)"
    assert done.stdout.startswith("full: 0 blocks free"), done.stderr  # the mount and the filling worked
    assert done.returncode == 0 and "FileError" in done.stdout and "no space for the budget file" in done.stdout
    assert len(server.calls) == 0


# A server answering every REST call HTTP 429 with Retry-After: 90000 (25 hours).
class RefusingServer(CountingServer):
    def __init__(self) -> None:
        super().__init__()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with outer.lock:
                    outer.calls.append(time.monotonic())
                self.send_response(429)
                self.send_header("Retry-After", "90000")
                self.send_header("Content-Length", "9")
                self.end_headers()
                self.wfile.write(b"slow down")

            def log_message(self, *args: object) -> None:
                pass

        self.server.RequestHandlerClass = Handler


def test_a_429_holds_back_its_host_only_and_at_most_an_hour(server, cache):
    """One 429 with Retry-After: 90000 from a server of someone else's: the key's calls to that host
    wait at most an hour, and say so naming the 429 and the host; its calls to another host, in
    this process and in others, are not held back at all."""
    hostile = RefusingServer()
    key = (API_KEY + "-429", SECRET)
    try:
        with flickr.Flickr(*key, base_url=hostile.url, budget_per_hour=100, max_retries=0) as api:
            with pytest.raises(flickr.HTTPError) as answered:
                api.call("flickr.test.echo")
            assert answered.value.http_status == 429
            with pytest.raises(flickr.OverBudget) as held:
                api.call("flickr.test.echo")
        with flickr.Flickr(*key, base_url=server.url, budget_per_hour=100, max_retries=0) as other:
            other.call("flickr.test.echo")
        elsewhere = start_client(server.url, 100, 2, key=key)
        outcome = elsewhere.communicate("stop\n", timeout=30)[0].strip()
    finally:
        hostile.close()
    host = hostile.url
    print(f"429 (Retry-After: 90000) from {host}: its next call refused, {held.value.retry_after:.0f} s to wait"
          f" ({held.value}); another host: this process ok, another process {outcome}")
    assert len(hostile.calls) == 1 and len(server.calls) == 3
    assert outcome == "ok|ok"
    assert 3500 < held.value.retry_after <= 3600
    assert "429" in str(held.value) and host in str(held.value) and "budget_per_hour" not in str(held.value)


def _plant(case: str, folder, budget_file) -> None:
    """Makes `case` at the budget folder (cache/libflickr/budget) or file, before the first call."""
    folder.parent.mkdir(mode=0o700)
    if case == "folder link":
        (folder.parent / "elsewhere").mkdir(mode=0o700)
        folder.symlink_to(folder.parent / "elsewhere")
        return
    folder.mkdir(mode=0o700)
    if case == "hard link":
        os.link(folder.parent.parent / "precious", budget_file)
    elif case == "file others may write":
        budget_file.touch(mode=0o600)
        budget_file.chmod(0o666)
    elif case == "folder others may write":
        folder.parent.chmod(0o777)
    elif case == "folder of another user":
        assert os.geteuid() == 0, "this case makes a folder another user owns: run it as root (as CI does)"
        os.chown(folder.parent, 65534, 65534)


@pytest.mark.parametrize("case", ["hard link", "folder link", "file others may write", "folder others may write",
                                  "folder of another user"])
def test_links_and_what_others_may_write_are_refused(server, cache, case):
    """The budget file or its folders planted by someone: refused with FLICKR_EIO saying why, and the
    file behind a link never written."""
    key = f"{API_KEY}-{case}"
    folder = cache / "libflickr" / "budget"
    budget_file = folder / (hashlib.sha256(key.encode()).hexdigest()[:32] + ".budget")
    precious = b"someone else's file\n"
    (cache / "precious").write_bytes(precious)
    _plant(case, folder, budget_file)
    with flickr.Flickr(key, SECRET, base_url=server.url, budget_per_hour=10, max_retries=0) as api:
        with pytest.raises(flickr.FileError) as refused:
            api.call("flickr.test.echo")
    print(f"{case}: {refused.value}")
    why = {"hard link": "hard link", "folder link": "symbolic link", "file others may write": "writable by other",
           "folder others may write": "writable by other", "folder of another user": "belongs to another user"}
    assert why[case] in str(refused.value) and refused.value.code == flickr.errors.EIO
    assert (cache / "precious").read_bytes() == precious and len(server.calls) == 0
    if case == "folder link":
        assert os.listdir(cache / "libflickr" / "elsewhere") == []  # nothing made through the link
