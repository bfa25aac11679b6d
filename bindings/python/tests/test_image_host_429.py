# SPDX-License-Identifier: MIT
"""`flickr download` and `flickr backup` against an image host that answers 429 Too Many Requests
with Retry-After: the wait is waited and the file is whole; a host that keeps refusing fails the
photo (no smaller size taken in its place: a 429 says "not now", not "not this size"), and the
backup's next run fetches it at its size. The sandbox's standing fault (`--fault SPEC@/photos/`)
refuses the image files only, as a loaded image host does, while the REST calls are answered.

Before the fix a refused original was replaced by the next size down: `flickr download` reported
a 500-pixel file "downloaded", and the backup kept the smaller file as done."""
import json
import os
import time

import flickr
import flickr.backup
from backuptest import client, empty_account, media_files, upload
from flickr_apps.cli.common import EXIT_NETWORK
from flickr_sandbox.pictures.jpeg import placeholder_jpeg
from libtest import run_cli, running_sandbox
from test_cli_download_sizes import served

PHOTO = placeholder_jpeg(640, 480, (20, 120, 60))


def _download(tmp_path, fault: str):
    """(result, seconds, photo id, destination) of `flickr download ID --size o` behind `fault`."""
    with running_sandbox("--fault", fault) as sandbox:
        with client(sandbox) as api:
            photo_id = upload(api, PHOTO, title="limited")
        dest = tmp_path / "out"
        started = time.monotonic()
        result = run_cli(sandbox, "download", photo_id, "--size", "o", "--dest", str(dest), "--json")
        took = time.monotonic() - started
        served_bytes = served_after(sandbox, photo_id)
    return result, took, photo_id, dest, served_bytes


def served_after(sandbox, photo_id: str) -> bytes:
    """The original as the sandbox serves it, once the fault's count has run out (10 at most)."""
    with client(sandbox) as api:
        for _ in range(10):
            try:
                return served(api, photo_id, "Original")
            except OSError:
                continue
    raise AssertionError("the sandbox kept refusing the original")


def test_retry_after_is_waited_out(tmp_path):
    result, took, photo_id, dest, original = _download(tmp_path, "http429=1;times=2;key=images@/photos/")
    assert result.returncode == 0, result.stderr
    (line,) = [json.loads(text) for text in result.stdout.splitlines()]
    assert line["status"] == "downloaded" and line["size"] == "o"
    assert (dest / f"{photo_id}_o.jpg").read_bytes() == original
    print(f"two 429s with Retry-After: 1, then the file: {took:.2f} s, {len(original):,} bytes")
    assert took >= 2.0  # both waits were waited


def test_a_host_that_keeps_refusing_fails_the_photo_without_a_file(tmp_path):
    # 1 + 3 retries (the default) of the original all refused; a smaller size is not tried.
    result, took, photo_id, dest, _ = _download(tmp_path, "http429=1;times=4;key=images@/photos/")
    print(f"exit {result.returncode} after {took:.2f} s: {result.stdout.strip()} {result.stderr.strip()}")
    assert result.returncode == EXIT_NETWORK and "Traceback" not in result.stderr
    (line,) = [json.loads(text) for text in result.stdout.splitlines()]
    assert "HTTP 429" in line["error"] and "status" not in line
    assert os.listdir(dest) == []


def test_the_backup_fails_such_items_and_fetches_them_next_run(tmp_path):
    photos = [placeholder_jpeg(640 + 16 * n, 480, (40 * n, 90, 150)) for n in range(3)]
    # Every request of the first run's three originals is refused: 3 x (1 + 3 retries).
    with running_sandbox("--fault", "http429=1;times=12;key=images@/photos/") as sandbox:
        with client(sandbox) as api:
            empty_account(api)
            ids = [upload(api, data, title=f"limited {n}") for n, data in enumerate(photos)]
            first = flickr.backup.run(api, tmp_path)
            assert sorted(f["id"] for f in first.failed) == sorted(ids), first.failed
            assert "HTTP 429" in first.failed[0]["error"] and media_files(tmp_path) == {}
            second = flickr.backup.run(api, tmp_path)
            originals = {i: served(api, i, "Original") for i in ids}
    print(f"first run: {len(first.failed)} failed, {first.done} done; second: {second.done} done, "
          f"{len(second.failed)} failed")
    assert second.ok and second.done == len(ids)
    files = media_files(tmp_path)
    assert {i: files[i].read_bytes() for i in ids} == originals
