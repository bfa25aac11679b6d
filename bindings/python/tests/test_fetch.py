# SPDX-License-Identifier: MIT
"""Flickr.fetch_photo / fetch_photo_async: the bounded on-disk photo cache, against the sandbox."""
import logging
import fcntl
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import flickr
from flickr_sandbox.images import header_dimensions
from libtest import PACKAGE_DIR, endpoints, running_sandbox
from test_interrupt import default_sigint


def make_api(sandbox, cache_dir, **options):
    return flickr.Flickr(sandbox.api_key, sandbox.api_secret, photo_cache_dir=str(cache_dir),
                         photo_endpoint=sandbox.url + "/photos", retry_base_ms=10, **endpoints(sandbox), **options)


@pytest.fixture(scope="module")
def sandbox():
    """A sandbox of this module's own: the session's one holds photos other tests uploaded (not all images)."""
    with running_sandbox() as server:
        yield server


@pytest.fixture
def photos(library_path, sandbox):
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, **endpoints(sandbox)) as api:
        return api.call("flickr.photos.getRecent", per_page=20, extras="url_o,original_format")["photos"]["photo"]


class Downloads(logging.Handler):
    """Counts the library's "photo ... GET ..." log lines: real downloads, not cache hits."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.count = 0
        self.counted = threading.Lock()  # not self.lock: Handler.handle() holds that one around emit()

    def emit(self, record):
        line = record.getMessage()
        if line.startswith("photo ") and " GET " in line:
            with self.counted:
                self.count += 1


@pytest.fixture
def downloads():
    handler = Downloads()
    logger = logging.getLogger("flickr")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


def images(directory):
    return sorted(name for name in os.listdir(directory) if not name.startswith("."))


def leftovers(directory):
    return [name for name in os.listdir(directory) if name.startswith(".") and name != ".flickr-cache.lock"]


def is_whole_jpeg(path):
    data = path.read_bytes()
    return data[:3] == b"\xff\xd8\xff" and data[-2:] == b"\xff\xd9"


def test_miss_then_hit_then_restart(sandbox, photos, downloads, tmp_path):
    with make_api(sandbox, tmp_path) as api:
        path = api.fetch_photo(photos[0], "b")
        assert path.parent == tmp_path and is_whole_jpeg(path)
        assert downloads.count == 1
        assert api.fetch_photo(photos[0], "b") == path
        assert downloads.count == 1
    # A new object, as after a restart, finds it on disk.
    with make_api(sandbox, tmp_path) as api:
        assert api.fetch_photo(photos[0], size="b") == path
        assert downloads.count == 1
    # So does another process, with its own library instance.
    script = textwrap.dedent(f"""
        import flickr, sys
        api = flickr.Flickr({sandbox.api_key!r}, {sandbox.api_secret!r}, photo_cache_dir={str(tmp_path)!r},
                            photo_endpoint="http://127.0.0.1:1/photos")  # nothing listens: only a hit can work
        print(api.fetch_photo({photos[0]!r}, "b"))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                            env=dict(os.environ, PYTHONPATH=str(PACKAGE_DIR)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(path)


def test_async_hit_and_miss(sandbox, photos, downloads, tmp_path):
    with make_api(sandbox, tmp_path) as api:
        futures = [api.fetch_photo_async(photo, "z") for photo in photos[:4]]
        paths = [future.result(timeout=30) for future in futures]
        assert downloads.count == 4
        assert all(is_whole_jpeg(path) for path in paths)
        assert [api.fetch_photo_async(photo, "z").result(timeout=30) for photo in photos[:4]] == paths
        assert downloads.count == 4
        bad = dict(photos[5], secret="0000000000")
        with pytest.raises(flickr.HTTPError) as caught:
            api.fetch_photo_async(bad, "z").result(timeout=30)
        assert caught.value.http_status == 404
    assert len(images(tmp_path)) == 4


def test_a_fetched_square_is_a_picture(sandbox, photos, tmp_path):
    # The sandbox draws each seeded photo: a JPEG of the size's own dimensions, one photo's unlike another's.
    with make_api(sandbox, tmp_path) as api:
        first, second = api.fetch_photo(photos[0], "q"), api.fetch_photo(photos[1], "q")
    assert is_whole_jpeg(first) and header_dimensions(first.read_bytes()) == (150, 150)
    assert is_whole_jpeg(second) and first.read_bytes() != second.read_bytes()


def test_lru_eviction_order_and_byte_bound(sandbox, photos, downloads, tmp_path):
    measure = tmp_path / "measure"
    with make_api(sandbox, measure) as api:
        sizes = [api.fetch_photo(photo, "n").stat().st_size for photo in photos[:4]]
    bound = sum(sizes) - min(sizes) // 2  # any three fit, never all four
    cache = tmp_path / "cache"
    with make_api(sandbox, cache, photo_cache_max_bytes=bound) as api:
        a, b, c = (api.fetch_photo(photo, "n") for photo in photos[:3])
        assert images(cache) == sorted(p.name for p in (a, b, c))
        api.fetch_photo(photos[0], "n")  # a is now the most recently used
        d = api.fetch_photo(photos[3], "n")  # evicts b
        assert images(cache) == sorted(p.name for p in (a, c, d))
        assert sum(p.stat().st_size for p in cache.iterdir() if not p.name.startswith(".")) <= bound
        before = downloads.count
        api.fetch_photo(photos[1], "n")  # b again: a download, and c goes
        assert downloads.count == before + 1
        assert images(cache) == sorted(p.name for p in (a, b, d))
    # The order survives a restart: recency is on disk.
    with make_api(sandbox, cache, photo_cache_max_bytes=bound) as api:
        api.fetch_photo(photos[2], "n")  # evicts a, now the least recently used
        assert images(cache) == sorted(p.name for p in (b, c, d))


def test_image_larger_than_the_bound_is_refused(sandbox, photos, tmp_path):
    with make_api(sandbox, tmp_path, photo_cache_max_bytes=1024) as api:
        with pytest.raises(flickr.TooBig, match="photo_cache_max_bytes"):
            api.fetch_photo(photos[0], "b")
    assert images(tmp_path) == [] and leftovers(tmp_path) == []


def test_any_attribute_text_survives_the_photo_object(sandbox, photos, tmp_path):
    # The dict becomes a <photo .../> element for the library: every value must be escaped.
    odd = dict(photos[0], title='Tom & "Jerry" <3>\n\tend', description="it's ]]> fine")
    with make_api(sandbox, tmp_path) as api:
        assert is_whole_jpeg(api.fetch_photo(odd, "t"))
        with pytest.raises(flickr.InvalidArgument, match='"&" contains characters not allowed'):
            api.fetch_photo(dict(photos[0], secret=photos[0]["secret"] + '"&'), "t")  # reaches the library whole


def test_bad_photos_and_sizes(sandbox, photos, tmp_path):
    with make_api(sandbox, tmp_path) as api:
        with pytest.raises(flickr.InvalidArgument, match="unknown photo size"):
            api.fetch_photo(photos[0], "x")
        with pytest.raises(flickr.InvalidArgument, match="url_h"):
            api.fetch_photo(photos[0], "h")
        with pytest.raises(flickr.InvalidArgument, match="secret"):
            api.fetch_photo({"id": photos[0]["id"], "server": photos[0]["server"]}, "b")
        with pytest.raises(TypeError):
            api.fetch_photo("not a dict", "b")
        with pytest.raises(flickr.HTTPError, match="404"):
            api.fetch_photo(dict(photos[0], secret="0000000000"), "b")
        # 200, but not an image.
        with pytest.raises(flickr.ParseError, match="not an image"):
            api.fetch_photo({"id": "1", "url_o": sandbox.url + "/services/rest/?method=flickr.test.echo"}, "o")
        # A connection dropped mid-image.
        api.set_option("max_retries", 0)
        with pytest.raises(flickr.FlickrError):
            api.fetch_photo(dict(photos[0], url_o=photos[0]["url_o"] + "?sandbox_fault=drop"), "o")
    assert images(tmp_path) == [] and leftovers(tmp_path) == []


def test_unwritable_directories(sandbox, photos, tmp_path):
    (tmp_path / "file").write_text("a regular file")
    for directory in (tmp_path / "file" / "cache", "/proc/flickr-photo-cache"):
        with make_api(sandbox, directory) as api:
            with pytest.raises(flickr.FileError):
                api.fetch_photo(photos[0], "s")


def test_full_disk_leaves_nothing(sandbox, photos, tmp_path):
    # RLIMIT_FSIZE makes every write past 4 KiB fail, as a full disk would.
    script = textwrap.dedent(f"""
        import flickr, resource, signal
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
        api = flickr.Flickr({sandbox.api_key!r}, {sandbox.api_secret!r}, photo_cache_dir={str(tmp_path)!r},
                            photo_endpoint={sandbox.url + "/photos"!r})
        try:
            api.fetch_photo({photos[0]!r}, "b")
        except flickr.FileError as error:
            print("FileError", error)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                            env=dict(os.environ, PYTHONPATH=str(PACKAGE_DIR)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("FileError") and "File too large" in result.stdout
    assert images(tmp_path) == [] and leftovers(tmp_path) == []


def test_two_processes_racing_download_once(sandbox, photos, tmp_path):
    # The server waits 500 ms before answering, so the second process arrives mid-download.
    photo = dict(photos[2], url_o=photos[2]["url_o"] + "?sandbox_fault=latency=500")
    start = time.time() + 1.0
    script = textwrap.dedent(f"""
        import flickr, logging, time
        lines = []
        class Count(logging.Handler):
            def emit(self, record):
                lines.append(record.getMessage())
        logging.getLogger("flickr").addHandler(Count())
        logging.getLogger("flickr").setLevel(logging.DEBUG)
        api = flickr.Flickr({sandbox.api_key!r}, {sandbox.api_secret!r}, photo_cache_dir={str(tmp_path)!r})
        time.sleep(max(0, {start!r} - time.time()))
        path = api.fetch_photo({photo!r}, "o")
        data = path.read_bytes()
        assert data[:3] == b"\\xff\\xd8\\xff" and data[-2:] == b"\\xff\\xd9"
        print(sum(1 for line in lines if " GET " in line), path)
    """)
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_DIR))
    racers = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env) for _ in range(3)]
    outputs = [racer.communicate(timeout=60) for racer in racers]
    assert all(racer.returncode == 0 for racer in racers), [err for _, err in outputs]
    counts = [int(out.split()[0]) for out, _ in outputs]
    assert sorted(counts) == [0, 0, 1]  # one download; the others waited for it, then hit
    assert len({out.split()[1] for out, _ in outputs}) == 1
    assert len(images(tmp_path)) == 1 and leftovers(tmp_path) == []


def test_threads_share_one_cache(sandbox, photos, downloads, tmp_path):
    with make_api(sandbox, tmp_path) as api:
        results, errors = [], []

        def fetch():
            try:
                results.extend(api.fetch_photo(photo, "m") for photo in photos[:5])
            except Exception as error:  # reported below
                errors.append(error)

        threads = [threading.Thread(target=fetch) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert errors == []
        assert len(results) == 30 and len(set(results)) == 5
        assert downloads.count == 5  # each image once, whatever the interleaving
    assert len(images(tmp_path)) == 5 and leftovers(tmp_path) == []


def user_api(sandbox, cache_dir):
    """A Flickr object that may upload and replace (the sandbox's OAuth user)."""
    return make_api(sandbox, cache_dir, oauth_token=sandbox.oauth_token,
                    oauth_token_secret=sandbox.oauth_token_secret)


def test_replace_then_fetch_gives_the_new_image(sandbox, photos, tmp_path):
    # The cache key (id, secret, size) survives a replace: the library must not serve the old image.
    # The original's URL serves the uploaded bytes themselves (the sandbox draws the smaller sizes).
    with make_api(sandbox, tmp_path / "bytes") as api:
        old, new = api.fetch_photo(photos[0], "n").read_bytes(), api.fetch_photo(photos[1], "q").read_bytes()
    assert old != new
    with user_api(sandbox, tmp_path / "a") as a, make_api(sandbox, tmp_path / "b") as b:
        photo_id = a.upload(old, filename="old.jpg")["photoid"]["_text"]
        info = a.call("flickr.photos.getInfo", photo_id=photo_id)["photo"]
        bare = {key: info[key] for key in ("id", "secret", "server", "originalsecret", "originalformat")}
        assert "lastupdate" not in bare  # nothing to go by
        assert a.fetch_photo(bare, "o").read_bytes() == old
        assert b.fetch_photo(bare, "o").read_bytes() == old  # cached in a second directory too
        a.replace(new, photo_id, filename="new.jpg")
        assert a.fetch_photo(bare, "o").read_bytes() == new  # the replacing object
        assert b.fetch_photo(bare, "o").read_bytes() == new  # another object, another directory


def test_replace_elsewhere_is_seen_through_lastupdate(sandbox, photos, tmp_path):
    # Another process's replace cannot be known: the photo's lastupdate (extras=last_update, or
    # getInfo's dates) is part of the cache key.
    with make_api(sandbox, tmp_path / "bytes") as api:
        old, new = api.fetch_photo(photos[2], "n").read_bytes(), api.fetch_photo(photos[3], "q").read_bytes()
    (tmp_path / "new.jpg").write_bytes(new)
    with user_api(sandbox, tmp_path / "cache") as api:
        photo_id = api.upload(old, filename="old.jpg")["photoid"]["_text"]
        info = api.call("flickr.photos.getInfo", photo_id=photo_id)["photo"]

        def listed():
            recent = api.call("flickr.photos.getRecent", per_page=50, extras="last_update")["photos"]["photo"]
            return next(photo for photo in recent if photo["id"] == photo_id)

        def original(photo):  # the uploaded bytes themselves (the sandbox draws the smaller sizes)
            return api.fetch_photo(photo, "o").read_bytes()

        before = listed()
        assert original(dict(before, originalsecret=info["originalsecret"], originalformat="jpg")) == old
        assert original(info) == old  # dates.lastupdate
        script = textwrap.dedent(f"""
            import flickr
            api = flickr.Flickr({sandbox.api_key!r}, {sandbox.api_secret!r}, oauth_token={sandbox.oauth_token!r},
                                oauth_token_secret={sandbox.oauth_token_secret!r},
                                replace_endpoint={sandbox.url + "/services/replace/"!r})
            api.replace({str(tmp_path / "new.jpg")!r}, {photo_id!r})
        """)
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                                env=dict(os.environ, PYTHONPATH=str(PACKAGE_DIR)))
        assert result.returncode == 0, result.stderr
        after = listed()
        assert after["lastupdate"] != before["lastupdate"]  # bumped, even within the upload's second
        assert original(dict(after, originalsecret=info["originalsecret"], originalformat="jpg")) == new
        info = api.call("flickr.photos.getInfo", photo_id=photo_id)["photo"]
        assert original(info) == new


class HeldCacheLock:
    """The whole of the cache's lock file locked as another program would hold it (a POSIX lock:
    it conflicts with the library's OFD locks, even in this process). A watchdog lets go after
    8 s: the library used to wait for the lock without limit, and a test of that must fail, not hang."""

    def __init__(self, directory):
        self.file = open(os.path.join(directory, ".flickr-cache.lock"), "a+b")
        fcntl.lockf(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        self.watchdog = threading.Timer(8, self.release)

    def release(self):
        self.file.close()  # drops the lock

    def __enter__(self):
        self.watchdog.start()
        return self

    def __exit__(self, *exc_info):
        self.watchdog.cancel()
        self.release()


def test_a_held_cache_lock_ends_at_the_time_limit(sandbox, photos, tmp_path):
    with make_api(sandbox, tmp_path, timeout_ms=1000) as api:
        with HeldCacheLock(tmp_path):
            start = time.monotonic()
            with pytest.raises(flickr.Timeout, match="photo cache entry") as raised:
                api.fetch_photo(photos[0], "q")
            waited = time.monotonic() - start
        print(f"held cache lock: Timeout after {waited:.2f} s of a 1 s time limit")
    assert 0.95 <= waited < 3
    assert photos[0]["secret"] not in str(raised.value)
    with make_api(sandbox, tmp_path) as api:
        assert is_whole_jpeg(api.fetch_photo(photos[0], "q"))  # released: downloaded


CTRL_C_SCRIPT = textwrap.dedent("""
    import sys, flickr
    api = flickr.Flickr("key", "secret", photo_cache_dir=sys.argv[1], photo_endpoint="http://127.0.0.1:9/photos",
                        timeout_ms=60000)
    print("fetching", flush=True)
    try:
        api.fetch_photo({"id": "5", "secret": "ab", "server": "1"}, "b")
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(0)
    print("not interrupted", flush=True)
    sys.exit(1)
""")


def has_open(pid, path):
    """Whether process `pid` has `path` open."""
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == str(path):
                return True
        except OSError:
            pass
    return False


def test_ctrl_c_during_a_cache_lock_wait(tmp_path):
    """The fetch waits for a cache entry another program holds: Ctrl-C raises KeyboardInterrupt at once."""
    with HeldCacheLock(tmp_path):
        process = subprocess.Popen([sys.executable, "-c", CTRL_C_SCRIPT, str(tmp_path)], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=dict(os.environ), preexec_fn=default_sigint)
        try:
            assert process.stdout.readline().strip() == "fetching"
            deadline = time.monotonic() + 10
            # The library opens the lock file inside the call, right before it waits.
            while not has_open(process.pid, tmp_path / ".flickr-cache.lock") and time.monotonic() < deadline:
                time.sleep(0.001)
            sent = time.monotonic()
            process.send_signal(signal.SIGINT)
            output, errors = process.communicate(timeout=30)
        finally:
            process.kill()
        latency = time.monotonic() - sent
    print(f"Ctrl-C during a cache lock wait: KeyboardInterrupt after {latency * 1000:.0f} ms (process exit included)")
    assert process.returncode == 0, (output, errors)
    assert output.strip() == "interrupted"
    assert latency < 1.0
