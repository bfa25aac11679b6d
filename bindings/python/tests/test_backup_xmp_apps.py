# SPDX-License-Identifier: MIT
"""The XMP sidecars as the apps people move to read them: through exiv2 (digiKam and darktable read XMP
with it) and exiftool (Immich reads with it), every sidecar of a sandbox account backed up both ways
(the API, and the account's export with --from-export), field by field against its JSON sidecar: title,
description, creator, keywords (dc:subject, and lr:hierarchicalSubject, where Immich reads tags), date
taken with no time zone, GPS with its hemisphere, licence (dc:rights, URL, xmpRights:Marked); and named
as those apps look for them, NAME.EXT.xmp beside the file (docs/backup.md, "Opened by other apps").
Neither visibility nor albums is written to the XMP (no field the apps share holds them): the JSON
sidecar and the album folders do."""
import collections
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile

import pytest

import flickr.backup
from backuptest import client, jpeg, mp4, small_account, upload
from flickr_apps.backup.xmp import xmp_document
from libtest import running_sandbox

# Each item: its upload's arguments, then what the test writes into the sandbox's store (it has no
# setLocation, setLicense or setDates method): hemispheres of all four kinds, licences of each
# xmpRights:Marked state, a tag with a "/" and one with a space.
ITEMS = [
    (dict(title='Sydney <harbour> & "fog"', description="line one\nline two",
          tags='"New York" zürich f/2.8 geo:lat=-33.85'),
     dict(latitude=-33.856784, longitude=151.215297, accuracy=16, license=4, datetaken="2019-07-04 23:59:58")),
    (dict(title="Friends only", tags="x", is_public=0, is_friend=1),
     dict(latitude=0.5, longitude=-0.000001, accuracy=3, license=9, datetaken="2001-02-03 04:05:06")),
    (dict(title="", tags="", is_public=0, is_family=1), dict(license=0, datetaken="1999-12-31 23:00:00")),
    (dict(title="Quito", tags="ecuador"),
     dict(latitude=-0.180653, longitude=-78.467834, accuracy=11, license=11, datetaken="2020-02-29 12:00:00")),
    (dict(title="Reykjavík", description="Ísland", tags="iceland"),
     dict(latitude=64.146582, longitude=-21.942635, accuracy=11, license=10, datetaken="2021-06-21 03:00:00")),
    (dict(title="Tokyo", tags="japan"),
     dict(latitude=35.689487, longitude=139.691706, accuracy=11, license=7, datetaken="2022-01-01 00:00:01")),
]
VIDEO = (dict(title="Wellington clip", tags="nz"),
         dict(latitude=-41.2865, longitude=174.7762, accuracy=11, license=5, datetaken="2023-03-04 05:06:07"))
# xmpRights:Marked by licence id (XMP: True rights-managed, False public domain, absent unknown).
MARKED = {"0": True, "4": True, "5": True, "11": True, "9": False, "10": False, "7": None, "": None}
FIELDS = ("title", "description", "creator", "keywords", "tags", "taken", "latitude", "longitude", "rights",
          "url", "marked")


@pytest.fixture(scope="module")
def archives(library_path, tmp_path_factory):
    """{"api": root, "export": root}: the same sandbox account backed up with the API and from its export."""
    from flickr_sandbox.export import write_export
    from flickr_sandbox.store import Store

    work = tmp_path_factory.mktemp("xmp-apps")
    data = work / "sandbox"
    data.mkdir()
    with running_sandbox("--data", str(data)) as server:
        with client(server) as api:
            small_account(api, 0)
            made = [(upload(api, jpeg(n), **args), stored) for n, (args, stored) in enumerate(ITEMS)]
            made.append((upload(api, mp4(0), **VIDEO[0]), VIDEO[1]))
            store = Store(str(data))
            try:
                for item, stored in made:
                    store.run(f"UPDATE photos SET {', '.join(f'{k}=?' for k in stored)} WHERE id=?",
                              (*stored.values(), int(item)))
                report = flickr.backup.run(api, work / "api")
                assert report.ok, report.failed
                names = write_export(store, str(work / "zips"))
            finally:
                store.close()
    exported = flickr.backup.from_export(work / "export", [work / "zips" / n for n in names])
    print("API:", report.summary(), "\nexport:", exported.summary())
    assert exported.failed == [] and exported.listed == len(made)
    return {"api": work / "api", "export": work / "export"}, dict(made)


def files(root) -> dict[str, dict[str, str]]:
    """{item: {kind: path}} from the backup's state: media, json, xmp."""
    with sqlite3.connect(root / ".flickr-backup" / "state.sqlite3") as db:
        rows = db.execute("SELECT item, kind, path FROM files").fetchall()
    found: dict[str, dict[str, str]] = collections.defaultdict(dict)
    for item, kind, path in rows:
        found[item][kind] = path
    return found


def expected(side: dict) -> dict:
    """What the XMP must say, from the JSON sidecar (the archive's one account of the item)."""
    owner, licence, where = side["owner"], side["license"], side["location"] or {}
    keywords = [t["raw"] or t["tag"] for t in side["tags"]]
    return {"title": side["title"] or None, "description": side["description"] or None,
            "creator": owner["realname"] or owner["username"] or None, "keywords": keywords or None,
            "tags": keywords or None,
            "taken": side["dates"]["taken"].replace(" ", "T") if not side["dates"]["taken_unknown"] else None,
            "latitude": where.get("latitude"), "longitude": where.get("longitude"),
            "rights": licence["name"] or None, "url": licence["url"] or None, "marked": MARKED[licence["id"]]}


def exiv2(path) -> dict:
    """`exiv2 -PXkcv`: key, count and value of each XMP property (a value may run over several lines)."""
    done = subprocess.run(["exiv2", "-PXkcv", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", (path, done.returncode, done.stderr)
    values: dict[str, tuple[int, str]] = {}
    key = ""
    for line in done.stdout.split("\n")[:-1]:
        match = re.fullmatch(r"(Xmp\.\S+) +([0-9]+)  (.*)", line)
        if match:
            key = match.group(1)
            values[key] = (int(match.group(2)), match.group(3))
        else:
            values[key] = (values[key][0], values[key][1] + "\n" + line)
    def text(name):
        found = values.get(name)
        return None if found is None else re.sub(r'^lang="x-default" ', "", found[1])

    def bag(name):
        found = values.get(name)
        return None if found is None else (found[0], found[1])

    def gps(name):
        found = text(name)
        if found is None:
            return None
        match = re.fullmatch(r"([0-9]{1,3}),([0-9]{1,2}\.[0-9]{6})([NSEW])", found)
        assert match and float(match.group(2)) < 60, (path, name, found)
        value = int(match.group(1)) + float(match.group(2)) / 60
        return round(-value if match.group(3) in "SW" else value, 6)
    taken = {text(k) for k in ("Xmp.exif.DateTimeOriginal", "Xmp.xmp.CreateDate", "Xmp.photoshop.DateCreated")}
    assert len(taken) == 1, (path, taken)  # the three date fields say one thing
    marked = text("Xmp.xmpRights.Marked")
    return {"title": text("Xmp.dc.title"), "description": text("Xmp.dc.description"),
            "creator": text("Xmp.dc.creator"), "keywords": bag("Xmp.dc.subject"),
            "tags": bag("Xmp.lr.hierarchicalSubject"), "taken": taken.pop(),
            "latitude": gps("Xmp.exif.GPSLatitude"), "longitude": gps("Xmp.exif.GPSLongitude"),
            "rights": text("Xmp.dc.rights"), "url": text("Xmp.xmpRights.WebStatement"),
            "marked": None if marked is None else marked == "True", "license": text("Xmp.cc.license")}


def exiftool(paths) -> dict[str, dict]:
    """`exiftool -j -n -XMP:all`, every file in one run: {path: what it read} (-n: GPS signed, in degrees)."""
    done = subprocess.run(["exiftool", "-j", "-n", "-XMP:all", *map(str, paths)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    found = {}
    for entry in json.loads(done.stdout):
        def listed(name):
            value = entry.get(name)
            return None if value is None else [str(v) for v in (value if isinstance(value, list) else [value])]

        def text(name):
            value = entry.get(name)
            return None if value is None else str(value)
        taken = {text(k) for k in ("DateTimeOriginal", "CreateDate", "DateCreated")}
        assert len(taken) == 1, (entry["SourceFile"], taken)
        stamp = taken.pop()
        found[entry["SourceFile"]] = {
            "title": text("Title"), "description": text("Description"), "creator": text("Creator"),
            "keywords": listed("Subject"), "tags": listed("HierarchicalSubject"),
            # exiftool writes XMP dates "YYYY:MM:DD hh:mm:ss"; a zone would follow as "+hh:mm" or "Z".
            "taken": None if stamp is None else re.sub(r"^(....):(..):(..) ", r"\1-\2-\3T", stamp),
            "latitude": entry.get("GPSLatitude"), "longitude": entry.get("GPSLongitude"),
            "rights": text("Rights"), "url": text("WebStatement"), "marked": entry.get("Marked"),
            "license": text("License")}
    return found


def test_every_sidecar_read_back_by_exiv2_and_exiftool(archives):
    assert shutil.which("exiv2"), "exiv2 is missing: apt install exiv2 (scripts/install-deps.sh)"
    assert shutil.which("exiftool"), "exiftool is missing: apt install libimage-exiftool-perl"
    roots, made = archives
    compared = collections.Counter()
    for way, root in roots.items():
        items = files(root)
        assert sorted(items) == sorted(made), way
        by_tool = exiftool(root / kinds["xmp"] for kinds in items.values())
        for item, kinds in sorted(items.items()):
            side = json.loads((root / kinds["json"]).read_text())
            want = expected(side)
            stored = made[item]
            # The JSON sidecar holds what the account holds (so the chain is checked, not only XMP vs JSON).
            if "latitude" in stored:
                assert (side["location"]["latitude"], side["location"]["longitude"]) == \
                    (stored["latitude"], stored["longitude"]), (way, item)
            assert side["dates"]["taken"] == stored["datetaken"], (way, item)
            read_exiv2, read_exiftool = exiv2(root / kinds["xmp"]), by_tool[str(root / kinds["xmp"])]
            for field in FIELDS:
                value = want[field]
                for tool, read in (("exiv2", read_exiv2), ("exiftool", read_exiftool)):
                    got = read[field]
                    if tool == "exiv2" and field in ("keywords", "tags"):
                        # exiv2 prints a bag as its count and its items joined by ", ".
                        shown = (len(value), ", ".join(value)) if value else None
                        assert got == shown, (way, item, tool, field, got, value)
                    elif field in ("latitude", "longitude") and value is not None:
                        assert got is not None and abs(got - value) < 5e-7, (way, item, tool, field, got, value)
                    else:
                        assert got == value, (way, item, tool, field, got, value)
                    compared[f"{tool} {field}"] += 1
                assert read_exiv2["license"] == read_exiftool["license"] == want["url"], (way, item)
    print("fields compared:", dict(sorted(compared.items())))
    # Every field of every sidecar both ways (7 items, 2 archives), by both tools.
    assert set(compared.values()) == {2 * len(made)} and len(compared) == 2 * len(FIELDS)


def test_the_readers_see_what_the_account_holds(archives):
    """Not only XMP equal to JSON: the values themselves, read by exiftool from the API archive."""
    roots, made = archives
    items = files(roots["api"])
    read = exiftool(roots["api"] / kinds["xmp"] for kinds in items.values())
    by_title = {r["title"]: r for r in read.values()}
    sydney, friends, untitled = by_title['Sydney <harbour> & "fog"'], by_title["Friends only"], by_title[None]
    print(sydney, friends, untitled, sep="\n")
    assert (sydney["latitude"], sydney["longitude"]) == (-33.856784, 151.215297)  # south, east
    assert (friends["latitude"], friends["longitude"]) == (0.5, -1e-06)  # north, west by a millionth
    assert (by_title["Quito"]["latitude"], by_title["Quito"]["longitude"]) == (-0.180653, -78.467834)
    assert sydney["taken"] == "2019-07-04T23:59:58" and sydney["description"] == "line one\nline two"
    assert sydney["rights"] == "Attribution License" and sydney["marked"] is True
    assert friends["rights"] == "Public Domain Dedication (CC0)" and friends["marked"] is False
    assert untitled["rights"] == "All Rights Reserved" and untitled["marked"] is True
    assert by_title["Tokyo"]["marked"] is None and by_title["Reykjavík"]["marked"] is False
    assert by_title["Quito"]["rights"] == "CC BY 4.0" and by_title["Quito"]["marked"] is True
    # The API's listing gives tags normalised; each one a keyword, in Immich's field too.
    assert sydney["keywords"] == sydney["tags"] == ["newyork", "zürich", "f28", "geo:lat=3385"]
    assert {r["creator"] for r in read.values()} == {"Sandbox User"}


def test_sidecars_named_as_the_apps_look_for_them(archives):
    """NAME.EXT.xmp beside the file: darktable's and digiKam's name, Immich's first choice, and PhotoPrism
    groups it with NAME.EXT; an item the export gave no file has NAME.xmp beside its NAME.json."""
    roots, made = archives
    counts = collections.Counter()
    for way, root in roots.items():
        for item, kinds in files(root).items():
            if "media" in kinds:
                assert kinds["xmp"] == kinds["media"] + ".xmp", (way, item, kinds)
                assert os.path.dirname(kinds["xmp"]) == os.path.dirname(kinds["media"])
                counts[f"{way} NAME.EXT.xmp"] += 1
            else:
                assert way == "export" and kinds["xmp"] == kinds["json"][:-len(".json")] + ".xmp", (way, kinds)
                counts[f"{way} NAME.xmp (no file)"] += 1
            assert (root / kinds["xmp"]).is_file() and not (root / kinds["xmp"]).is_symlink()
    print(dict(counts))
    assert counts == {"api NAME.EXT.xmp": len(made), "export NAME.EXT.xmp": len(made) - 1,
                      "export NAME.xmp (no file)": 1}


@pytest.mark.parametrize("latitude,longitude,shown", [
    (-89.99999999999, 179.99999999999, ("90,0.000000S", "180,0.000000E")),
    (-0.0000000001, 0.0, ("0,0.000000N", "0,0.000000E")),
    (-33.856784, -151.215297, ("33,51.407040S", "151,12.917820W")),
])
def test_gps_minutes_stay_below_sixty(latitude, longitude, shown):
    """Once: 89.99999999999 was written "89,60.000000S" (minutes of 60, which XMP's GPSCoordinate has not)."""
    side = {"title": "", "description": "", "tags": [], "dates": {"taken": "", "taken_unknown": True},
            "license": {}, "location": {"latitude": latitude, "longitude": longitude}}
    with tempfile.TemporaryDirectory() as where:
        path = os.path.join(where, "x.jpg.xmp")
        with open(path, "wb") as out:
            out.write(xmp_document(side))
        read = exiv2(path)
    print(latitude, longitude, read["latitude"], read["longitude"])
    document = xmp_document(side).decode()
    assert f"<exif:GPSLatitude>{shown[0]}</exif:GPSLatitude>" in document
    assert f"<exif:GPSLongitude>{shown[1]}</exif:GPSLongitude>" in document
    assert abs(read["latitude"] - latitude) < 1e-6 and abs(read["longitude"] - longitude) < 1e-6
