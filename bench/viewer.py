#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The archive viewer's cost in Chromium against the page it replaced, on a synthetic archive of N
items (bindings/python/tests/viewerarchive.py: no server), both opened from disk, in one run:

    FLICKR_LIBRARY=build/libflickr.so.0 PYTHONPATH=bindings/python:apps:bindings/python/tests:sandbox \\
        python3 bench/viewer.py [N ...]           (default 10000; --runs R, default 3: medians)

Baseline: the single static index.html the backup wrote until issue 43 (`old_page` below, as it
was in flickr/backup/indexes.py), every item in one page. Measured in Debian's Chromium through
Playwright (bindings/python/tests/browsertest.py; any request but file:// fails the run), a fresh
context a run:
- first paint: the first contentful paint, and for the viewer when its grid is drawn with titles
  (its `viewer-ready` mark), from navigation start;
- search: the viewer's list drawn for a word of one item's description (`unique<n>`), from the input
  event, less its 120 ms typing pause: cold (the search chunks loaded) and warm; the old page has no
  search (its descriptions are not in it);
- scroll: to the middle of the list, until that row's titles are drawn (the chunk loaded);
- JS heap used after a garbage collection and the DOM's node count (CDP Performance.getMetrics);
- map: from the Map tab's hash to its markers drawn (Leaflet loaded, a third of the items geotagged).
One JSON line per page and N, then a table with the viewer's ratios to the baseline. Timings are
never test assertions (test_backup_viewer.py checks the behaviour).
"""
import html
import json
import statistics
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

from browsertest import launch, offline_page
from flickr_apps._media.types import BY_EXTENSION
from flickr_apps.backup.indexes import Indexes
from flickr_apps.backup.viewerdata import ViewerData
from playwright.sync_api import sync_playwright

import viewerarchive

DEBOUNCE_MS = 120  # app.js waits this long after typing before it searches


def _href(path: str) -> str:
    return html.escape(urllib.parse.quote(path), quote=True)


def old_page(account: dict[str, Any], items: list[dict[str, Any]], albums: list[dict[str, Any]]) -> str:
    """The baseline: index.html as the backup wrote it before the viewer (Indexes.page, main at e581171)."""
    who = account.get("realname") or account.get("username") or str(account.get("nsid", ""))
    rows = []
    month = None
    for item in sorted(items, key=lambda i: (str(i["taken"]), i["id"]), reverse=True):
        if not item["path"]:
            continue
        here = str(item["path"]).rsplit("/", 1)[0]
        if here != month:
            month = here
            rows.append(f"<h2>{html.escape(here)}</h2>")
        title = html.escape(item["title"] or "(untitled)")
        media = BY_EXTENSION.get(str(item["path"]).rsplit(".", 1)[-1].lower())
        if media is None or not media.video:
            shown = f'<img loading="lazy" src="{_href(item["path"])}" alt="{title}">'
        else:
            shown = f'<video preload="none" controls src="{_href(item["path"])}"></video>'
        deleted = " (deleted on Flickr)" if item["deleted_on_flickr"] else ""
        rows.append(f'<figure>{shown}<figcaption><a href="{_href(item["path"])}">{title}</a>{deleted}'
                    f' · <a href="{_href(item["sidecar"] or "")}">json</a></figcaption></figure>')
    album_links = "".join(f'<li><a href="{_href(a["folder"])}/">{html.escape(a["title"])}</a></li>' for a in albums)
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>Flickr backup of {html.escape(who)}</title>"
            "<style>body{font-family:sans-serif}figure{display:inline-block;width:220px;margin:4px;"
            "vertical-align:top}img,video{max-width:210px;max-height:210px}figcaption{font-size:small}</style>"
            f"</head><body><h1>Flickr backup of {html.escape(who)}</h1>"
            f"<p>{len(items)} items. <a href=\"index.json\">index.json</a></p>"
            f"<h2>Albums</h2><ul>{album_links}</ul>{''.join(rows)}</body></html>\n")


def metrics(page) -> dict[str, float]:
    cdp = page.context.new_cdp_session(page)
    cdp.send("HeapProfiler.enable")
    cdp.send("HeapProfiler.collectGarbage")
    cdp.send("Performance.enable")
    found = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {"heap_mb": round(found["JSHeapUsedSize"] / 2**20, 2), "nodes": int(found["Nodes"])}


# Waits are polled inside the page: the viewer's CSP refuses the eval behind wait_for_function.
UNTIL = """(test) => new Promise((resolve) => {
    const check = () => { const found = test(); if (found !== undefined) resolve(found); else setTimeout(check, 5); };
    check(); })"""


def paint(page) -> float:
    return page.evaluate(UNTIL.replace("(test)", "()").replace("test()", "(() => { const e = performance."
                         "getEntriesByName('first-contentful-paint'); return e.length ? e[0].startTime : undefined; })()"))


def measure_old(browser, url: str) -> dict[str, Any]:
    with offline_page(browser, 600_000) as page:  # 100,000 items: its load event comes after 90 s and more
        page.goto(url, wait_until="load")
        return {"first_paint_ms": paint(page), "load_ms": page.evaluate("performance.timing.loadEventEnd - "
                                                                        "performance.timing.navigationStart"),
                **metrics(page)}


def search_ms(page, word: str, count: int) -> float:
    """From the input event to the next list drawn (its `viewer-list` mark), less the typing pause."""
    t0 = page.evaluate("""(word) => {
        const t0 = performance.now(), input = document.getElementById('q');
        input.value = word;
        input.dispatchEvent(new Event('input', {bubbles: true}));
        return t0; }""", word)
    drawn = page.evaluate(UNTIL.replace("(test)", "(t0)").replace("test()", "(performance.getEntriesByName("
                          "'viewer-list').map((m) => m.startTime).find((t) => t > t0))"), t0)
    status = page.evaluate("document.getElementById('status').textContent")
    assert status == f"1 of {count} items match", status
    return round(drawn - t0 - DEBOUNCE_MS, 1)


def measure_new(browser, url: str, count: int) -> dict[str, Any]:
    with offline_page(browser, 120_000) as page:
        page.goto(url, wait_until="load")
        page.wait_for_selector("html[data-ready=true]")
        first = paint(page)
        ready = page.evaluate("performance.getEntriesByName('viewer-ready')[0].startTime")
        idle = metrics(page)
        scroll = page.evaluate("""() => new Promise((resolve) => {
            const t0 = performance.now(), grid = document.getElementById('grid');
            scrollTo(0, grid.offsetTop + grid.offsetHeight / 2);
            const check = () => {
              const cells = [...grid.querySelectorAll('.cell')].filter((c) => c.getBoundingClientRect().top > 0
                                                                        && c.getBoundingClientRect().top < innerHeight);
              if (cells.length && cells.every((c) => c.querySelector('.caption').textContent !== '…')) resolve(performance.now() - t0);
              else requestAnimationFrame(check);
            };
            requestAnimationFrame(check); })""")
        page.evaluate("scrollTo(0, 0)")
        cold = search_ms(page, f"unique{count // 2}", count)
        warm = search_ms(page, f"unique{count // 3}", count)
        searched = metrics(page)
        page.evaluate("document.getElementById('q').value = ''")
        map_ms = page.evaluate(UNTIL.replace("(test)", "()").replace("test()", "(window.mapT0 ??= (location.hash = '#/map',"
                               " performance.now()), document.getElementById('map').dataset.pins ? performance.now() - "
                               "window.mapT0 : undefined)"))
        pins = int(page.evaluate("document.getElementById('map').dataset.pins"))
        return {"map_ms": round(map_ms, 1), "map_pins": pins, "first_paint_ms": first, "ready_ms": ready, "scroll_ms": scroll, "search_cold_ms": cold,
                "search_warm_ms": warm, "heap_mb": idle["heap_mb"], "nodes": idle["nodes"],
                "heap_after_search_mb": searched["heap_mb"]}


def medians(runs: list[dict[str, Any]]) -> dict[str, float]:
    return {key: round(statistics.median(r[key] for r in runs), 1) for key in runs[0]}


def bench(browser, count: int, runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="viewer-bench-") as folder:
        root = Path(folder)
        start = time.perf_counter()
        archive = viewerarchive.make(root, count)
        made = time.perf_counter() - start
        try:
            start = time.perf_counter()
            ViewerData(archive).write(archive.account)
            written = time.perf_counter() - start
            items = Indexes(archive).items()
            albums = [{"id": r["id"], "title": json.loads(r["info"])["title"], "folder": f"albums/{r['folder']}"}
                      for r in archive.state.albums("album")]
            (root / "index-old.html").write_text(old_page(archive.account, items, albums), encoding="utf-8")
        finally:
            archive.close()
        data = root / "viewer" / "data"
        sizes = {"old_page_kb": round((root / "index-old.html").stat().st_size / 1024),
                 "new_first_load_kb": round(sum((data / n).stat().st_size for n in ("index.js", "items-0001.js"))
                                            / 1024 + sum(p.stat().st_size for p in (root / "viewer").glob("*.*")
                                                         if p.name.startswith(("app", "style"))) / 1024),
                 "new_data_kb": round(sum(p.stat().st_size for p in data.iterdir()) / 1024)}
        old = medians([measure_old(browser, (root / "index-old.html").as_uri()) for _ in range(runs)])
        new = medians([measure_new(browser, (root / "index.html").as_uri(), count) for _ in range(runs)])
        print(json.dumps({"page": "old (baseline)", "items": count, **old, "page_kb": sizes["old_page_kb"]}), flush=True)
        print(json.dumps({"page": "viewer", "items": count, **new, "first_load_kb": sizes["new_first_load_kb"],
                          "data_kb": sizes["new_data_kb"], "write_s": round(written, 2), "made_s": round(made, 1)}),
              flush=True)
        print(f"\n| {count:,} items | baseline (old page) | viewer | ratio |\n|---|---|---|---|")
        for label, key_old, key_new in (("first contentful paint, ms", "first_paint_ms", "first_paint_ms"),
                                        ("page usable, ms (old: load event; viewer: grid drawn)", "load_ms", "ready_ms"),
                                        ("JS heap used, MB", "heap_mb", "heap_mb"), ("DOM nodes", "nodes", "nodes")):
            print(f"| {label} | {old[key_old]:,} | {new[key_new]:,} | {new[key_new] / max(old[key_old], 1e-9):.2f}× |")
        print(f"| bytes read to show the first screen, KB | {sizes['old_page_kb']:,} | {sizes['new_first_load_kb']:,} | "
              f"{sizes['new_first_load_kb'] / sizes['old_page_kb']:.2f}× |")
        print(f"| search by a word of a description, ms (cold / warm) | none | {new['search_cold_ms']} / "
              f"{new['search_warm_ms']} | |")
        print(f"| scroll to the middle, titles drawn, ms | | {new['scroll_ms']} | |")
        print(f"| JS heap after searching, MB | | {new['heap_after_search_mb']} | |")
        print(f"| map of the {int(new['map_pins']):,} geotagged items drawn, ms (Leaflet loaded too) | | {new['map_ms']} | |")
        print(f"| data written by the backup: {sizes['new_data_kb']:,} KB in {written:.2f} s | | | |\n", flush=True)


def main() -> None:
    args = sys.argv[1:]
    runs = 3
    if "--runs" in args:
        at = args.index("--runs")
        runs = int(args[at + 1])
        del args[at:at + 2]
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            for count in [int(a) for a in args] or [10_000]:
                bench(browser, count, runs)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
