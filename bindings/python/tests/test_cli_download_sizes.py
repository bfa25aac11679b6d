# SPDX-License-Identifier: MIT
"""`flickr download`: the size taken (SIZE or the largest below it, --exact-size), originals Flickr
refuses, videos' own files, and files of any size streamed to disk, against the sandbox."""
import json
import os
import subprocess
import sys
import urllib.request

import pytest

from backuptest import client, jpeg, mp4, upload
from flickr_apps._media.sizes import NOT_OFFERED
from flickr_sandbox.images import header_dimensions
from flickr_sandbox.pictures.jpeg import placeholder_jpeg
from libtest import cli_env, run_cli, running_sandbox

WIDE = placeholder_jpeg(2100, 900, (200, 30, 30))  # every size up to k (2048)
SMALL = placeholder_jpeg(300, 200, (30, 30, 200))  # up to m (240): no b, its original is 300 px
CACHE_BOUND = 10 * 1024 * 1024  # the photo cache's default bound, which downloads used to go through


@pytest.fixture
def sandbox(module_sandbox):
    return module_sandbox  # uploads of the module's own (test_cli_download.py's sandbox, and conftest's)


@pytest.fixture
def run(sandbox):
    """`flickr ARGV` against the sandbox; downloads no longer touch the photo cache."""
    return lambda *argv: run_cli(sandbox, *argv)


def records(result) -> list:
    """The --json lines."""
    return list(map(json.loads, result.stdout.splitlines()))


def served(api, photo_id: str, label: str) -> bytes:
    """The bytes the sandbox serves for the photo's size `label` (getSizes' source)."""
    sizes = api.call("flickr.photos.getSizes", photo_id=photo_id)["sizes"]["size"]
    (source,) = [size["source"] for size in sizes if size["label"] == label]
    with urllib.request.urlopen(source, timeout=60) as answer:
        return answer.read()


def test_exact_size_fails_a_photo_without_that_size_clearly(sandbox, run, tmp_path):
    with client(sandbox) as api:
        small, wide = upload(api, SMALL, title="small"), upload(api, WIDE, title="wide")
    dest = tmp_path / "out"
    result = run("download", small, wide, "--size", "h", "--exact-size", "--dest", str(dest), "--json")
    assert result.returncode == 1, result.stderr
    lines = records(result)
    assert lines[0]["error"] == "Flickr lists no h size for it (its original is smaller, or its owner keeps " \
                                "large sizes to themselves)" and "status" not in lines[0]
    assert lines[1]["status"] == "downloaded" and lines[1]["size"] == "h" and "why" not in lines[1]
    assert sorted(os.listdir(dest)) == [f"{wide}_h.jpg"]
    assert header_dimensions((dest / f"{wide}_h.jpg").read_bytes()) == (1600, 686)
    # Without it: the largest below h that each has (the small one's 300 px original).
    fallback = run("download", small, wide, "--size", "h", "--dest", str(dest), "--json")
    assert fallback.returncode == 0, fallback.stderr
    assert [(line["status"], line["size"]) for line in records(fallback)] == [("downloaded", "o"), ("identical", "h")]
    assert (dest / f"{small}_o.jpg").read_bytes() == SMALL
    print(f"exact: exit {result.returncode}; fallback: {[line['label'] for line in records(fallback)]}")


def test_a_link_planted_at_the_fallback_name_is_not_followed(sandbox, run, tmp_path):
    with client(sandbox) as api:
        small = upload(api, SMALL, title="small")
    dest, precious = tmp_path / "out", tmp_path / "precious"
    dest.mkdir()
    precious.write_bytes(b"keep me")
    os.symlink(precious, dest / f"{small}_o.jpg")
    refused = run("download", small, "--dest", str(dest))
    assert refused.returncode == 1 and "exists with other content" in refused.stderr, refused.stderr
    forced = run("download", small, "--dest", str(dest), "--overwrite")
    assert forced.returncode == 0, forced.stderr
    assert precious.read_bytes() == b"keep me" and not (dest / f"{small}_o.jpg").is_symlink()
    assert (dest / f"{small}_o.jpg").read_bytes() == SMALL
    assert os.listdir(dest) == [f"{small}_o.jpg"]  # the private folder the files arrived in is gone


def test_a_video_is_its_video_file(sandbox, run, tmp_path):
    data = mp4(7)
    with client(sandbox) as api:
        video = upload(api, data, title="a video", tags="avideo")
        original, site = served(api, video, "Video Original"), served(api, video, "Site MP4")
    assert original == data
    dest = tmp_path / "out"
    result = run("download", video, "--size", "o", "--dest", str(dest), "--json")
    assert result.returncode == 0, result.stderr
    (line,) = records(result)
    assert (line["size"], line["label"]) == ("o", "Video Original") and "why" not in line
    assert (dest / f"{video}_o.mp4").read_bytes() == data
    # The default size (b, 1024 px): the largest video file no longer than that, Site MP4 (640 px).
    default = run("download", video, "--dest", str(dest), "--json")
    assert default.returncode == 0, default.stderr
    assert records(default)[0]["label"] == "Site MP4" and "why" not in records(default)[0]
    assert (dest / f"{video}_site-mp4.mp4").read_bytes() == site
    # Exactly z (640 px): Site MP4 again; exactly b: no video file is 1024 px.
    exact = run("download", video, "--size", "z", "--exact-size", "--dest", str(tmp_path / "z"), "--json")
    assert exact.returncode == 0 and records(exact)[0]["label"] == "Site MP4", exact.stderr
    none = run("download", video, "--size", "b", "--exact-size", "--dest", str(tmp_path / "b"))
    assert none.returncode == 1 and "no video file of it is 1024 px on its longest side" in none.stderr, none.stderr
    # Listed by a search (media="video" in its extras): the same file, from getSizes.
    listed = run("download", "--tags", "avideo", "--size", "o", "--dest", str(tmp_path / "listed"), "--json")
    assert listed.returncode == 0 and records(listed)[0]["label"] == "Video Original", listed.stderr
    assert (tmp_path / "listed" / f"{video}_o.mp4").read_bytes() == data
    print(f"video: original {len(original)} bytes, Site MP4 {len(site)} bytes, both byte-identical")


@pytest.fixture(scope="module")
def free_account(library_path):
    """A sandbox whose user is a free account (--seed-photos): Flickr's 2025 rule withholds the
    originals and sizes above 1024 px of its All Rights Reserved photos, an upload's default."""
    with running_sandbox("--seed-photos", "1") as server:
        yield server


def test_a_refused_original_falls_back_to_the_largest_allowed(free_account, tmp_path):
    with client(free_account) as api:
        photo = upload(api, WIDE, title="withheld", tags="withheld")
        labels = [size["label"] for size in api.call("flickr.photos.getSizes", photo_id=photo)["sizes"]["size"]]
    assert "Original" not in labels and "Large 2048" not in labels and "Large" in labels
    dest = tmp_path / "out"
    for source in ([photo], ["--tags", "withheld"]):  # getSizes, then the listing's url_* extras
        result = run_cli(free_account, "download", *source, "--size", "o", "--dest", str(dest), "--json")
        assert result.returncode == 0, result.stderr
        (line,) = records(result)
        assert (line["size"], line["label"], line["why"]) == ("b", "Large", NOT_OFFERED), line
        assert f"(Large, not o: {NOT_OFFERED})" in result.stderr and "1 not at size o" in result.stderr
    assert os.listdir(dest) == [f"{photo}_b.jpg"]
    assert header_dimensions((dest / f"{photo}_b.jpg").read_bytes()) == (1024, 439)
    exact = run_cli(free_account, "download", photo, "--size", "o", "--exact-size", "--dest", str(tmp_path / "x"))
    assert exact.returncode == 1 and f"{photo} (withheld): {NOT_OFFERED}" in exact.stderr, exact.stderr
    assert os.listdir(tmp_path / "x") == []


def test_a_size_the_image_host_refuses_is_followed_by_the_next_one_down(library_path, tmp_path):
    """getSizes lists the original, but the image host answers 404 for it (its stored file is gone):
    the next size down is taken and the line says why; --exact-size fails it with the HTTP exit code."""
    data = tmp_path / "sandbox"
    with running_sandbox("--data", str(data)) as server:
        with client(server) as api:
            photo = upload(api, WIDE, title="lost original")
        for stored in data.rglob(f"{photo}_*"):
            stored.unlink()
        result = run_cli(server, "download", photo, "--size", "o", "--dest", str(tmp_path / "out"), "--json")
        exact = run_cli(server, "download", photo, "--size", "o", "--exact-size", "--dest", str(tmp_path / "x"))
    assert result.returncode == 0, result.stderr
    (line,) = records(result)
    assert (line["size"], line["label"]) == ("k", "Large 2048")
    assert line["why"].startswith("refused when fetched: Original: ") and "HTTP 404" in line["why"], line["why"]
    assert header_dimensions((tmp_path / "out" / f"{photo}_k.jpg").read_bytes()) == (2048, 878)
    assert exact.returncode == 4 and "HTTP 404" in exact.stderr, exact.stderr
    assert os.listdir(tmp_path / "x") == []


def peak_rss_kib(server, *argv) -> tuple[subprocess.CompletedProcess, int]:
    """Runs `python -m flickr ARGV` under a parent that reports its peak resident memory (KiB)."""
    probe = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(r.returncode)")
    result = subprocess.run([sys.executable, "-c", probe, sys.executable, "-m", "flickr", *argv],
                            capture_output=True, text=True, env=cli_env(server), timeout=120)
    return result, int(result.stderr.splitlines()[-1])


def test_a_file_larger_than_the_cache_bound_streams_to_disk(sandbox, tmp_path):
    small_data, large_data = jpeg(1, 1024 * 1024), jpeg(2, 5 * CACHE_BOUND)
    with client(sandbox) as api:
        small, large = upload(api, small_data, title="one MiB"), upload(api, large_data, title="fifty MiB")
    dest = tmp_path / "out"
    first, small_rss = peak_rss_kib(sandbox, "download", small, "--size", "o", "--dest", str(dest))
    assert first.returncode == 0, first.stderr
    result, large_rss = peak_rss_kib(sandbox, "download", large, "--size", "o", "--dest", str(dest))
    assert result.returncode == 0, result.stderr
    assert (dest / f"{large}_o.jpg").read_bytes() == large_data  # five times the photo cache's bound
    assert (dest / f"{small}_o.jpg").read_bytes() == small_data
    growth = large_rss - small_rss
    print(f"peak RSS: {small_rss} KiB for 1 MiB, {large_rss} KiB for {len(large_data) >> 20} MiB "
          f"(+{growth} KiB)")
    assert growth < 16 * 1024, "memory grows with the file"


def test_a_folder_left_by_a_killed_run_is_removed_by_the_next(sandbox, run, tmp_path):
    """A run killed part-way leaves its private folder; the next run removes it, but never one a
    running download holds, nor a link or a folder of another name."""
    import fcntl
    with client(sandbox) as api:
        wide = upload(api, WIDE, title="wide")
    dest = tmp_path / "out"
    abandoned = dest / ".flickr-download-killed"
    abandoned.mkdir(parents=True, mode=0o700)
    (abandoned / "partial.tmp").write_bytes(b"x" * 1000)
    held = dest / ".flickr-download-running"
    held.mkdir(mode=0o700)
    (held / "inflight.tmp").write_bytes(b"y")
    elsewhere = tmp_path / "keep"
    elsewhere.mkdir()
    (elsewhere / "precious").write_bytes(b"z")
    os.symlink(elsewhere, dest / ".flickr-download-link")
    mine = dest / "mine"
    mine.mkdir()
    holder = os.open(held, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        result = run("download", wide, "--dest", str(dest))
    finally:
        os.close(holder)
    assert result.returncode == 0, result.stderr
    left = sorted(os.listdir(dest))
    print("left in dest:", left)
    assert left == [".flickr-download-link", ".flickr-download-running", f"{wide}_b.jpg", "mine"]
    assert (held / "inflight.tmp").read_bytes() == b"y"
    assert (elsewhere / "precious").read_bytes() == b"z"
