# SPDX-License-Identifier: MIT
"""Deterministic seed data: three users, places, ~300 public photos, photosets.

The same seed always yields the same photos (ids, secrets, titles, dates), so
tests may rely on counts and orderings.  Titles, descriptions and tags mix
ASCII, accented Latin, CJK, emoji and XML-special characters on purpose.
One photo in eleven has no title (some of those have a description, some
neither), as on Flickr.
"""

from __future__ import annotations

import hashlib
import random
import time
from typing import Optional, Tuple

from . import constants as C
from .seed_extras import EXTRAS_SEED, seed_extras
from .store import Store

SEED = 20240428
PHOTO_COUNT = 300
FIRST_PHOTO_ID = 52600000000
FIRST_SET_ID = 72157700000000000

USERS = [
    # nsid, username, realname, path_alias, location, description, date_joined
    (C.USER_NSID, C.USER_NAME, C.USER_REALNAME, C.USER_PATH_ALIAS, "Testville",
     "The libflickr sandbox's seeded test account.", 1104537600),
    (C.OTHER_NSID, C.OTHER_NAME, "Other User", "otheruser", "Lyon, France",
     "Another account with <b>public</b> photos & things.", 1136073600),
    (C.THIRD_NSID, C.THIRD_NAME, "Marie Dupré", None, "Zürich, Switzerland",
     "Photographe amateur — 写真が好き", 1230768000),
]

# place_id, woeid, name, woe_name, type, type_id, place_url, lat, lon, parent
PLACES = [
    ("nz.gsghTUb4c2WAecA", "23424977", "United States", "United States", "country", 12,
     "/United+States", 37.167, -95.845, None),
    ("6nYG0nJTUbMn", "2347563", "California, US, United States", "California", "region", 8,
     "/United+States/California", 37.271, -119.270, "nz.gsghTUb4c2WAecA"),
    ("7.MJR8tTVrIO1EgB", "2487956", "San Francisco, California, US, United States", "San Francisco",
     "locality", 7, "/United+States/California/San+Francisco", 37.777, -122.419, "6nYG0nJTUbMn"),
    ("lbWye9tTUb6GOcp80w", "23424819", "France", "France", "country", 12, "/France", 46.712, 1.718, None),
    ("KDzSRQpQUL9rRBm8", "7153319", "Île-de-France, France", "Île-de-France", "region", 8,
     "/France/%C3%8Ele-de-France", 48.688, 2.503, "lbWye9tTUb6GOcp80w"),
    ("EsIQUYZXU79_kEA", "615702", "Paris, Île-de-France, France", "Paris", "locality", 7,
     "/France/%C3%8Ele-de-France/Paris", 48.857, 2.341, "KDzSRQpQUL9rRBm8"),
    ("dVbyo.ZQUL9PkUbR", "23424856", "Japan", "Japan", "country", 12, "/Japan", 37.487, 139.838, None),
    ("PQ6I3VJQUL9ouYh8", "15015370", "Tokyo Prefecture, Japan", "Tokyo Prefecture", "region", 8,
     "/Japan/Tokyo+Prefecture", 35.689, 139.692, "dVbyo.ZQUL9PkUbR"),
    ("_N2KS.9QUL9SUePA", "1118370", "Tokyo, Tokyo Prefecture, Japan", "Tokyo", "locality", 7,
     "/Japan/Tokyo+Prefecture/Tokyo", 35.670, 139.771, "PQ6I3VJQUL9ouYh8"),
    ("9KVYfbRTUb5htA", "23424957", "Switzerland", "Switzerland", "country", 12, "/Switzerland",
     46.813, 8.224, None),
    ("Lp6.Md1TUb6qTPY", "12817625", "Zürich, Switzerland", "Zürich", "region", 8,
     "/Switzerland/Z%C3%BCrich", 47.417, 8.655, "9KVYfbRTUb5htA"),
    ("MLf5cO1TUb7kPAQ", "784794", "Zürich, Zürich, Switzerland", "Zürich", "locality", 7,
     "/Switzerland/Z%C3%BCrich/Z%C3%BCrich", 47.372, 8.542, "Lp6.Md1TUb6qTPY"),
]
LOCALITIES = [p for p in PLACES if p[4] == "locality"]

TITLES = [
    "Sunset over the bay", "Morning fog", "Café au lait", "Straße in München", "東京の夜",
    "Ñandú at the zoo", "Zürich ✓", "Chouette épervière - Northern hawk-owl", "Tom & Jerry's <show>",
    "\"Quoted\" title", "Kitten on a sofa", "Old bridge", "Spring in Provence", "IMG_0042",
    "Rainy street", "Mountain lake", "Красная площадь", "Street food 🍜", "Lighthouse",
    "Market day", "Snow cat", "Blue hour", "Harbour lights", "Leaves", "Portrait of Anna",
    "Graffiti wall", "Train station", "夕焼け", "Desert road", "Fireworks",
]
DESCRIPTIONS = [
    "", "", "Taken with a 50mm lens.", "Vu depuis la fenêtre — très joli.",
    "A <a href=\"https://example.com/\">link</a> & an ampersand.", "雨の日の散歩。",
    "Line one\nLine two", "",
]
TAGS = [
    "sunset", "beach", "cat", "kitten", "bw", "macro", "paris", "tokyo", "zürich", "street",
    "nature", "night", "snow", "portrait", "city", "写真", "café", "architecture", "sky", "water",
]
MACHINE_TAGS = ["camera:make=canon", "camera:make=nikon", "geo:country=france", "dc:type=image"]
LICENSES = [0, 0, 0, 1, 2, 3, 4, 5, 6, 9, 10]
UNTITLED = 4  # photos with i % 11 == UNTITLED have no title


def _hex(text: str, n: int) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:n]


def photo_secrets(photo_id: int) -> tuple[str, str]:
    """Deterministic (secret, originalsecret) for a photo id."""
    return _hex(f"secret-{photo_id}", 10), _hex(f"original-{photo_id}", 10)


def seed(store: Store) -> None:
    """Fill an empty database; do nothing if it already holds users."""
    if store.one("SELECT 1 FROM users LIMIT 1"):
        ensure_fixed_tokens(store)
        return
    rng = random.Random(SEED)
    with store.transaction():
        # Pro accounts: Flickr's 2025 rule for free accounts (downloads.py) withholds the large
        # sizes of their All Rights Reserved photos; the default seed keeps every size.
        store.many("INSERT INTO users(nsid, username, realname, path_alias, location, description,"
                   " date_joined, iconserver, iconfarm, ispro) VALUES (?,?,?,?,?,?,?,?,?,1)",
                   [u + (C.SERVER, C.FARM) for u in USERS])
        store.many("INSERT INTO places VALUES (?,?,?,?,?,?,?,?,?,?)", PLACES)
        owners = [C.USER_NSID] * 100 + [C.OTHER_NSID] * 120 + [C.THIRD_NSID] * 80
        rng.shuffle(owners)
        start, end = 1546300800, 1714262400  # 2019-01-01 .. 2024-04-28
        uploads = sorted(rng.randrange(start, end) for _ in range(PHOTO_COUNT))
        photo_ids = []
        for i, (owner, uploaded) in enumerate(zip(owners, uploads)):
            photo_id = FIRST_PHOTO_ID + i * 1000003
            photo_ids.append((photo_id, owner))
            secret, original = photo_secrets(photo_id)
            taken = uploaded - rng.randrange(0, 400 * 86400)
            # One photo in eleven is untitled (11 and the 30 titles are coprime, so every
            # title still occurs); its description, empty for some, must stand in.
            title = "" if i % 11 == UNTITLED else f"{TITLES[i % len(TITLES)]} #{i + 1}"
            public = 0 if owner == C.USER_NSID and i % 10 == 3 else 1
            width, height = (3000, 4000) if i % 7 == 0 else (4000, 3000)
            lat, lon, accuracy, place_id = random_geo(rng, 0.6)
            store.run(
                "INSERT INTO photos(id, owner, secret, originalsecret, server, farm, title, description,"
                " ispublic, license, dateupload, lastupdate, datetaken, views, width, height,"
                " latitude, longitude, accuracy, place_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (photo_id, owner, secret, original, C.SERVER, C.FARM, title,
                 DESCRIPTIONS[i % len(DESCRIPTIONS)], public, rng.choice(LICENSES), uploaded,
                 uploaded + rng.randrange(0, 86400 * 30),
                 time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(taken)), rng.randrange(0, 50000),
                 width, height, lat, lon, accuracy, place_id))
            raw_tags = rng.sample(TAGS, rng.randrange(0, 6))
            if rng.random() < 0.1:
                raw_tags.append(rng.choice(MACHINE_TAGS))
            for seq, raw in enumerate(raw_tags, 1):
                store.run("INSERT INTO tags VALUES (?,?,?,?,?,?)",
                          (photo_id, seq, owner, raw, normalize_tag(raw), int(is_machine_tag(raw))))
        mine = [pid for pid, owner in photo_ids if owner == C.USER_NSID]
        for n, (title, desc, members) in enumerate([
                ("Holidays 2023", "Summer trip", mine[:8]),
                ("Café ☕ favourites", "", mine[10:15])], 1):
            set_id = FIRST_SET_ID + n
            store.run("INSERT INTO photosets VALUES (?,?,?,?,?,?,?)",
                      (set_id, C.USER_NSID, title, desc, members[0], 1690000000 + n, 1700000000 + n))
            store.many("INSERT INTO photoset_photos VALUES (?,?,?)",
                       [(set_id, pid, pos) for pos, pid in enumerate(members)])
        store.run("INSERT INTO counters VALUES ('photo', ?)", (photo_ids[-1][0],))
        store.run("INSERT INTO counters VALUES ('photoset', ?)", (FIRST_SET_ID + 10,))
        seed_extras(store, random.Random(EXTRAS_SEED), photo_ids)
    ensure_fixed_tokens(store)


Geo = Tuple[Optional[float], Optional[float], Optional[int], Optional[str]]


def random_geo(rng: random.Random, share: float) -> Geo:
    """(latitude, longitude, accuracy, place_id) near a seeded locality for ``share`` of the
    calls, else all None."""
    if rng.random() >= share:
        return None, None, None, None
    place = rng.choice(LOCALITIES)
    lat = round(place[7] + rng.uniform(-0.05, 0.05), 6)
    lon = round(place[8] + rng.uniform(-0.05, 0.05), 6)
    return lat, lon, rng.randrange(11, 17), str(place[0])


def ensure_fixed_tokens(store: Store) -> None:
    """(Re)create the documented pre-authorised tokens, even in a reused data dir."""
    now = time.time()
    store.run("INSERT OR REPLACE INTO tokens(token, secret, kind, nsid, perms, created) VALUES (?,?,?,?,?,?)",
              (C.OAUTH_TOKEN, C.OAUTH_TOKEN_SECRET, "access", C.USER_NSID, C.PERMS["delete"], now))
    store.run("INSERT OR REPLACE INTO tokens(token, secret, kind, nsid, perms, created) VALUES (?,?,?,?,?,?)",
              (C.AUTH_TOKEN, "", "legacy", C.USER_NSID, C.PERMS["delete"], now))


def is_machine_tag(raw: str) -> bool:
    ns, sep, rest = raw.partition(":")
    return bool(sep and ns and "=" in rest and rest.split("=", 1)[0])


def normalize_tag(raw: str) -> str:
    """Flickr's clean tag: lower case without spaces or punctuation. A machine tag keeps its
    ``namespace:predicate=`` and its value is cleaned as a plain tag is, as in Flickr's recorded
    answers (``film:name=ilforddelta100``): a clean tag never holds a space, which is what
    clients splitting the ``tags`` extra on spaces (gallery-dl) rely on."""
    if is_machine_tag(raw):
        head, _, value = raw.partition("=")
        return head.lower() + "=" + _clean(value)
    return _clean(raw)


def _clean(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())

