# SPDX-License-Identifier: MIT
"""Other people's Flickr tools, unchanged, against a seeded sandbox (issue 31, section 4).

flickr-download and gallery-dl, installed from PyPI into a venv of their own (build/peers-venv,
scripts/venv.sh with tests/peers/requirements.txt: made once, reused until that file changes),
are pointed at a sandbox started as ``python -m flickr_sandbox`` by their REST endpoint constant
only (tests/peers/run_peer.py), once with the default seed and once with ``--seed-photos 30``
(videos, refused originals, hostile titles). Each downloads the sandbox user's whole photostream
and every album; every file must be, byte for byte, the size the tool picks by its own rule from
what the sandbox offers for that item, and the metadata files must carry each item's title and
tags. python-flickrapi's flows (a new token without a browser, token_valid(), the walkers, signed
JSON calls) run in the same venv.

A counting proxy between the tools and the sandbox (tests/peers/callcount.py) records every REST
call; the sandbox's request log (--verbose) counts the photo files fetched. Each test prints its
calls per photo; docs/sandbox-peers.md lists the calls and the gaps found.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import pytest
from sbclient import Client

from peers.callcount import CallCounter, RestCall
from peers.invocation import (FD_NAME, GDL_NAME, PHOTOSTREAM_URL, Invocation, flickr_download, gallery_dl, photostream,
                              tool_env)
from peers.invocation import peers_python as install_peers

from flickr_sandbox import SandboxProcess
from flickr_sandbox import constants as C

FLICKRAPI_FLOWS = Path(__file__).parent / "peers" / "flickrapi_flows.py"
RUN_TIMEOUT = 600  # one tool's run: seconds once the sandbox has drawn the originals
# A photo's file, or a video's (/photos/{user}/{id}/play/{kind}/{secret}/), in the sandbox's log.
PHOTO_FILE = re.compile(r"GET /photos/(?:\w+/\d+_\w+\.\w+|[^/ ]+/\d+/play/\w+/\w+/?) ")
# The accounts the tools download: the default seed (100 photos of the sandbox user, 10 private,
# 2 albums) and one with --seed-photos (videos, refused originals, hostile titles, more albums).
ACCOUNTS = {"default-seed": (), "seed-photos-30": ("--seed-photos", "30")}
# gallery-dl's formats, largest first: the first a photo has is the one it downloads.
GDL_FORMATS = ("Original", "X-Large 6K", "X-Large 5K", "X-Large 4K", "X-Large 3K", "Large 2048", "Large 1600", "Large")


@dataclass
class Size:
    label: str
    width: str
    height: str
    source: str
    media: str


@dataclass
class Photo:
    id: str
    title: str
    tags: list[str]  # clean forms, machine tags included, as photos.getInfo lists them
    media: str
    sizes: list[Size]  # as photos.getSizes lists them
    files: dict[str, bytes] = field(default_factory=dict)  # label: the file the sandbox serves

    def flickr_download_pick(self) -> str:
        """python-flickr-api's Photo._getLargestSizeLabel: the largest area of the photo's media,
        the first listed on a tie but for "Original"."""
        best, best_area = "", -1
        for size in self.sizes:
            if size.media != self.media or not (size.width.isdigit() and size.height.isdigit()):
                continue
            area = int(size.width) * int(size.height)
            if area > best_area or (area == best_area and size.label == "Original"):
                best, best_area = size.label, area
        return best

    def gallery_dl_pick(self) -> str:
        """A video's original stream (video.getStreamInfo's "orig"); a photo's first of its 8
        largest formats (the url_ extras), else the last size photos.getSizes lists."""
        labels = [size.label for size in self.sizes]
        if self.media == "video":
            return "Video Original"
        return next((label for label in GDL_FORMATS if label in labels), labels[-1])


@dataclass
class Account:
    photos: dict[str, Photo]  # the sandbox user's whole photostream, private photos included
    albums: dict[str, tuple[str, list[str]]]  # id: (title, photo ids)

    def videos(self, in_albums: bool = False) -> int:
        ids = [i for _, ids in self.albums.values() for i in ids] if in_albums else list(self.photos)
        return sum(self.photos[i].media == "video" for i in ids)


@dataclass
class Run:
    """One tool run: what it printed, the REST calls it made, the photo files it fetched."""

    tool: str
    stdout: str
    stderr: str
    calls: list[RestCall]
    files_fetched: int
    seconds: float
    account: str
    photos: int = 0
    problems: list[str] = field(default_factory=list)

    def report(self, what: str) -> str:
        per_photo = f"{len(self.calls) / self.photos:.2f}" if self.photos else "n/a"
        lines = [f"{self.tool} {what} ({self.account}): {self.photos} photos in {self.seconds:.1f} s, {len(self.calls)} REST calls "
                 f"({per_photo} per photo), {self.files_fetched} photo files fetched"]
        lines += [f"  {n:4d} x {call}" for call, n in Counter(str(c) for c in self.calls).items()]
        return "\n".join(lines)


class Peers:
    """The sandbox, the proxy in front of it, and the peers' venv: runs a tool, counts its calls."""

    def __init__(self, python: str, sandbox: SandboxProcess, proxy: CallCounter, log: Path, account: str):
        self.python, self.sandbox, self.proxy, self.log, self.account = python, sandbox, proxy, log, account

    def fetched(self) -> int:
        return sum(1 for line in self.log.read_text("utf-8", "replace").splitlines() if PHOTO_FILE.search(line))

    def run(self, name: str, argv: list[str], cwd: Path, home: Path) -> Run:
        """Run a script of tests/peers in the peers' venv; a non-zero exit is one of the run's problems."""
        cwd.mkdir(parents=True, exist_ok=True)
        mark, fetched, start = self.proxy.mark(), self.fetched(), time.monotonic()
        done = subprocess.run([self.python, *argv], cwd=cwd, env=tool_env(home), capture_output=True,
                              text=True, encoding="utf-8", errors="replace", timeout=RUN_TIMEOUT)
        run = Run(name, done.stdout, done.stderr, self.proxy.since(mark), self.fetched() - fetched,
                  time.monotonic() - start, self.account)
        if done.returncode != 0:
            # A problem among the others: what it downloaded before it stopped is checked too.
            run.problems.append(f"{name} exited {done.returncode}; calls: {[str(c) for c in run.calls][:20]}\n"
                                f"stderr:\n{done.stderr[-4000:]}")
        return run

    def tool(self, invocation: Invocation) -> Run:
        """Run flickr-download or gallery-dl, its REST endpoint the counting proxy."""
        return self.run(invocation.tool, invocation.argv(self.proxy.url + "/services/rest/"), invocation.cwd,
                        invocation.home)


@pytest.fixture(scope="module")
def peers_python() -> str:
    """build/peers-venv's python: made (or reused) by scripts/venv.sh from tests/peers/requirements.txt."""
    start = time.monotonic()
    python = install_peers()
    print(f"peers venv {python} ready in {time.monotonic() - start:.1f} s")
    return python


@pytest.fixture(scope="module", params=list(ACCOUNTS))
def peers(request: pytest.FixtureRequest, peers_python: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Peers]:
    log = tmp_path_factory.mktemp("peers-sandbox") / "requests.log"
    with log.open("w") as stderr, SandboxProcess("--verbose", *ACCOUNTS[request.param], stderr=stderr) as sandbox, \
            CallCounter(sandbox.url) as proxy:
        yield Peers(peers_python, sandbox, proxy, log, request.param)


@pytest.fixture(scope="module")
def account(peers: Peers) -> Account:
    """The sandbox user's photos and albums, from the sandbox's own XML answers (signed as the user)."""
    client = Client(peers.sandbox)
    start = time.monotonic()
    stream = client.rest("flickr.people.getPhotos", auth="oauth", user_id="me", per_page=500).ok().find("photos")
    ids = [p.get("id") for p in stream.iter("photo")]
    assert len(ids) == len(set(ids)) == int(stream.get("total")) > 0
    photos = {}
    for photo_id in ids:
        info = client.rest("flickr.photos.getInfo", auth="oauth", photo_id=photo_id).ok().find("photo")
        sizes = client.rest("flickr.photos.getSizes", auth="oauth", photo_id=photo_id).ok()
        photo = Photo(photo_id, info.findtext("title") or "", [t.text or "" for t in info.iter("tag")],
                      info.get("media"), [Size(**{k: s.get(k, "") for k in ("label", "width", "height", "source", "media")})
                                          for s in sizes.iter("size")])
        for label in {photo.flickr_download_pick(), photo.gallery_dl_pick()}:
            source = next(size.source for size in photo.sizes if size.label == label)
            reply = client.raw("GET", urllib.parse.urlsplit(source).path)
            assert reply.status == 200, f"{photo_id} {label} {source}: HTTP {reply.status}"
            photo.files[label] = reply.body
        photos[photo_id] = photo
    albums = {}
    for album in client.rest("flickr.photosets.getList", auth="oauth").ok().iter("photoset"):
        listed = client.rest("flickr.photosets.getPhotos", auth="oauth", photoset_id=album.get("id"),
                             user_id=C.USER_NSID, per_page=500).ok()
        albums[album.get("id")] = (album.findtext("title") or "", [p.get("id") for p in listed.iter("photo")])
    assert albums, "the seeded user has no album"
    account = Account(photos, albums)
    print(f"reference ({peers.account}): {len(photos)} items ({account.videos()} videos), {len(albums)} albums, "
          f"files drawn and fetched in {time.monotonic() - start:.1f} s")
    return account


def _check(run: Run, expected: list[Photo], files: dict[str, Path], metadata: dict[str, dict[str, object]],
           where: str) -> None:
    """Every expected photo once, byte for byte the size the tool picks by its own rule from what
    the sandbox offers; its metadata file with its title and tags."""
    want = {p.id: p for p in expected}
    problems = run.problems
    missing = sorted(want.keys() - files.keys())
    if missing:
        problems.append(f"{where}: {len(missing)} of {len(want)} photos not downloaded ({', '.join(missing[:5])}...)")
    problems += [f"{where}: {files[i].name} is no photo of it" for i in sorted(files.keys() - want.keys())]
    for photo_id in sorted(want.keys() & files.keys()):
        photo, data = want[photo_id], files[photo_id].read_bytes()
        label = photo.flickr_download_pick() if run.tool == "flickr-download" else photo.gallery_dl_pick()
        if data != photo.files[label]:
            problems.append(f"{where}: {files[photo_id].name}: {len(data)} bytes, not the {len(photo.files[label])} "
                            f"bytes of the sandbox's {label}")
        meta = metadata.get(photo_id)
        if meta is None:
            problems.append(f"{where}: {files[photo_id].name}: no metadata file")
            continue
        if meta.get("title") != photo.title:
            problems.append(f"{where}: {photo_id}: title {meta.get('title')!r}, not {photo.title!r}")
        tags = meta.get("tags")
        if not isinstance(tags, list) or sorted(map(str, tags)) != sorted(photo.tags):
            problems.append(f"{where}: {photo_id}: tags {tags!r}, not {photo.tags!r}")
    run.photos += len(files)


def _finish(run: Run, what: str, per_photo: int, fixed: int) -> None:
    """Print the counts; fail with every problem found, and if calls grow past the tool's rate."""
    print(run.report(what))
    budget = per_photo * run.photos + fixed
    if len(run.calls) > budget:
        run.problems.append(f"{len(run.calls)} REST calls for {run.photos} photos: more than {budget}")
    assert not run.problems, f"{len(run.problems)} problems:\n" + "\n".join(run.problems[:60])


def _metadata(image: Path) -> dict[str, object] | None:
    meta = image.with_name(image.name + ".json")
    if not meta.exists():
        return None
    try:
        loaded = json.loads(meta.read_text("utf-8"))
    except ValueError as err:
        return {"title": f"<{meta.name} is not JSON ({err}): {meta.read_text('utf-8')[:80]!r}>"}
    return loaded if isinstance(loaded, dict) else {"title": f"<{meta.name} holds {type(loaded).__name__}>"}


def _collect(folder: Path, name_id: re.Pattern[str]) -> tuple[dict[str, Path], dict[str, dict[str, object]], list[str]]:
    """The photo files under folder by photo id (from the file name), their metadata, duplicates."""
    files: dict[str, Path] = {}
    metadata: dict[str, dict[str, object]] = {}
    duplicates = []
    for image in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix != ".json" and p.name[0] != "."):
        match = name_id.search(image.name)
        assert match, f"{image}: no photo id in the file name"
        if match.group(1) in files:
            duplicates.append(f"{folder.name}: photo {match.group(1)} twice: {files[match.group(1)].name}, {image.name}")
        files[match.group(1)] = image
        meta = _metadata(image)
        if meta is not None:
            metadata[match.group(1)] = meta
    return files, metadata, duplicates


# -- flickr-download 0.3.7 on python-flickr-api 0.7.8 ---------------------------------------------

# The tools' options, folders and file names: tests/peers/invocation.py (bench/run.py runs them too).


def test_flickr_download_photostream(peers: Peers, account: Account, tmp_path: Path) -> None:
    invocation = photostream("flickr-download", tmp_path)
    run, out = peers.tool(invocation), invocation.out
    files, metadata, duplicates = _collect(out / C.USER_NAME, FD_NAME) if (out / C.USER_NAME).is_dir() else ({}, {}, [])
    run.problems += duplicates
    # Its JSON is python-flickr-api's Photo, tags written as their text (clean form).
    _check(run, list(account.photos.values()), files, metadata, "photostream")
    # people.getPhotos by pages of 100; per photo getInfo, getSizes, getExif.
    _finish(run, "photostream (-p)", per_photo=3, fixed=2 + math.ceil(len(account.photos) / 100))


def test_flickr_download_albums(peers: Peers, account: Account, tmp_path: Path) -> None:
    invocation = flickr_download(tmp_path, "-u", C.USER_NAME)
    run, out = peers.tool(invocation), invocation.out
    # A folder per album, named by its title as pathvalidate cleans it ("<all>" loses its "<>"):
    # each album's is the folder of its title, else the one holding exactly its photos.
    folders = {p.name: _collect(p, FD_NAME) for p in out.iterdir() if p.is_dir()} if out.is_dir() else {}
    for album_id, (title, ids) in account.albums.items():
        name = title if title in folders else next((n for n, f in folders.items() if sorted(f[0]) == sorted(ids)), None)
        if name is None:
            run.problems.append(f"album {album_id} {title!r}: no folder (folders: {sorted(folders)})")
            continue
        files, metadata, duplicates = folders.pop(name)
        run.problems += duplicates
        _check(run, [account.photos[i] for i in ids], files, metadata, f"album {title!r}")
    _finish(run, "albums (-u)", per_photo=3, fixed=2 + 2 * len(account.albums))


# -- gallery-dl 1.32 -----------------------------------------------------------------------------

def test_gallery_dl_photostream(peers: Peers, account: Account, tmp_path: Path) -> None:
    invocation = photostream("gallery-dl", tmp_path)
    run, out = peers.tool(invocation), invocation.out
    files, metadata, duplicates = _collect(out, GDL_NAME) if out.is_dir() else ({}, {}, [])
    run.problems += duplicates
    _check(run, list(account.photos.values()), files, metadata, "photostream")
    # urls.lookupUser, then people.getPhotos by pages of 100 with the extras: no call per photo
    # but video.getStreamInfo for a video.
    _finish(run, "photostream", per_photo=0, fixed=1 + math.ceil(len(account.photos) / 100) + account.videos())


def test_gallery_dl_albums(peers: Peers, account: Account, tmp_path: Path) -> None:
    invocation = gallery_dl(tmp_path, PHOTOSTREAM_URL + "albums")
    run, out = peers.tool(invocation), invocation.out
    folders = {p.name: p for p in (out / "Albums").iterdir() if p.is_dir()} if (out / "Albums").is_dir() else {}
    for album_id, (title, ids) in account.albums.items():
        # "{id} {title}", the title cleaned of what a file name may not hold.
        folder = next((f for name, f in folders.items() if name.startswith(f"{album_id} ")), None)
        if folder is None:
            run.problems.append(f"album {album_id} {title!r}: no folder (folders: {sorted(folders)})")
            continue
        files, metadata, duplicates = _collect(folder, GDL_NAME)
        run.problems += duplicates
        _check(run, [account.photos[i] for i in ids], files, metadata, f"album {title!r}")
    # urls.lookupUser, photosets.getList; per album urls.lookupUser, photosets.getInfo, getPhotos
    # (and getStreamInfo per video).
    _finish(run, "albums", per_photo=0, fixed=2 + 3 * len(account.albums) + account.videos(in_albums=True))


# -- python-flickrapi 2.4 ------------------------------------------------------------------------

def test_flickrapi_flows(peers: Peers, account: Account, tmp_path: Path) -> None:
    run = peers.run("flickrapi", [str(FLICKRAPI_FLOWS), peers.sandbox.url, str(tmp_path)], tmp_path, tmp_path / "home")
    lines = run.stdout.strip().splitlines()
    assert not run.problems and lines, "\n".join(run.problems) or f"flickrapi_flows.py printed nothing\n{run.stderr}"
    seen = json.loads(lines[-1])
    assert seen["new_token"] == {"verifier": True, "nsid": C.USER_NSID, "username": C.USER_NAME,
                                 "valid_read": True, "valid_write": False, "kept": False}
    assert seen["stored_valid_delete"] is True and seen["login"] == C.USER_NSID
    # The walkers: the whole photostream by pages of 7, each album by pages of 3, a tag search by 5.
    stream = list(account.photos)
    assert seen["walk_user"] == stream
    assert seen["sets"] == {album_id: ids for album_id, (_, ids) in account.albums.items()}
    tagged = [i for i in stream if "beach" in account.photos[i].tags]
    assert tagged and seen["walk_search"] == tagged
    # Signed JSON: Flickr sends the total as a number.
    assert seen["json_total"] == len(stream) and seen["json_first"] == account.photos[stream[0]].title
    print(f"flickrapi: {len(seen['walk_user'])} photos walked, {len(seen['sets'])} albums, "
          f"{len(seen['walk_search'])} found by tag")
