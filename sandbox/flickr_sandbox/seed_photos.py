# SPDX-License-Identifier: MIT
"""``--seed-photos N``: a deterministic account of N more items for the sandbox user.

What a real account holds, for tools that archive one: photos and videos (some still
processing), originals the account may not download (the sandbox user becomes a free account:
Flickr's 2025 rule then withholds the large sizes of its All Rights Reserved and non-public
items, ``downloads.py``), public, friends-only, family-only, friends-and-family and private
items, geotags with places, tags and machine tags, titles with characters that break naive
file names and markup, taken dates across the years with their granularity (exact, month,
year, circa), every licence, albums (one item may be in several, some in none); and what
``seed_extras`` adds to any photos (EXIF, comments, notes, people, faves, group pools,
galleries, collections of the albums).  The same N gives the same rows; nothing of the default seed changes
but the sandbox user's Pro flag.

Rows only: pictures and videos are drawn on first request (``pictures``), so 20,000 items
seed in a few seconds.
"""

from __future__ import annotations

import random
import time

from . import constants as C
from .seed import FIRST_SET_ID, TAGS, is_machine_tag, normalize_tag, photo_secrets, random_geo
from .seed_extras import EXTRAS_SEED, seed_extras
from .store import Store

SEED = 20261126
FIRST_ID = 53000000000  # above the default seed's ids (52600000000..52899000897) and its uploads'
FIRST_ALBUM_ID = FIRST_SET_ID + 1000  # above the default seed's albums and the next created ones
ALBUM_SIZE = 100  # items per album of consecutive uploads
FIRST_UPLOAD = 1199145600  # 2008-01-01
LAST_UPLOAD = 1735689600  # 2025-01-01
COUNTER = "seed_photos"  # the N a data directory was seeded with

# (width, height) of the photos, weighted by repetition.
PHOTO_DIMS = [(4000, 3000)] * 6 + [(3000, 4000)] * 3 + [(6000, 4000)] * 2 + [(4032, 3024)] * 3 + \
    [(1600, 1200), (2048, 1365), (800, 600), (6144, 4096)]
VIDEO_DIMS = [(1920, 1080), (1280, 720), (720, 1280), (640, 360)]
VIDEO_EVERY = 25  # one item in 25 is a video...
PROCESSING_EVERY = 5  # ...and one video in 5 is still processing
# (ispublic, isfriend, isfamily), weighted: public, friends, family, friends and family, private.
PRIVACY = [(1, 0, 0)] * 16 + [(0, 1, 0), (0, 0, 1), (0, 1, 1), (0, 0, 0)]
# All Rights Reserved for about half, then every licence Flickr lists (CC 2.0, PD, CC 4.0 ids).
LICENSES = [0] * 9 + [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
# datetakengranularity: 0 exact, 4 month, 6 year, 8 circa; weighted.
GRANULARITY = [0] * 17 + [4, 6, 8]
TITLES = [
    "Sunset over the bay", "Tom & Jerry's <show>", "\"Quoted\" title", "back\\slash and /slash",
    "../../etc/passwd", "CON", "semi;colon: and | pipe?", "trailing dot.", "  leading and trailing spaces  ",
    "東京の夜", "Straße in München", "Красная площадь", "Street food 🍜", "emoji only 🎉🎉",
    "RTL \u202eevil\u202c override", "zero\u200bwidth", "tab\there", "IMG_0042", "DSC01234.JPG",
    "Snow cat", "Harbour lights", "Kitten on a sofa", "Mountain lake", "x" * 255,
]
DESCRIPTIONS = ["", "", "", "A <a href=\"https://example.com/\">link</a> & an ampersand.", "Line one\nLine two",
                "雨の日の散歩。", "<b>bold</b> <i>italic</i>", "100% \"sure\" it's <fine>"]
MACHINE_TAGS = ["camera:make=canon", "camera:make=nikon", "geo:country=france", "dc:type=image",
                "taxonomy:binomial=\"felis catus\"", "upload:tool=sandbox", "flickr:user=sandbox"]
ALBUM_TITLES = ["Holidays", "Trip to Zürich / 2019", "Album <1> & \"2\"", "Family — private mix", "東京",
                "Street food 🍜", "Untitled album", "..", "a/b\\c"]


class SeedMismatch(ValueError):
    """The data directory was seeded with another number of items."""


def seed_photos(store: Store, count: int) -> int:
    """Add ``count`` items to the sandbox user's account (once per data directory); the number
    of items added (0 if they are there already)."""
    if count <= 0:
        return 0
    done = store.one("SELECT value FROM counters WHERE name=?", (COUNTER,))
    if done is not None:
        if done["value"] != count:
            raise SeedMismatch(f"this data directory holds --seed-photos {done['value']}, not {count}")
        return 0
    rng = random.Random(SEED)
    step = min(6 * 3600, (LAST_UPLOAD - FIRST_UPLOAD) // count)
    photos, tags = [], []
    uploaded = FIRST_UPLOAD
    for i in range(count):
        photo_id = FIRST_ID + i
        uploaded += rng.randrange(1, 2 * step + 1)
        video = i % VIDEO_EVERY == VIDEO_EVERY - 1
        status = "processing" if video and (i // VIDEO_EVERY) % PROCESSING_EVERY == PROCESSING_EVERY - 1 else "ready"
        width, height = rng.choice(VIDEO_DIMS if video else PHOTO_DIMS)
        public, friend, family = rng.choice(PRIVACY)
        granularity = rng.choice(GRANULARITY)
        taken = time.gmtime(uploaded - rng.randrange(0, 3 * 365 * 86400))
        taken_text = (time.strftime("%Y-%m-%d %H:%M:%S", taken) if granularity == 0 else
                      time.strftime("%Y-%m-01 00:00:00", taken) if granularity == 4 else
                      time.strftime("%Y-01-01 00:00:00", taken))
        title = "" if i % 13 == 5 else f"{TITLES[i % len(TITLES)]}"
        lat, lon, accuracy, place_id = random_geo(rng, 0.4)
        secret, original = photo_secrets(photo_id)
        photos.append((photo_id, C.USER_NSID, secret, original, C.SERVER, C.FARM, title,
                       DESCRIPTIONS[i % len(DESCRIPTIONS)], public, friend, family, rng.choice(LICENSES),
                       uploaded, uploaded + rng.randrange(0, 86400 * 90), taken_text, granularity,
                       rng.randrange(0, 20000), "video" if video else "photo", status,
                       rng.randrange(3, 121) if video else None, width, height, lat, lon, accuracy, place_id))
        raw_tags = rng.sample(TAGS, rng.randrange(0, 6))
        if rng.random() < 0.3:
            raw_tags.append(rng.choice(MACHINE_TAGS))
        for seq, raw in enumerate(raw_tags, 1):
            tags.append((photo_id, seq, C.USER_NSID, raw, normalize_tag(raw), int(is_machine_tag(raw))))
    with store.transaction():
        store.many("INSERT INTO photos(id, owner, secret, originalsecret, server, farm, title, description,"
                   " ispublic, isfriend, isfamily, license, dateupload, lastupdate, datetaken,"
                   " datetakengranularity, views, media, media_status, duration, width, height,"
                   " latitude, longitude, accuracy, place_id)"
                   " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", photos)
        store.many("INSERT INTO tags VALUES (?,?,?,?,?,?)", tags)
        _albums(store, [row[0] for row in photos], [row[12] for row in photos])
        # EXIF, comments, notes, people, faves, group pools, galleries, and collections of the albums.
        seed_extras(store, random.Random(EXTRAS_SEED + count), [(row[0], row[1]) for row in photos])
        # A free account: Flickr's 2025 rule withholds what downloads.py says.
        store.run("UPDATE users SET ispro = 0 WHERE nsid = ?", (C.USER_NSID,))
        last = store.row("SELECT value FROM counters WHERE name='photo'")["value"]
        store.run("UPDATE counters SET value=? WHERE name='photo'", (max(last, FIRST_ID + count),))
        store.run("INSERT INTO counters VALUES (?, ?)", (COUNTER, count))
    return count


def _albums(store: Store, ids: list[int], uploads: list[int]) -> None:
    """Albums of ALBUM_SIZE consecutive items (the last item of each left out: in no album) and a
    "Best of" album of every 50th item (so items are in two)."""
    albums: list[tuple[int, str, list[int], int]] = []
    for n, start in enumerate(range(0, len(ids), ALBUM_SIZE)):
        members = ids[start:start + ALBUM_SIZE - 1] or ids[start:start + 1]
        albums.append((FIRST_ALBUM_ID + n, f"{ALBUM_TITLES[n % len(ALBUM_TITLES)]} {n + 1}", members, uploads[start]))
    best = ids[::50]
    albums.append((FIRST_ALBUM_ID + len(albums), "Best of ★ <all> & more", best, uploads[-1]))
    store.many("INSERT INTO photosets VALUES (?,?,?,?,?,?,?)",
               [(set_id, C.USER_NSID, title, "Seeded album: " + title, members[0], created, created + 86400)
                for set_id, title, members, created in albums])
    store.many("INSERT INTO photoset_photos VALUES (?,?,?)",
               [(set_id, photo_id, pos) for set_id, _, members, _ in albums for pos, photo_id in enumerate(members)])
    last = store.row("SELECT value FROM counters WHERE name='photoset'")["value"]
    store.run("UPDATE counters SET value=? WHERE name='photoset'", (max(last, albums[-1][0]),))
