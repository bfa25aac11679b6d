# SPDX-License-Identifier: MIT
"""What a real account holds beside its photos: EXIF, comments, notes, people, favourites,
group pools, galleries, collections and places finer than a locality.

``seed_extras(store, rng, photos)`` adds them for any list of photos already in the database
(the default seed's 300, or a generated account's thousands), with its own random generator so
that the photo seed's sequence, ids and counts stay as they were. Rows go in with executemany:
20,000 photos take about a second.
"""

from __future__ import annotations

import random
import sqlite3
from typing import Sequence

from . import constants as C
from .store import Store

EXTRAS_SEED = 20250618
FIRST_NOTE_ID = 72157710000000000
FIRST_GALLERY_ID = 72157721000000000
FIRST_COLLECTION_ID = 72157722000000000
SETS_PER_COLLECTION = 3

# Places below the seed's localities and between its regions and localities, as Flickr's
# reverse geocoding gives them: neighbourhoods (type 22) and counties (type 9).
# place_id, woeid, name, woe_name, type, type_id, place_url, lat, lon, parent
FINER_PLACES = [
    ("Lj8B3DhTUb5gYbY", "12587688", "San Francisco County, California, US, United States",
     "San Francisco County", "county", 9, "/United+States/California/San+Francisco+County", 37.759, -122.439,
     "6nYG0nJTUbMn"),
    ("GbGm.7ZWUb6uU7xN", "23512048", "Mission District, San Francisco, California, US, United States",
     "Mission District", "neighbourhood", 22, "/United+States/California/San+Francisco/Mission+District",
     37.760, -122.417, "7.MJR8tTVrIO1EgB"),
    ("fiLpfclWUb5B8R0", "2379345", "Nob Hill, San Francisco, California, US, United States", "Nob Hill",
     "neighbourhood", 22, "/United+States/California/San+Francisco/Nob+Hill", 37.793, -122.416,
     "7.MJR8tTVrIO1EgB"),
    ("4g4BfbRVU7v3xsgA", "12597155", "Paris, Île-de-France, France", "Paris", "county", 9,
     "/France/%C3%8Ele-de-France/Paris", 48.857, 2.341, "KDzSRQpQUL9rRBm8"),
    ("hSq4aD1VU7q7w6b_", "55863610", "Le Marais, Paris, Île-de-France, France", "Le Marais", "neighbourhood",
     22, "/France/%C3%8Ele-de-France/Paris/Le+Marais", 48.859, 2.362, "EsIQUYZXU79_kEA"),
    ("cz.jz6ZVU7qW8O2I", "20068149", "Montmartre, Paris, Île-de-France, France", "Montmartre",
     "neighbourhood", 22, "/France/%C3%8Ele-de-France/Paris/Montmartre", 48.886, 2.341, "EsIQUYZXU79_kEA"),
    ("Xm5wQ9RQUL9ZpfcU", "28426229", "Shibuya, Tokyo, Tokyo Prefecture, Japan", "Shibuya", "neighbourhood",
     22, "/Japan/Tokyo+Prefecture/Tokyo/Shibuya", 35.662, 139.704, "_N2KS.9QUL9SUePA"),
    ("Zq2xT1JQUL9kQ6m7", "12820376", "Bezirk Zürich, Zürich, Switzerland", "Bezirk Zürich", "county", 9,
     "/Switzerland/Z%C3%BCrich/Bezirk+Z%C3%BCrich", 47.378, 8.538, "Lp6.Md1TUb6qTPY"),
    ("Wy4sU1pTUb4u0rC", "12833437", "Altstadt, Zürich, Zürich, Switzerland", "Altstadt", "neighbourhood", 22,
     "/Switzerland/Z%C3%BCrich/Z%C3%BCrich/Altstadt", 47.372, 8.543, "MLf5cO1TUb7kPAQ"),
]

# make, model, Flickr's camera name, lens focal lengths (mm), f-numbers
CAMERAS = [
    ("Canon", "Canon EOS 5D Mark IV", "Canon EOS 5D Mark IV", (24, 35, 50, 85), ("1.8", "2.8", "4.0", "8.0")),
    ("NIKON CORPORATION", "NIKON D750", "Nikon D750", (28, 50, 105), ("2.0", "5.6", "11.0")),
    ("FUJIFILM", "X-T3", "Fujifilm X-T3", (23, 35, 56), ("1.4", "2.0", "5.6")),
    ("Apple", "iPhone 13", "Apple iPhone 13", (5,), ("1.6",)),
]
EXPOSURES = ["1/30", "1/60", "1/125", "1/250", "1/1000", "2"]
ISOS = [100, 200, 400, 800, 3200]
COMMENTS = [
    "Beautiful light!", "Très belle photo 👏", "素晴らしい写真ですね", "Love the <colours> & the mood",
    "Great shot — was this with the 50mm?",
    'Seen in <a href="https://www.flickr.com/groups/sandboxphotographers/">Sandbox Photographers</a>',
    "Wow!\nAmazing.", '"Fave" for sure',
]
NOTES = ["Look at the bird here", "Mon café préféré ☕", "ここ", "The <old> sign & the door"]
GROUPS = [
    # nsid, name, path_alias, iconserver, iconfarm, members, share of public photos in the pool
    ("34427465497@N01", "Sandbox Photographers", "sandboxphotographers", C.SERVER, C.FARM, 1287, 0.15),
    ("52240257802@N01", "Cafés & Streets ☕", None, C.SERVER, C.FARM, 342, 0.08),
]
GALLERIES = [("Other people's light", "Favourite photos by others, with <b>light</b> & shade."),
             ("Cities 🏙", "")]


def _nsid_number(nsid: str) -> str:
    return nsid.split("@", 1)[0]


def _photo_rows(store: Store, photos: Sequence[tuple[int, str]]) -> list[sqlite3.Row]:
    wanted = {photo_id for photo_id, _ in photos}
    rows = store.all("SELECT id, owner, ispublic, media, dateupload, datetaken, latitude, longitude,"
                     " width, height FROM photos ORDER BY id")
    return [row for row in rows if row["id"] in wanted]


def seed_extras(store: Store, rng: random.Random, photos: Sequence[tuple[int, str]]) -> None:
    """Add the extras for ``photos`` (id, owner); run inside the seeding transaction."""
    rows = _photo_rows(store, photos)
    users = [row["nsid"] for row in store.all("SELECT nsid FROM users ORDER BY nsid")]
    store.many("INSERT OR IGNORE INTO places VALUES (?,?,?,?,?,?,?,?,?,?)",
               [p for p in FINER_PLACES if store.place(str(p[9])) is not None])
    # Marie keeps her EXIF to herself (Flickr's privacy setting "Hide EXIF data").
    store.run("INSERT OR IGNORE INTO user_prefs SELECT nsid, 1 FROM users WHERE nsid = ?", (C.THIRD_NSID,))
    _seed_exif(store, rng, rows)
    _seed_comments_notes_people(store, rng, rows, users)
    _seed_faves(store, rng, rows, users)
    _seed_groups(store, rng, rows)
    _seed_galleries(store, rng, rows)
    _seed_collections(store, sorted({row["owner"] for row in rows}))


def _exif_rows(rng: random.Random, row: sqlite3.Row) -> list[tuple[object, ...]]:
    make, model, _, lenses, apertures = rng.choice(CAMERAS)
    taken = str(row["datetaken"]).replace("-", ":")
    focal, aperture, exposure = rng.choice(lenses), rng.choice(apertures), rng.choice(EXPOSURES)
    seconds = exposure if "/" not in exposure else f"{1 / int(exposure.split('/')[1]):.3f}"
    tags: list[tuple[str, str, str, str, str | None]] = [
        ("IFD0", "Make", "Make", make, None),
        ("IFD0", "Model", "Model", model, None),
        ("IFD0", "ModifyDate", "Date and Time (Modified)", taken, None),
        ("ExifIFD", "ExposureTime", "Exposure", exposure, f"{seconds} sec ({exposure})"),
        ("ExifIFD", "FNumber", "Aperture", aperture, f"f/{aperture}"),
        ("ExifIFD", "ISO", "ISO Speed", str(rng.choice(ISOS)), None),
        ("ExifIFD", "DateTimeOriginal", "Date and Time (Original)", taken, None),
        ("ExifIFD", "CreateDate", "Date and Time (Digitized)", taken, None),
        ("ExifIFD", "Flash", "Flash", rng.choice(["Off, Did not fire", "Auto, Fired"]), None),
        ("ExifIFD", "FocalLength", "Focal Length", f"{focal}.0 mm", f"{focal} mm"),
        ("ExifIFD", "ExifImageWidth", "Exif Image Width", str(row["width"]), None),
        ("ExifIFD", "ExifImageHeight", "Exif Image Height", str(row["height"]), None),
    ]
    if row["latitude"] is not None:
        for axis, value, refs in (("Latitude", row["latitude"], "NS"), ("Longitude", row["longitude"], "EW")):
            ref = refs[0] if value >= 0 else refs[1]
            deg, rest = divmod(abs(value) * 3600, 3600)
            minutes, sec = divmod(rest, 60)
            tags.append(("GPS", f"GPS{axis}Ref", f"GPS {axis} Ref", {"N": "North", "S": "South",
                                                                    "E": "East", "W": "West"}[ref], None))
            tags.append(("GPS", f"GPS{axis}", f"GPS {axis}", f"{int(deg)} deg {int(minutes)}' {sec:.2f}\" {ref}",
                         f"{int(deg)} deg {int(minutes)}' {sec:.2f}\" {ref}"))
    return [(row["id"], seq, *tag) for seq, tag in enumerate(tags, 1)]


def _seed_exif(store: Store, rng: random.Random, rows: list[sqlite3.Row]) -> None:
    # One photo in nine is a scan or an export without EXIF, as many real ones are.
    out: list[tuple[object, ...]] = []
    for row in rows:
        if row["media"] == "photo" and rng.randrange(9):
            out.extend(_exif_rows(rng, row))
    store.many("INSERT OR IGNORE INTO exif VALUES (?,?,?,?,?,?,?)", out)


def _seed_comments_notes_people(store: Store, rng: random.Random, rows: list[sqlite3.Row],
                                users: list[str]) -> None:
    comments: list[tuple[object, ...]] = []
    notes: list[tuple[object, ...]] = []
    people: list[tuple[object, ...]] = []
    next_note = store.next_value("note", FIRST_NOTE_ID)
    for row in rows:
        owner_number = _nsid_number(row["owner"])
        if rng.random() < 0.35:
            when = row["dateupload"]
            for _ in range(rng.randrange(1, 5)):
                when += rng.randrange(600, 40 * 86400)
                comment_number = 72157720000000000 + rng.randrange(10 ** 12)
                comments.append((f"{owner_number}-{row['id']}-{comment_number}", row["id"], rng.choice(users),
                                 when, rng.choice(COMMENTS)))
        if rng.random() < 0.1:
            for _ in range(rng.randrange(1, 3)):
                notes.append((next_note, row["id"], row["owner"], rng.randrange(0, 400), rng.randrange(0, 300),
                              rng.randrange(20, 100), rng.randrange(20, 100), rng.choice(NOTES)))
                next_note += 1
        if rng.random() < 0.07:
            person = rng.choice([u for u in users if u != row["owner"]] or users)
            box = (rng.randrange(0, 400), rng.randrange(0, 300), rng.randrange(30, 100), rng.randrange(30, 100)) \
                if rng.random() < 0.7 else (None, None, None, None)
            people.append((row["id"], person, row["owner"], *box))
    store.many("INSERT OR IGNORE INTO comments VALUES (?,?,?,?,?)", comments)
    store.many("INSERT INTO notes VALUES (?,?,?,?,?,?,?,?)", notes)
    store.many("INSERT OR IGNORE INTO photo_people VALUES (?,?,?,?,?,?,?)", people)
    store.run("INSERT OR REPLACE INTO counters VALUES ('note', ?)", (next_note,))


def _seed_faves(store: Store, rng: random.Random, rows: list[sqlite3.Row], users: list[str]) -> None:
    faves: list[tuple[object, ...]] = []
    for row in rows:
        if not row["ispublic"]:
            continue
        for nsid in users:
            if nsid != row["owner"] and rng.random() < 0.12:
                faves.append((row["id"], nsid, row["dateupload"] + rng.randrange(3600, 200 * 86400)))
    store.many("INSERT OR IGNORE INTO faves VALUES (?,?,?)", faves)


def _seed_groups(store: Store, rng: random.Random, rows: list[sqlite3.Row]) -> None:
    store.many("INSERT OR IGNORE INTO groups VALUES (?,?,?,?,?,?,0)", [g[:6] for g in GROUPS])
    pooled: list[tuple[object, ...]] = []
    for row in rows:
        for group in GROUPS:
            if row["ispublic"] and rng.random() < group[6]:
                pooled.append((group[0], row["id"], row["dateupload"] + rng.randrange(60, 30 * 86400)))
    store.many("INSERT OR IGNORE INTO group_photos VALUES (?,?,?)", pooled)


def _seed_galleries(store: Store, rng: random.Random, rows: list[sqlite3.Row]) -> None:
    """The sandbox user's galleries: other members' public photos, as Flickr's galleries hold."""
    others = [row for row in rows if row["owner"] != C.USER_NSID and row["ispublic"]]
    if not others or store.user(C.USER_NSID) is None:
        return
    for n, (title, description) in enumerate(GALLERIES, 1):
        gallery_id = str(store.next_value("gallery", FIRST_GALLERY_ID))
        members = rng.sample(others, min(len(others), 6 + 3 * n))
        created = max(row["dateupload"] for row in members) + 86400 * n
        store.run("INSERT OR IGNORE INTO galleries VALUES (?,?,?,?,?,?,?)",
                  (gallery_id, C.USER_NSID, title, description, members[0]["id"], created, created + 3600))
        store.many("INSERT OR IGNORE INTO gallery_photos VALUES (?,?,?,?)",
                   [(gallery_id, row["id"], pos, rng.choice(["", "", "Lovely.", "La lumière ✨"]))
                    for pos, row in enumerate(members)])


def _seed_collections(store: Store, owners: list[str]) -> None:
    """Each owner's albums in no collection yet: in collections of up to three, all inside one
    top collection."""
    number = store.next_value("collection", FIRST_COLLECTION_ID)
    collections: list[tuple[object, ...]] = []
    members: list[tuple[object, ...]] = []
    for owner in owners:
        sets = store.all("SELECT id, date_create FROM photosets WHERE owner=? AND id NOT IN"
                         " (SELECT set_id FROM collection_sets) ORDER BY id", (owner,))
        if not sets:
            continue
        prefix = _nsid_number(owner)
        top = f"{prefix}-{number}"
        collections.append((top, owner, "All my albums", "Every album, <b>grouped</b> & nested.", None, 0,
                            sets[0]["date_create"]))
        number += 1
        for chunk, start in enumerate(range(0, len(sets), SETS_PER_COLLECTION)):
            leaf = f"{prefix}-{number}"
            number += 1
            part = sets[start:start + SETS_PER_COLLECTION]
            collections.append((leaf, owner, f"Albums {chunk + 1} ✓", "", top, chunk, part[0]["date_create"]))
            members.extend((leaf, row["id"], pos) for pos, row in enumerate(part))
    store.many("INSERT OR IGNORE INTO collections VALUES (?,?,?,?,?,?,?)", collections)
    store.many("INSERT OR IGNORE INTO collection_sets VALUES (?,?,?)", members)
    store.run("INSERT OR REPLACE INTO counters VALUES ('collection', ?)", (number,))
