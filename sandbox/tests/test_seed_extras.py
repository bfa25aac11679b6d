# SPDX-License-Identifier: MIT
"""The seed's extras: the default seed's own rows stay as they were, the extras are the same on
every run, and seed_extras() handles a large account in about a second."""
import hashlib
import random
import time

from flickr_sandbox import constants as C
from flickr_sandbox.seed import PLACES, photo_secrets, seed
from flickr_sandbox.seed_extras import seed_extras
from flickr_sandbox.store import Store

# The rows the seed made before seed_extras existed (its columns of then), hashed on that code:
# the extras must not move an id, a date, a title or a count of them.
SEEDED_COLUMNS = {
    "users": "nsid, username, realname, path_alias, location, description, iconserver, iconfarm, ispro, date_joined",
    "photos": "id, owner, secret, originalsecret, server, farm, title, description, ispublic, isfriend, isfamily,"
              " license, safety_level, content_type, hidden, dateupload, lastupdate, datetaken, views, media,"
              " originalformat, width, height, latitude, longitude, accuracy, place_id",
    "tags": "photo_id, seq, author, raw, tag, machine_tag",
    "photosets": "id, owner, title, description, primary_photo, date_create, date_update",
    "photoset_photos": "set_id, photo_id, position",
    "places": "place_id, woeid, name, woe_name, place_type, place_type_id, place_url, latitude, longitude, parent_id",
}
# Changed once on purpose: the three users became Pro (ispro 1), so that Flickr's 2025 rule for free
# accounts (downloads.py) withholds nothing of the default seed; with ispro 0 the digest is that of
# before, 28ba79e2f08886e56d2fb8227ac58efa5244409bd8a45bf17759c011895bc503.
SEEDED_DIGEST = "9776d67e8f7093d0d04a84d0e92f68725357c42f0e6405aa869074cc291f7511"
EXTRA_TABLES = ["comments", "notes", "photo_people", "faves", "exif", "user_prefs", "groups", "group_photos",
                "galleries", "gallery_photos", "collections", "collection_sets"]


def _digest(store, tables):
    digest = hashlib.sha256()
    ids = tuple(p[0] for p in PLACES)
    for table, columns in tables.items():
        where = f"WHERE place_id IN ({','.join('?' * len(ids))})" if table == "places" else ""
        for row in store.all(f"SELECT {columns} FROM {table} {where} ORDER BY 1, 2", ids if where else ()):
            digest.update(repr(tuple(row)).encode())
    return digest.hexdigest()


def test_the_seeded_rows_are_those_of_before(tmp_path):
    store = Store(str(tmp_path))
    seed(store)
    assert _digest(store, SEEDED_COLUMNS) == SEEDED_DIGEST
    store.close()


def test_the_extras_are_the_same_on_every_run(tmp_path):
    digests = []
    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        store = Store(str(tmp_path / run))
        seed(store)
        digests.append(_digest(store, {t: "*" for t in EXTRA_TABLES}))
        counts = {t: store.row(f"SELECT COUNT(*) AS n FROM {t}")["n"] for t in EXTRA_TABLES}
        store.close()
    assert digests[0] == digests[1]
    assert all(counts.values()), counts
    print("extras:", counts)


def test_a_large_account_seeds_in_seconds(tmp_path):
    """20,000 photos of the sandbox user in 200 albums: extras for all of them, timed."""
    store = Store(str(tmp_path))
    seed(store)
    first = 60000000000
    rows = []
    for n in range(20000):
        photo_id = first + n
        secret, original = photo_secrets(photo_id)
        located = n % 3 == 0
        rows.append((photo_id, C.USER_NSID, secret, original, C.SERVER, C.FARM, f"Generated {n}", "", n % 4 != 0,
                     1600000000 + n * 60, 1600000000 + n * 60, "2020-09-13 12:26:40", 4000, 3000,
                     48.85 if located else None, 2.35 if located else None, 16 if located else None,
                     "EsIQUYZXU79_kEA" if located else None))
    with store.transaction():
        store.many("INSERT INTO photos(id, owner, secret, originalsecret, server, farm, title, description,"
                   " ispublic, dateupload, lastupdate, datetaken, width, height, latitude, longitude, accuracy,"
                   " place_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        store.many("INSERT INTO photosets VALUES (?,?,?,?,?,?,?)",
                   [(73000000000000000 + s, C.USER_NSID, f"Album {s}", "", first + s * 100, 1600000000 + s,
                     1600000000 + s) for s in range(200)])
        store.many("INSERT INTO photoset_photos VALUES (?,?,?)",
                   [(73000000000000000 + n // 100, first + n, n % 100) for n in range(20000)])
        started = time.perf_counter()
        seed_extras(store, random.Random(1), [(row[0], row[1]) for row in rows])
        elapsed = time.perf_counter() - started
    exif = store.row("SELECT COUNT(*) AS n FROM exif WHERE photo_id >= ?", (first,))["n"]
    leaves = store.row("SELECT COUNT(*) AS n FROM collections WHERE parent IS NOT NULL AND owner=?",
                       (C.USER_NSID,))["n"]
    print(f"seed_extras: 20000 photos in {elapsed:.2f} s, {exif} EXIF rows, {leaves} leaf collections")
    assert exif > 20000 * 10 and leaves >= 200 // 3
    assert elapsed < 10, elapsed
    store.close()
