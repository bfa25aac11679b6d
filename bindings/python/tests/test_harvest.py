# SPDX-License-Identifier: MIT
"""Harvests against a sandbox seeded with 25,000 items (--seed-photos) that caps a search at 4,000
results as Flickr does: every item once past the cap, the licence split and its completeness
report, a checkpoint resumed after kill -9, shards in separate processes, img2dataset's CSV, and
a server's bad numbers refused."""
import asyncio
import collections
import csv
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

import flickr
from libtest import answering, cli_env, run_cli, running_sandbox

SEEDED = 25_000
ALL = SEEDED + 100  # with the sandbox user's 100 default photos
SEARCH = ["flickr.photos.search", "user_id=me"]


@pytest.fixture(scope="module")
def seeded():
    start = time.perf_counter()
    with running_sandbox("--seed-photos", str(SEEDED)) as server:
        print(f"sandbox with {SEEDED} seeded items up in {time.perf_counter() - start:.1f} s")
        yield server


@pytest.fixture
def api(seeded, library_path):
    s = seeded.settings
    with flickr.Flickr(s.api_key, s.api_secret, base_url=seeded.url, oauth_token=s.oauth_token,
                       oauth_token_secret=s.oauth_token_secret) as client:
        yield client


def ids_once(items) -> set:
    ids = [item["id"] for item in items]
    assert len(ids) == len(set(ids)), f"{len(ids) - len(set(ids))} items given twice"
    return set(ids)


def test_every_item_once_past_the_cap(api):
    start = time.perf_counter()
    harvest = api.harvest("flickr.photos.search", user_id="me", extras="license")
    ids = ids_once(harvest)
    report = harvest.report
    print(f"{len(ids)} items in {time.perf_counter() - start:.2f} s, {report.calls} calls "
          f"({1000 * report.calls / len(ids):.2f} per 1,000), {report.slices_done} slices")
    assert len(ids) == ALL
    assert report.complete and report.items == report.matched == ALL and not report.over_cap
    assert report.calls <= 3 * ALL / 1000  # the minimum is 2 per 1,000 at 500 a page
    # A plain walk stops at the cap: what the harvest is for.
    walked = ids_once(api.walk("flickr.photos.search", user_id="me"))
    assert len(walked) == 4000


def test_a_slice_over_the_cap_at_the_minimum_is_split_by_licence_and_reported(api):
    # One slice of 21 years: the minimum, so it is asked once per licence; All Rights Reserved
    # (about half the items) is still over the cap, and Flickr serves 4,000 of it.
    harvest = api.harvest("flickr.photos.search", user_id="me", min_slice=10**9)
    ids = ids_once(harvest)
    report = harvest.report
    print(json.dumps(report.to_json()))
    assert report.finished and not report.complete
    [piece] = report.over_cap
    total = piece["total"]
    assert piece["license"] == 0 and total > 4000 and piece["from"] == "2004-01-01 00:00:00"
    assert report.matched == ALL and len(ids) == report.items == ALL - (total - 4000)
    assert report.missing == total - 4000


def test_taken_dates_and_a_bounded_range(api):
    lo, hi = 1262304000, 1420070400  # 2010 to 2015
    expected = api.call("flickr.photos.search", user_id="me", min_taken_date="2010-01-01 00:00:00",
                        max_taken_date="2015-01-01 00:00:00", per_page=1)["photos"]["total"]
    harvest = api.harvest("flickr.photos.search", user_id="me", dates="taken", min_taken_date=lo, max_taken_date=hi)
    ids = ids_once(harvest)
    print(f"taken 2010-2015: {len(ids)} of {expected}, {harvest.report.calls} calls")
    assert int(expected) > 4000 and len(ids) == int(expected) and harvest.report.complete


def test_the_slice_being_paged_is_not_done(api):
    # 2008: one slice within the cap (1,469 items), nothing else pending while it is paged.
    harvest = api.harvest("flickr.photos.search", user_id="me", min_upload_date=1199145600, max_upload_date=1230768000)
    first = [next(harvest) for _ in range(100)]
    assert harvest.report.slices_pending == 1 and not harvest.report.finished and not harvest.report.complete
    rest = list(harvest)
    assert len(ids_once(first + rest)) == 1469 and harvest.report.complete


def test_checkpoint_resumed_in_process(api, tmp_path):
    path = str(tmp_path / "harvest.json")
    first = api.harvest("flickr.photos.search", user_id="me", checkpoint=path)
    taken = [next(first) for _ in range(7000)]
    first.close()  # the page being given out when it stopped is given again: at-least-once
    first = api.harvest("flickr.photos.search", user_id="me", checkpoint=path)  # the caller's extra, kept
    first.extra = {"note": "mine", "n": 7}
    first.save()
    first.close()
    second = api.harvest("flickr.photos.search", user_id="me", checkpoint=path)
    assert second.extra == {"note": "mine", "n": 7}
    rest = list(second)
    ids_once(taken), ids_once(rest)
    union = [item["id"] for item in taken] + [item["id"] for item in rest]
    repeated = len(union) - len(set(union))
    print(f"resumed: {len(taken)} + {len(rest)} items, {repeated} given again (the unfinished page)")
    assert len(set(union)) == ALL and repeated < 500 and second.report.items == ALL
    with pytest.raises(flickr.InvalidArgument, match="another harvest"):
        api.harvest("flickr.photos.search", user_id="me", tags="cat", checkpoint=path)
    (tmp_path / "bad.json").write_text('{"version": 1, "query": ')
    with pytest.raises(ValueError, match="not a harvest checkpoint"):
        api.harvest("flickr.photos.search", user_id="me", checkpoint=str(tmp_path / "bad.json"))


def test_cli_resumes_after_kill_9_with_every_item_once(seeded, tmp_path):
    checkpoint, output = tmp_path / "ck.json", tmp_path / "out.jsonl"
    argv = [sys.executable, "-m", "flickr", "harvest", *SEARCH, "--checkpoint", str(checkpoint),
            "--output", str(output), "--progress"]
    child = subprocess.Popen(argv, env=cli_env(seeded), stderr=subprocess.PIPE, text=True)
    try:
        for line in child.stderr:  # the child says how far it is: killed part-way, mid-slice
            # The CLI's one renderer (progress.py): items, this run's rate, calls, slices.
            assert re.fullmatch(r"harvest: \d+ items, [\d.]+ items/s, \d+ calls, \d+ slices pending\n", line), line
            if int(line.split()[1]) >= 9000:
                break
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(30)
        child.stderr.close()
    before = output.read_bytes().count(b"\n")
    assert 8000 <= before < ALL, before  # the report counts the whole page being written
    done = subprocess.run(argv + ["--report"], env=cli_env(seeded), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stderr.strip().splitlines()[-1])
    ids = ids_once(json.loads(line) for line in output.read_text().splitlines())
    print(f"killed after {before} lines; {len(ids)} lines after the resume; report {report}")
    assert len(ids) == ALL and report["complete"] and report["items"] == ALL


def test_shards_in_separate_processes_split_the_work(seeded, tmp_path):
    shards = 3
    children = [subprocess.Popen([sys.executable, "-m", "flickr", "harvest", *SEARCH, "--shard", f"{k}/{shards}",
                                  "--output", str(tmp_path / f"{k}.jsonl"), "--report",
                                  "--checkpoint", str(tmp_path / f"{k}.json")],
                                 env=cli_env(seeded), stderr=subprocess.PIPE, text=True)
                for k in range(1, shards + 1)]
    reports = []
    for child in children:
        _, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        reports.append(json.loads(err.strip().splitlines()[-1]))
    parts = [ids_once(json.loads(line) for line in (tmp_path / f"{k}.jsonl").read_text().splitlines())
             for k in range(1, shards + 1)]
    print("shards:", [len(p) for p in parts], "calls:", [r["calls"] for r in reports])
    assert sum(map(len, parts)) == len(set().union(*parts)) == ALL
    assert all(len(p) > ALL / shards / 2 for p in parts)
    again = run_cli(seeded, "harvest", *SEARCH, "--shard", f"1/{shards}", "--checkpoint", str(tmp_path / "2.json"))
    assert again.returncode == 2 and "another harvest" in again.stderr


def test_img2dataset_csv(seeded, api, tmp_path):
    out = tmp_path / "urls.csv"
    done = run_cli(seeded, "harvest", "flickr.photos.search", "user_id=me", "min_upload_date=1199145600",
                   "max_upload_date=1230768000", "--format", "img2dataset", "-o", str(out))
    assert done.returncode == 0, done.stderr
    with open(out, newline="", encoding="utf-8") as source:
        rows = list(csv.DictReader(source))
    assert list(rows[0]) == ["url", "caption", "id", "owner", "license", "license_name", "license_url"]
    photo = api.call("flickr.photos.getInfo", photo_id=rows[0]["id"])["photo"]
    print(f"{len(rows)} rows; first {rows[0]}")
    assert rows[0]["caption"] == flickr.text(photo["title"])
    assert len({r["id"] for r in rows}) == len(rows) > 100
    assert {r["license_name"] for r in rows} >= {"All Rights Reserved", "Attribution License"}
    # Each URL is one Flickr listed: a photo under 1,024 px gets its largest size, a video is left out
    # and counted (a _b URL of either answered 404: issue 40, 5 rows of 50).
    listed = list(api.walk("flickr.photos.search", user_id="me", min_upload_date=1199145600,
                           max_upload_date=1230768000, extras="media"))
    videos = sum(1 for item in listed if item.get("media") == "video")
    assert videos and len(rows) == len(listed) - videos
    assert f"left out {videos} videos" in done.stderr
    smaller = [r["url"] for r in rows if not r["url"].rsplit(".", 1)[0].endswith("_b")]
    checked = smaller + [r["url"] for r in rows[:5]]
    statuses = collections.Counter(urllib.request.urlopen(url, timeout=60).status for url in checked)
    print(f"{videos} videos left out; {len(smaller)} rows below 1,024 px; statuses of {len(checked)}: {statuses}")
    assert smaller and statuses == {200: len(checked)}


def test_an_incomplete_harvest_says_so_and_exits_8(seeded, tmp_path):
    # One slice of 21 years: licence 0 stays over the cap, so Flickr cannot serve all of it.
    done = run_cli(seeded, "harvest", "flickr.photos.search", "user_id=me", "--min-slice", str(10**9),
                   "-o", str(tmp_path / "out.jsonl"))
    print(done.stderr.strip())
    assert done.returncode == 8, done.stderr
    assert "harvest incomplete: 1 slices over the cap" in done.stderr and "missing" in done.stderr


def test_a_resumed_output_must_be_the_file_the_harvest_wrote(seeded, tmp_path):
    checkpoint, out = tmp_path / "h.json", tmp_path / "out.jsonl"
    args = ["harvest", "flickr.photos.search", "user_id=me", "min_upload_date=1199145600",
            "max_upload_date=1210000000", "--checkpoint", str(checkpoint)]
    first = run_cli(seeded, *args, "-o", str(out))
    assert first.returncode == 0, first.stderr
    written = out.stat().st_size
    other = tmp_path / "other.txt"
    other.write_bytes(b"the user's own file\n" * 10_000)
    size = other.stat().st_size
    assert size > written
    again = run_cli(seeded, *args, "-o", str(other))  # another existing file: it was cut to output_bytes
    print(again.stderr.strip())
    assert again.returncode == 1 and "is another file than the one this checkpoint's harvest wrote" in again.stderr
    assert other.stat().st_size == size
    assert json.loads(checkpoint.read_text())["extra"]["output"]["ino"] == out.stat().st_ino
    out.unlink()
    os.link(other, out)  # the same name, now a hard link to the user's file
    linked = run_cli(seeded, *args, "-o", str(out))
    assert linked.returncode == 1 and "not a regular file with one link" in linked.stderr, linked.stderr
    assert other.stat().st_size == size and "Traceback" not in linked.stderr + again.stderr


def test_async_harvest(seeded, library_path):
    s = seeded.settings

    async def main():
        async with flickr.AsyncFlickr(s.api_key, s.api_secret, base_url=seeded.url, oauth_token=s.oauth_token,
                                      oauth_token_secret=s.oauth_token_secret) as aapi:
            harvest = aapi.harvest("flickr.photos.search", user_id="me", min_upload_date=1199145600,
                                   max_upload_date=1325376000)
            return [item async for item in harvest], harvest.report
    items, report = asyncio.run(main())
    print(f"async: {len(items)} items, {report.calls} calls")
    assert len(ids_once(items)) == report.matched > 4000 and report.complete


@pytest.mark.parametrize("body, what", [
    (b'<photos page="1" pages="1" perpage="500" total="-1"></photos>', "total is not a count"),
    (b'<photos page="1" pages="x" perpage="500" total="3"></photos>', "pages is not a count"),
    (b'<photos page="1" pages="1" perpage="500" total="1"><photo id="12a"/></photos>', "no numeric id"),
    (b'<photos page="1" pages="1" perpage="500" total="1"><photo id="99999999999999999999"/></photos>',
     "no numeric id"),
    (b'<items><item id="1"/></items>', "no paged list"),
])
def test_a_servers_bad_values_are_refused(library_path, body, what):
    body = b'<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="ok">' + body + b'</rsp>'
    with answering(body) as url, flickr.Flickr("key", "secret", base_url=url) as client:
        with pytest.raises(flickr.errors.ParseError, match=what):
            list(client.harvest("flickr.photos.search", text="x", min_upload_date=0, max_upload_date=10))


def test_bad_arguments_are_clear_errors(api):
    for kwargs, what in [({"dates": "posted"}, "dates must be"), ({"shard": (3, 2)}, "shard must be"),
                         ({"min_upload_date": "yesterday"}, "unix seconds"),
                         ({"min_upload_date": 10, "max_upload_date": 5}, "must not be after"),
                         ({"license": "cc"}, "unix seconds|licence ids")]:
        with pytest.raises(flickr.InvalidArgument, match=what):
            api.harvest("flickr.photos.search", user_id="me", **kwargs)



def test_a_damaged_checkpoint_is_a_clear_error(api, tmp_path):
    path = tmp_path / "ck.json"
    first = api.harvest("flickr.photos.search", user_id="me", checkpoint=str(path))
    [next(first) for _ in range(600)]  # past the first page: a slice being paged, with its ids
    first.close()
    good = json.loads(path.read_text())
    assert good["current"]["ids"] and good["pending"]
    damaged = {
        "bad pending": dict(good, pending=[[5, 1, None]]),  # a slice whose end is before its start
        "bad pending ": dict(good, pending=[[1, 5, -1]]),
        "bad current.ids": dict(good, current=dict(good["current"], ids=[-3])),
        "bad counts.items": dict(good, counts=dict(good["counts"], items="many")),
        "bad over_cap": dict(good, over_cap=[[[1, 5, 0]]]),
        "not a harvest checkpoint": dict(good, extra={"a": json.loads("[" * 20 + "1" + "]" * 20)}),  # 16 levels
        "not a harvest checkpoint ": dict(good, counts=dict(good["counts"], calls=1.5)),
    }
    for what, state in damaged.items():
        path.write_text(json.dumps(state))
        with pytest.raises(flickr.InvalidArgument, match=what.strip()) as caught:
            api.harvest("flickr.photos.search", user_id="me", checkpoint=str(path))
        print(caught.value)
    path.write_text(json.dumps(good))
    assert len(list(api.harvest("flickr.photos.search", user_id="me", checkpoint=str(path)))) > 0


def test_a_report_lacking_a_count_or_with_one_of_another_type_is_refused():
    # The report is read from the C library's JSON: a field it lacks (a renamed key) or of another
    # type is an error, not a count of 0 or a string passed on as a count.
    from flickr.harvest import HarvestReport
    good = {"items": 3, "matched": 3, "missing": 0, "duplicates": 0, "calls": 1, "slices_done": 1,
            "slices_pending": 0, "finished": True, "complete": True, "over_cap": []}
    assert HarvestReport.from_json(good).to_json() == good
    bad = [{k: v for k, v in good.items() if k != "calls"}, {**good, "items": "3"}, {**good, "items": True},
           {**good, "finished": 1}, {**good, "over_cap": {}}, []]
    for value in bad:
        with pytest.raises(flickr.errors.ParseError):
            HarvestReport.from_json(value)
    print(f"1 report read, {len(bad)} refused")
