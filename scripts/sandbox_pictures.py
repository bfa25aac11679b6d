#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Shows what the sandbox's photo files look like, and how long they take.

Writes PNGs of seeded photos' pictures into build/sandbox-pictures/ (or --out): a contact
sheet of every scene at the n size (320 px), a few photos at z (640 px), a square, and the
k size (2048 px) of one, so that a person can look at them. Then it starts a sandbox and
times the b (1024 px) and k (2048 px) JPEGs of a few photos over HTTP: the first request
draws and encodes the picture, the second is served from the copy kept on disk.

    python3 scripts/sandbox_pictures.py [--out DIR]
"""
from __future__ import annotations

import argparse
import http.client
import pathlib
import sys
import time
import urllib.parse
import xml.etree.ElementTree as ET

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "sandbox"))

from flickr_sandbox import Sandbox  # noqa: E402
from flickr_sandbox.pictures import png, scenes  # noqa: E402
from flickr_sandbox.pictures.raster import Raster  # noqa: E402
from flickr_sandbox.seed import TITLES  # noqa: E402

# Titles of the contact sheet: one of each scene and its variants.
SHEET = ["Sunset over the bay", "Harbour lights", "Lighthouse", "東京の夜", "Blue hour", "Rainy street",
         "Train station", "Mountain lake", "Snow cat", "Kitten on a sofa", "Street food 🍜", "Café au lait",
         "Market day", "Desert road", "Fireworks", "Morning fog", "Portrait of Anna", "Old bridge",
         "Spring in Provence", "Leaves", "Ñandú at the zoo", "IMG_0042"]
TIMED = ["Spring in Provence", "Harbour lights", "Kitten on a sofa"]


def save(raster: Raster, path: pathlib.Path) -> None:
    path.write_bytes(png.write(raster.width, raster.height, raster.pixels))
    print(f"  {path.relative_to(REPO) if path.is_relative_to(REPO) else path} ({raster.width}x{raster.height})")


def seeded(sandbox: Sandbox, title: str):
    """The first seeded photo with this title (seeded titles end in " #n")."""
    return sandbox.store.one("SELECT * FROM photos WHERE title LIKE ? AND file_path IS NULL ORDER BY id LIMIT 1",
                             (title + " #%",))


def examples(sandbox: Sandbox, out: pathlib.Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    print(f"examples in {out}:")
    width, height, gap, columns = 320, 240, 6, 4
    rows = -(-len(SHEET) // columns)
    sheet = Raster(columns * (width + gap) + gap, rows * (height + gap) + gap, (255, 255, 255))
    for i, title in enumerate(SHEET):
        photo = seeded(sandbox, title)
        tile = scenes.render(photo["id"], photo["title"], width, height)
        x0, y0 = gap + (i % columns) * (width + gap), gap + (i // columns) * (height + gap)
        for y in range(height):
            start = ((y0 + y) * sheet.width + x0) * 3
            sheet.pixels[start:start + width * 3] = tile.pixels[y * width * 3:(y + 1) * width * 3]
    save(sheet, out / "contact-sheet-n.png")
    for title in ("Harbour lights", "Kitten on a sofa", "Street food 🍜", "Mountain lake"):
        photo = seeded(sandbox, title)
        name = title.split()[0].lower()
        save(scenes.render(photo["id"], photo["title"], 640, 480), out / f"{name}-z.png")
    upright = sandbox.store.one("SELECT * FROM photos WHERE width < height AND title LIKE 'Fireworks%' LIMIT 1")
    save(scenes.render(upright["id"], upright["title"], 480, 640), out / "fireworks-portrait-z.png")
    photo = seeded(sandbox, "Sunset over the bay")
    save(scenes.render_square(photo["id"], photo["title"], (photo["width"], photo["height"]), 150),
         out / "sunset-q.png")
    photo = seeded(sandbox, "東京の夜")
    save(scenes.render(photo["id"], photo["title"], 2048, 1536), out / "tokyo-k.png")


def timings(sandbox: Sandbox) -> None:
    print("timings over HTTP (first request: drawn and encoded; second: from disk):")
    url = urllib.parse.urlsplit(sandbox.url)
    for title in TIMED:
        photo = seeded(sandbox, title)
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
        conn.request("GET", f"/services/rest/?method=flickr.photos.getSizes&api_key={sandbox.api_key}"
                            f"&photo_id={photo['id']}")
        sizes = {s.get("label"): s.get("source") for s in ET.fromstring(conn.getresponse().read()).iter("size")}
        for label in ("Large", "Large 2048"):
            times = []
            for _ in range(2):
                started = time.perf_counter()
                conn.request("GET", urllib.parse.urlsplit(sizes[label]).path)
                reply = conn.getresponse()
                body = reply.read()
                times.append((time.perf_counter() - started) * 1000)
                assert reply.status == 200 and body[:3] == b"\xff\xd8\xff", (reply.status, body[:20])
            print(f"  {photo['title']:24} {label:10} {len(body) // 1024:4} KiB: "
                  f"first {times[0]:5.0f} ms, kept {times[1]:4.1f} ms")
        conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=pathlib.Path, default=REPO / "build" / "sandbox-pictures")
    args = parser.parse_args()
    assert all(any(t.startswith(title) for t in TITLES) for title in SHEET)
    with Sandbox() as sandbox:
        examples(sandbox, args.out.resolve())
        timings(sandbox)


if __name__ == "__main__":
    main()
