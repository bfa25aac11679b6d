# SPDX-License-Identifier: MIT
"""What a real account holds, over real sockets: videos (ready and processing) with Flickr's
video sizes and an MP4 at their play URLs, originals refused by Flickr's 2025 rule for free
accounts and by the owner's download setting (in getSizes, getInfo, the extras and at the image
host), and the privacy mix.  One sandbox seeded with --seed-photos for the module."""
from __future__ import annotations

import json
import shutil
import struct
import subprocess

import pytest
from sbclient import Client

from flickr_sandbox import Sandbox
from flickr_sandbox import constants as C
from flickr_sandbox.downloads import ONLY_YOU
from flickr_sandbox.images import header_dimensions
from flickr_sandbox.methods.photolist import size_secret, size_url

ITEMS = 600
LARGE = {"Large 1600", "Large 2048", "X-Large 3K", "X-Large 4K", "X-Large 5K", "X-Large 6K", "Original"}
VIDEO_LABELS = ["Video Player", "Site MP4", "Mobile MP4", "HD MP4", "Video Original"]


@pytest.fixture(scope="module")
def seeded():
    with Sandbox(seed_photos=ITEMS) as sb:
        yield sb


def one(sb, where: str):
    row = sb.store.one(f"SELECT * FROM photos WHERE id >= 53000000000 AND {where} ORDER BY id LIMIT 1")
    assert row is not None, where
    return row


def sizes(client, photo_id, auth="none"):
    root = client.rest("flickr.photos.getSizes", auth=auth, photo_id=photo_id).ok()
    return root.find("sizes"), [s.attrib for s in root.iter("size")]


def boxes(data: bytes, start: int = 0, end: int | None = None) -> dict[bytes, tuple[int, int]]:
    """The top-level boxes of an MP4 stretch: {kind: (payload start, payload end)}; asserts they tile it."""
    end = len(data) if end is None else end
    found, pos = {}, start
    while pos < end:
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        assert size >= 8 and pos + size <= end, (kind, size)
        found[kind] = (pos + 8, pos + size)
        pos += size
    assert pos == end
    return found


def test_a_ready_video_lists_flickrs_video_sizes_and_serves_an_mp4(seeded, tmp_path):
    client = Client(seeded)
    video = one(seeded, "media = 'video' AND media_status = 'ready' AND license != 0 AND ispublic = 1"
                        " AND width = 1920")
    root, listed = sizes(client, video["id"])
    labels = [s["label"] for s in listed]
    print(labels)
    assert [s["label"] for s in listed if s["media"] == "video"] == VIDEO_LABELS
    assert all(s["media"] == "photo" for s in listed[:labels.index("Video Player")])  # the poster frame's
    assert root.get("candownload") == "1"
    by_label = {s["label"]: s for s in listed}
    assert (by_label["Video Original"]["width"], by_label["Video Original"]["height"]) == ("1920", "1080")
    assert (by_label["HD MP4"]["width"], by_label["Site MP4"]["width"], by_label["Mobile MP4"]["width"]) == \
        ("1280", "640", "480")
    original = by_label["Video Original"]["source"]
    assert original == f"{seeded.url}/photos/{C.USER_PATH_ALIAS}/{video['id']}/play/orig/{video['originalsecret']}/"
    reply = client.raw("GET", original[len(seeded.url):])
    assert (reply.status, reply.headers["Content-Type"]) == (200, "video/mp4")
    data = reply.body
    top = boxes(data)
    assert list(top) == [b"ftyp", b"moov", b"mdat"] and data[8:12] == b"isom"
    stsz = data.index(b"stsz")
    count = struct.unpack(">I", data[stsz + 12:stsz + 16])[0]
    frame_sizes = struct.unpack(f">{count}I", data[stsz + 16:stsz + 16 + 4 * count])
    stco = data.index(b"stco")
    offset = struct.unpack(">I", data[stco + 12:stco + 16])[0]
    assert offset == top[b"mdat"][0] and sum(frame_sizes) == top[b"mdat"][1] - offset
    tkhd = data.index(b"tkhd")
    assert struct.unpack(">II", data[tkhd + 80:tkhd + 88]) == (1920 << 16, 1080 << 16)
    mvhd = data.index(b"mvhd")
    assert struct.unpack(">II", data[mvhd + 16:mvhd + 24]) == (1000, video["duration"] * 1000)
    frames = []
    for size in frame_sizes:
        frames.append(data[offset:offset + size])
        offset += size
    assert len(frames) == 2 and frames[0] != frames[1]
    assert all(header_dimensions(f) == (1920, 1080) for f in frames)
    if shutil.which("djpeg") is None:
        pytest.fail("djpeg is missing: apt install libjpeg-turbo-progs (scripts/install-deps.sh)")
    (tmp_path / "frame.jpg").write_bytes(frames[0])
    decoded = subprocess.run(["djpeg", str(tmp_path / "frame.jpg")], capture_output=True, check=True)
    assert decoded.stderr == b"" and decoded.stdout.split()[:3] == [b"P6", b"1920", b"1080"]
    assert client.raw("GET", original[len(seeded.url):]).body == data  # kept: the same bytes again
    # The other sizes play too, at their own dimensions; a wrong secret is 404.
    mobile = client.raw("GET", by_label["Mobile MP4"]["source"][len(seeded.url):]).body
    assert header_dimensions(mobile[mobile.index(b"\xff\xd8\xff"):]) == (480, 270)
    assert client.raw("GET", original[len(seeded.url):].replace(video["originalsecret"], video["secret"])).status == 404
    info = client.rest("flickr.photos.getInfo", photo_id=video["id"]).ok().find("photo")
    assert info.get("media") == "video"
    assert info.find("video").attrib == {"ready": "1", "failed": "0", "pending": "0",
                                         "duration": str(video["duration"]), "width": "1920", "height": "1080"}
    streams = client.rest("flickr.video.getStreamInfo", photo_id=video["id"], secret=video["secret"]).ok()
    listed_streams = [(s.get("type"), s.text) for s in streams.iter("stream")]
    assert [t for t, _ in listed_streams] == ["orig", "720p", "360p", "288p"] and listed_streams[0][1] == original
    assert client.rest("flickr.video.getStreamInfo", photo_id=video["id"], secret="0").err()[0] == 1


def test_a_processing_video_has_no_video_sizes_yet(seeded):
    client = Client(seeded)
    video = one(seeded, "media = 'video' AND media_status = 'processing' AND ispublic = 1")
    _, listed = sizes(client, video["id"])
    assert listed and all(s["media"] == "photo" for s in listed)
    info = client.rest("flickr.photos.getInfo", photo_id=video["id"]).ok().find("photo")
    assert info.find("video").get("ready") == "0" and info.find("video").get("pending") == "1"
    url = f"/photos/{C.USER_PATH_ALIAS}/{video['id']}/play/site/{video['secret']}/"
    assert client.raw("GET", url).status == 404
    listing = client.rest("flickr.people.getPhotos", user_id=C.USER_NSID, extras="media", per_page=500,
                          format="json", nojsoncallback=1)
    statuses = {(p["media"], p["media_status"]) for p in json.loads(listing.body)["photos"]["photo"]}
    assert {("photo", "ready"), ("video", "ready"), ("video", "processing")} <= statuses


def test_the_free_account_rule_withholds_large_sizes_everywhere(seeded):
    """The seeded user is a free account: its All Rights Reserved photos lose Large 1600 and up
    and the original, for everybody (the owner too); Large (1024) stays."""
    client = Client(seeded)
    photo = one(seeded, "media = 'photo' AND license = 0 AND ispublic = 1 AND width = 6000")
    for auth in ("none", "oauth"):
        root, listed = sizes(client, photo["id"], auth)
        labels = {s["label"] for s in listed}
        assert root.get("candownload") == "0" and not labels & LARGE and "Large" in labels, auth
        info = client.rest("flickr.photos.getInfo", auth=auth, photo_id=photo["id"]).ok().find("photo")
        assert info.get("originalsecret") is None and info.find("usage").get("candownload") == "0"
    listing = client.rest("flickr.photos.search", user_id=C.USER_NSID, per_page=500, sort="date-posted-asc",
                          extras="url_o,url_k,url_h,url_l,original_format,usage").ok()
    element = next(p for p in listing.iter("photo") if p.get("id") == str(photo["id"]))
    assert element.get("url_l") and element.get("can_download") == "0"
    assert not {"url_o", "url_k", "url_h", "originalsecret"} & set(element.attrib)
    # The image host refuses those files even with the right secrets; Large is served.
    for suffix, status in (("o", 403), ("k", 403), ("5k", 403), ("6k", 404), ("b", 200)):
        assert client.raw("GET", size_url(seeded.url, photo, suffix)[len(seeded.url):]).status == status, suffix
    # A Creative Commons photo of the same free account keeps every size.
    licensed = one(seeded, "media = 'photo' AND license != 0 AND ispublic = 1 AND width = 6000")
    root, listed = sizes(client, licensed["id"])
    assert root.get("candownload") == "1" and {"Original", "X-Large 5K"} <= {s["label"] for s in listed}
    original = next(s["source"] for s in listed if s["label"] == "Original")
    assert client.raw("GET", original[len(seeded.url):]).status == 200
    # A video's original follows the same rule.
    video = one(seeded, "media = 'video' AND media_status = 'ready' AND license = 0 AND ispublic = 1")
    assert "Video Original" not in {s["label"] for s in sizes(client, video["id"])[1]}
    play = f"/photos/{C.USER_PATH_ALIAS}/{video['id']}/play/orig/{video['originalsecret']}/"
    assert client.raw("GET", play).status == 403


def test_the_owners_download_setting_refuses_others_only(fresh_sandbox):
    """A Pro owner who lets only themselves download: others get no large sizes, the owner
    does; the image host, which cannot know who asks, still serves the files."""
    client = Client(fresh_sandbox)
    fresh_sandbox.store.run("UPDATE users SET download = ? WHERE nsid = ?", (ONLY_YOU, C.USER_NSID))
    photo = fresh_sandbox.store.one("SELECT * FROM photos WHERE owner = ? AND ispublic = 1 AND file_path IS NULL"
                                    " ORDER BY id LIMIT 1", (C.USER_NSID,))
    anonymous, listed = sizes(client, photo["id"])
    assert anonymous.get("candownload") == "0" and not {s["label"] for s in listed} & LARGE
    owner, listed = sizes(client, photo["id"], "oauth")
    assert owner.get("candownload") == "1" and "Original" in {s["label"] for s in listed}
    info = client.rest("flickr.photos.getInfo", photo_id=photo["id"]).ok().find("photo")
    assert info.find("usage").get("candownload") == "0" and info.get("originalsecret") is None
    # Every list's extras follow the same rule, for the caller of each (a search, the owner's getNotInSet).
    for method, auth, expected in (("flickr.photos.search", "none", False), ("flickr.photos.search", "oauth", True),
                                   ("flickr.photos.getNotInSet", "oauth", True)):
        listing = client.rest(method, auth=auth, user_id=C.USER_NSID, per_page=500, extras="url_o,usage").ok()
        elements = list(listing.iter("photo"))
        assert elements and all((p.get("url_o") is not None) == expected for p in elements), (method, auth)
        assert {p.get("can_download") for p in elements} == {str(int(expected))}, (method, auth)
    path = f"/photos/{photo['server']}/{photo['id']}_{size_secret(photo, 'o')}_o.jpg"
    assert client.raw("GET", path).status == 200
    fresh_sandbox.store.run("UPDATE users SET download = 4 WHERE nsid = ?", (C.USER_NSID,))
    assert sizes(client, photo["id"])[0].get("candownload") == "1"


def test_the_privacy_mix(seeded):
    client = Client(seeded)
    counts = {row["kind"]: row["n"] for row in seeded.store.all(
        "SELECT ispublic || isfriend || isfamily AS kind, COUNT(*) AS n FROM photos"
        " WHERE owner = ? GROUP BY kind", (C.USER_NSID,))}
    print(counts)
    assert set(counts) == {"100", "010", "001", "011", "000"} and min(counts.values()) >= 10
    total = sum(counts.values())
    anonymous = client.rest("flickr.people.getPhotos", user_id=C.USER_NSID).ok().find("photos")
    owner = client.rest("flickr.people.getPhotos", auth="oauth", user_id=C.USER_NSID).ok().find("photos")
    assert (int(anonymous.get("total")), int(owner.get("total"))) == (counts["100"], total)
    for value, kind in (("2", "010"), ("3", "001"), ("4", "011"), ("5", "000")):
        filtered = client.rest("flickr.people.getPhotos", auth="oauth", user_id=C.USER_NSID, privacy_filter=value)
        assert int(filtered.ok().find("photos").get("total")) == counts[kind], value
    hidden = one(seeded, "ispublic = 0 AND isfriend = 1")
    assert client.rest("flickr.photos.getInfo", photo_id=hidden["id"]).err()[0] == 1
    visibility = client.rest("flickr.photos.getInfo", auth="oauth", photo_id=hidden["id"]).ok().find(".//visibility")
    assert visibility.attrib == {"ispublic": "0", "isfriend": "1", "isfamily": str(hidden["isfamily"])}
