# SPDX-License-Identifier: MIT
"""A harvest never kills its process: checkpoint numbers near 2^63 (counts saturate, pages past
what a slice has are refused), item ids of 2^63 and above kept unsigned in the checkpoint, and one
harvest stepped from several threads (the others are refused as a busy generator is, with
ValueError "generator already executing"). Each case that crashed the library runs in a child
process, so that a crash is reported as one."""
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.parse

import pytest

import flickr
from libtest import PYTHONPATH, answering, running_sandbox

QUERY = {"text": "x", "min_upload_date": 0, "max_upload_date": 10}
BIG = 2**63 - 1


def page_body(ids, total, pages, page=1) -> bytes:
    photos = "".join(f'<photo id="{i}" title="t{i}"/>' for i in ids)
    return (f'<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="ok"><photos page="{page}" pages="{pages}" '
            f'perpage="500" total="{total}">{photos}</photos></rsp>').encode()


@contextlib.contextmanager
def paged_server(pages: dict, total: int, arrived=None, release=None):
    """A server on 127.0.0.1 answering page N of any search with the ids pages[N] (none past the
    last). With `arrived` and `release` (threading.Event), it sets `arrived` when a request comes
    and answers only once `release` is set: a harvest step held inside the library."""
    def answer(path: str) -> bytes:
        page = int(urllib.parse.parse_qs(urllib.parse.urlsplit(path).query).get("page", ["1"])[0])
        if arrived is not None:
            arrived.set()
            release.wait(30)
        return page_body(pages.get(page, []), total, len(pages), page)

    with answering(answer) as url:
        try:
            yield url
        finally:
            if release is not None:
                release.set()  # before the server stops: a held request ends


def run_child(code: str, *args: str) -> subprocess.CompletedProcess:
    """Runs `code` in a new interpreter (the library's crash would end it, not the test run)."""
    env = dict(os.environ, PYTHONPATH=PYTHONPATH)
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120)
    if done.returncode < 0:
        pytest.fail(f"the child died of {signal.Signals(-done.returncode).name}: {done.stderr[-2000:]}")
    return done


# Resumes the checkpoint argv[2] against the server argv[1]; prints the ids given and the report,
# or the error's class and message.
RESUME = """
import json, sys, flickr
with flickr.Flickr("key", "secret", base_url=sys.argv[1]) as api:
    try:
        harvest = api.harvest("flickr.photos.search", checkpoint=sys.argv[2], **json.loads(sys.argv[3]))
        ids = [item["id"] for item in harvest]
        print(json.dumps({"ids": ids, "report": harvest.report.to_json()}))
    except Exception as error:
        print(json.dumps({"error": type(error).__name__, "message": str(error)}))
"""


def resume(url: str, path, query=QUERY) -> dict:
    done = run_child(RESUME, url, str(path), json.dumps(query))
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def first_checkpoint(url: str, path, query=QUERY) -> dict:
    """The checkpoint of a harvest that took page 1 of its one slice and stopped there."""
    with flickr.Flickr("key", "secret", base_url=url) as api:
        harvest = api.harvest("flickr.photos.search", checkpoint=str(path), **query)
        next(harvest)
        harvest.save()
        harvest.close()
    return json.loads(path.read_text())


def test_counts_near_2_63_saturate_and_pages_past_the_slice_are_refused(library_path, tmp_path):
    path = tmp_path / "ck.json"
    # A slice of 501 items (2 pages): page 1 holds 1..500, page 2 holds 501.
    with paged_server({1: range(1, 501), 2: [501]}, total=501) as url:
        good = first_checkpoint(url, path)
        assert good["current"]["next_page"] == 2 and good["current"]["last_page"] == 2
        for name in ["calls", "items", "duplicates", "matched", "slices_done"]:
            path.write_text(json.dumps(dict(good, counts=dict(good["counts"], **{name: BIG}))))
            outcome = resume(url, path)
            print(name, "=", BIG, "->", outcome.get("error") or outcome["report"][name])
            assert outcome["ids"] == ["501"], outcome  # the harvest goes on: the count stays at its bound
            assert outcome["report"][name] == BIG
        # Pages no slice within the cap has (Flickr serves 4,000 results: 8 pages of 500).
        for current in [dict(good["current"], next_page=BIG, last_page=BIG),
                        dict(good["current"], next_page=BIG - 1, last_page=BIG),
                        dict(good["current"], last_page=9), dict(good["current"], next_page=10)]:
            path.write_text(json.dumps(dict(good, current=current)))
            outcome = resume(url, path)
            print(current["next_page"], current["last_page"], "->", outcome)
            assert outcome.get("error") == "InvalidArgument" and "bad current" in outcome["message"]
        path.write_text(json.dumps(dict(good, current=dict(good["current"], next_page=9, last_page=8))))
        assert resume(url, path)["ids"] == []  # the largest accepted: the slice is done


@pytest.mark.parametrize("ids", [[2**63, 2**64 - 1, 5], [2**63 - 1, 2**63]])
def test_ids_of_2_63_and_above_round_trip_through_the_checkpoint(library_path, tmp_path, ids):
    path = tmp_path / "ck.json"
    with paged_server({1: ids, 2: [7]}, total=501) as url:
        saved = first_checkpoint(url, path)
        print("saved ids:", saved["current"]["ids"])
        assert saved["current"]["ids"] == ids  # unsigned, as the server gave them
        outcome = resume(url, path)
        print("resumed:", outcome)
        assert outcome.get("ids") == ["7"], outcome  # the checkpoint is the library's own: taken back
        again = json.loads(path.read_text())
        assert again["current"] is None and again["counts"]["items"] == len(ids) + 1
    # Out of range: refused as before.
    path.write_text(json.dumps(dict(saved, current=dict(saved["current"], ids=[2**64]))))
    with paged_server({1: ids}, total=1) as url:
        outcome = resume(url, path)
    assert outcome.get("error") == "InvalidArgument" and "not a harvest checkpoint" in outcome["message"]


def test_a_second_thread_stepping_a_harvest_is_refused(library_path):
    arrived, release = threading.Event(), threading.Event()
    with paged_server({1: [1, 2]}, total=2, arrived=arrived, release=release) as url, \
            flickr.Flickr("key", "secret", base_url=url) as api:
        harvest = api.harvest("flickr.photos.search", **QUERY)
        taken = []
        stepping = threading.Thread(target=lambda: taken.append(next(harvest)))
        stepping.start()
        assert arrived.wait(30), "the first step never reached the server"
        # The first step is inside the library, waiting for its page: every other use is refused.
        refused = []
        for use in [lambda: next(harvest), harvest.close, lambda: harvest.report, harvest.save,
                    lambda: harvest.extra]:
            with pytest.raises(ValueError, match="generator already executing") as caught:
                use()
            refused.append(caught.value)
        # The library's own refusal, under the binding's: FLICKR_ESTATE for a handle in use.
        item = flickr._ffi.ValuePtr()
        with pytest.raises(flickr.errors.StateError, match="in use by another call"):
            flickr._ffi.lib().flickr_harvest_next(flickr._ffi.ctypes.byref(item), harvest._handle)
        release.set()
        stepping.join(30)
        rest = list(harvest)
        print(f"{len(refused)} uses refused while a step ran; then {len(taken)} + {len(rest)} items")
        assert [item["id"] for item in taken + rest] == ["1", "2"]
        assert harvest.report.items == 2


# Four threads step one harvest (or walk: argv[2]) until it ends; prints the ids each took and the
# errors seen.
THREADS = """
import collections, json, sys, threading, flickr
settings, kind = json.loads(sys.argv[1]), sys.argv[2]
errors = collections.Counter()
taken = [[] for _ in range(4)]
with flickr.Flickr(settings["key"], settings["secret"], base_url=settings["url"], oauth_token=settings["token"],
                   oauth_token_secret=settings["token_secret"]) as api:
    items = getattr(api, kind)("flickr.photos.search", user_id="me")
    def step(mine):
        while True:
            try:
                mine.append(next(items)["id"])
            except StopIteration:
                return
            except Exception as error:
                errors[f"{type(error).__name__}: {error}"] += 1
    threads = [threading.Thread(target=step, args=(taken[i],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps({"taken": taken, "errors": errors}))
"""


@pytest.fixture(scope="module")
def seeded():
    with running_sandbox("--seed-photos", "5000") as server:
        yield server


# A walk of a search stops at Flickr's 4,000 results; the harvest goes past it.
@pytest.mark.parametrize("kind, expected", [("harvest", 5100), ("walk", 4000)])
def test_four_threads_stepping_one_iterator(library_path, seeded, kind, expected):
    s = seeded.settings
    settings = {"key": s.api_key, "secret": s.api_secret, "url": seeded.url, "token": s.oauth_token,
                "token_secret": s.oauth_token_secret}
    done = run_child(THREADS, json.dumps(settings), kind)
    assert done.returncode == 0, done.stderr[-2000:]
    outcome = json.loads(done.stdout)
    ids = [i for mine in outcome["taken"] for i in mine]
    print(f"{kind}: {len(ids)} items by 4 threads ({[len(mine) for mine in outcome['taken']]}), "
          f"refused: {outcome['errors']}")
    assert len(ids) == len(set(ids)) == expected  # each once, none lost
    assert set(outcome["errors"]) <= {"ValueError: generator already executing"}


def test_a_checkpoint_that_is_no_regular_file_is_refused_not_waited_on(library_path, tmp_path):
    """A FIFO named as the checkpoint held the harvest's open for ever (found by an outside test of
    `flickr harvest --checkpoint FIFO`); a folder or a device is no checkpoint either. Each is one
    FileError naming it, at once, and no call is made."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with paged_server({1: range(1, 11)}, total=10) as url:
        for path in (fifo, tmp_path, "/dev/zero"):
            outcome = resume(url, path)
            print(path, "->", outcome)
            assert outcome.get("error") == "FileError", outcome
            assert "is not a regular file" in outcome["message"] and str(path) in outcome["message"]
