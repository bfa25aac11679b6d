# SPDX-License-Identifier: MIT
"""The harvest against a server whose every search answers total=10^12 (issue 40): it used to cut
the range into 2^20 slices, rewrite a 30 MB checkpoint after every page and never end. Now it ends
with a clear error after a few dozen calls, its checkpoint small."""
import json
import os
import resource
import subprocess
import sys

import flickr
from libtest import cli_env, running_sandbox
from lyingproxy import attributes, lying

import pytest

SEARCH = "flickr.photos.search"


@pytest.fixture(scope="module")
def server(library_path):
    with running_sandbox() as server:
        yield server


def test_total_of_a_trillion_on_every_answer_ends_the_harvest(server, tmp_path):
    rewrite = lambda page, body: attributes(body, "photos", total=10**12, pages=2 * 10**9)  # noqa: E731
    checkpoint, output = tmp_path / "lie.json", tmp_path / "lie.jsonl"
    with lying(server.url, SEARCH, rewrite, limit=300) as proxy:
        env = cli_env(server, env_extra={"FLICKR_ENDPOINT": proxy.url})
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        run = subprocess.run([sys.executable, "-m", "flickr", "harvest", SEARCH, "user_id=me", "--checkpoint",
                              str(checkpoint), "-o", str(output)], capture_output=True, text=True, env=env, timeout=300)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    calls = proxy.calls[SEARCH]
    size = os.path.getsize(checkpoint) if checkpoint.exists() else 0
    print(f"exit {run.returncode} after {calls} search calls, checkpoint {size} bytes, peak RSS of the CLI "
          f"{max(peak, before) / 1024:.0f} MiB: {run.stderr.strip()[-400:]}")
    assert run.returncode == 1, run.stderr
    assert "the server's totals are not counts" in run.stderr and "Traceback" not in run.stderr
    assert calls < 60
    assert size < 200_000  # 1,024 parts a split at most, where it was 2^20 (a 30 MB checkpoint)


def test_the_checkpoint_stays_small_under_a_trillion(server, tmp_path):
    # The state the lie leaves, saved: it held 2^20 pending slices (a 30 MB checkpoint rewritten
    # after every page); now a split makes 1,024 parts at most.
    rewrite = lambda page, body: attributes(body, "photos", total=10**12, pages=2 * 10**9)  # noqa: E731
    checkpoint = tmp_path / "lie.json"
    s = server.settings
    with lying(server.url, SEARCH, rewrite, limit=300) as proxy, \
            flickr.Flickr(s.api_key, s.api_secret, base_url=proxy.url, oauth_token=s.oauth_token,
                          oauth_token_secret=s.oauth_token_secret) as api:
        harvest = api.harvest(SEARCH, user_id="me", checkpoint=str(checkpoint))
        with pytest.raises(flickr.errors.ParseError):
            for _ in harvest:
                pass
        harvest.save()
    size = checkpoint.stat().st_size
    pending = len(json.loads(checkpoint.read_text())["pending"])
    print(f"{proxy.calls[SEARCH]} search calls; checkpoint {size} bytes, {pending} slices pending")
    assert pending <= 3 * 1024 and size < 200_000


def test_a_slice_whose_page_repeats_ends_the_harvest(server):
    # The whole range says 1,000 items on 2 pages and page 2 repeats page 1: the harvest's page loop
    # has the walk's guard (it used to drop the page as duplicates and call the harvest complete).
    first: list[bytes] = []

    def rewrite(page: int, body: bytes) -> bytes:
        if page == 1:
            first[:] = [body]
        return attributes(first[0], "photos", page=page, total=1000, pages=2)
    s = server.settings
    with lying(server.url, SEARCH, rewrite) as proxy, \
            flickr.Flickr(s.api_key, s.api_secret, base_url=proxy.url, oauth_token=s.oauth_token,
                          oauth_token_secret=s.oauth_token_secret) as api:
        harvest = api.harvest(SEARCH, user_id="me")
        given = []
        with pytest.raises(flickr.errors.ParseError) as caught:
            for item in harvest:
                given.append(item["id"])
    print(f"{proxy.calls[SEARCH]} search calls, {len(given)} items: {caught.value}")
    assert "flickr.photos.search page 2 repeats page 1" in str(caught.value)
    assert proxy.calls[SEARCH] == 2 and len(given) == len(set(given)) > 0
