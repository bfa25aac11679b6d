# SPDX-License-Identifier: MIT
"""Recents and the photo cache's bound, each across an app restart, in Chromium."""
from __future__ import annotations

import urllib.request
from pathlib import Path

from playwright.sync_api import expect


def public_photos(sandbox, count: int) -> list:
    return sandbox.store.all("SELECT id, title FROM photos WHERE ispublic = 1 AND title != '' "
                             "ORDER BY id LIMIT ?", (count,))


def view(page, viewer, photo_id) -> None:
    """Opens the photo page and waits until the photo is recorded and on screen."""
    with page.expect_response(lambda r: r.url.endswith("/api/recents") and r.request.method == "POST"):
        page.goto(f"{viewer.url}/photos/{photo_id}")
    expect(page.locator("#photo-image")).to_be_visible()


def test_recents_newest_first_without_duplicates_across_a_restart(page, start_viewer, sandbox, tmp_path, shot):
    a, b, c = public_photos(sandbox, 3)
    first = start_viewer(tmp_path)
    for photo in (a, b, c, a):
        view(page, first, photo["id"])
    page.get_by_role("link", name="Recents").click()
    titles = page.locator("#content .list > li .title")
    expect(titles).to_have_text([a["title"], c["title"], b["title"]])
    shot(page, "recents")
    first.stop()

    second = start_viewer(tmp_path)  # a new process would read the same file
    page.goto(second.url + "/recents")
    expect(titles).to_have_text([a["title"], c["title"], b["title"]])
    titles.first.click()
    expect(page.locator("#photo-title")).to_have_text(a["title"])


def cache_files(directory: Path) -> dict[str, int]:
    return {p.name: p.stat().st_size for p in directory.iterdir() if p.is_file() and not p.name.startswith(".")}


def large_image_bytes(sandbox, photo_id) -> int:
    """The size of a photo's 1024 px image as the sandbox serves it (its pictures vary in size)."""
    row = sandbox.store.one("SELECT secret, server FROM photos WHERE id = ?", (photo_id,))
    with urllib.request.urlopen(f"{sandbox.url}/photos/{row['server']}/{photo_id}_{row['secret']}_b.jpg",
                                timeout=30) as answer:
        return len(answer.read())


def test_the_photo_cache_stays_within_its_bound(page, start_viewer, sandbox, tmp_path):
    photos = public_photos(sandbox, 5)
    # The newest and the oldest image fit together, all five do not: viewing the five evicts the
    # oldest, and after a restart the oldest comes back without pushing out the newest.
    bound = large_image_bytes(sandbox, photos[-1]["id"]) + large_image_bytes(sandbox, photos[0]["id"]) + 1000
    viewer = start_viewer(tmp_path, cache_max_bytes=bound)
    cache = tmp_path / "photo-cache"
    for photo in photos:
        view(page, viewer, photo["id"])
        assert sum(cache_files(cache).values()) <= bound
    names = cache_files(cache)
    newest = next(name for name in names if name.startswith(f"flickr-cache-{photos[-1]['id']}_"))  # the newest stays
    assert not any(name.startswith(f"flickr-cache-{photos[0]['id']}_") for name in names)  # the oldest went
    inode = (cache / newest).stat().st_ino
    viewer.stop()

    # After a restart the cache is still there and still bounded: a cached image is not downloaded
    # again (a download would rename a new file into place), an evicted one is.
    second = start_viewer(tmp_path, cache_max_bytes=bound)
    view(page, second, photos[-1]["id"])
    assert (cache / newest).stat().st_ino == inode
    view(page, second, photos[0]["id"])
    names = cache_files(cache)
    assert any(name.startswith(f"flickr-cache-{photos[0]['id']}_") for name in names) and newest in names
    assert sum(names.values()) <= bound
