# SPDX-License-Identifier: MIT
"""The photo files show pictures: every size a JPEG of its own dimensions, drawn or scaled.

Over real sockets: the sizes getSizes and the url_* extras list are the ones served, at the
dimensions they say, and no other; the same photo is the same bytes in any sandbox; an uploaded
PNG is scaled, an upload the sandbox does not decode gets a picture that changes on replace.
The library's own fetch is in tests/test_fetch.py.
"""
from __future__ import annotations

import math
import os
import random
import shutil
import struct
import subprocess
import zlib

import pytest
from sbclient import Client

from flickr_sandbox import Sandbox
from flickr_sandbox import constants as C
from flickr_sandbox.images import header_dimensions
from flickr_sandbox.pictures import cache, jpeg, mosaic, png, scenes

URL_EXTRAS = "url_sq,url_q,url_t,url_s,url_n,url_w,url_m,url_z,url_c,url_l,url_h,url_k,url_o"


def jpeg_frame(data: bytes) -> tuple[int, int]:
    """(width, height) of a baseline JPEG whose every marker segment and scan is well formed."""
    assert data[:2] == b"\xff\xd8" and data[-2:] == b"\xff\xd9"
    pos, seen, dims = 2, set(), None
    while True:
        assert data[pos] == 0xFF, f"no marker at {pos}"
        marker = data[pos + 1]
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        seen.add(marker)
        if marker == 0xC0:
            height, width = struct.unpack(">HH", data[pos + 5:pos + 9])
            dims = (width, height)
        pos += 2 + length
        if marker == 0xDA:
            break
    assert {0xE0, 0xDB, 0xC0, 0xC4} <= seen
    scan = data[pos:-2]
    # Every 0xFF in the entropy-coded data is stuffed (followed by 0x00).
    assert scan.count(b"\xff") == scan.count(b"\xff\x00")
    assert dims is not None
    return dims


def seeded(sandbox, portrait: bool = False):
    """A public seeded photo with a title, landscape (4000x3000) or portrait (3000x4000)."""
    return sandbox.store.one("SELECT * FROM photos WHERE file_path IS NULL AND ispublic = 1 AND title != ''"
                             " AND width < height ORDER BY id LIMIT 1" if portrait else
                             "SELECT * FROM photos WHERE file_path IS NULL AND ispublic = 1 AND title != ''"
                             " AND width > height ORDER BY id LIMIT 1")


def sizes_of(client, photo_id) -> dict[str, tuple[str, int, int]]:
    """getSizes: {label: (source path, width, height)}."""
    root = client.rest("flickr.photos.getSizes", photo_id=photo_id).ok()
    return {s.get("label"): (s.get("source")[len(client.url):], int(s.get("width")), int(s.get("height")))
            for s in root.iter("size")}


def get(client, path):
    reply = client.raw("GET", path)
    return reply.status, reply.headers.get("Content-Type"), reply.body


@pytest.mark.parametrize("portrait", [False, True])
def test_every_listed_size_is_a_jpeg_of_its_dimensions(client, sandbox, portrait):
    photo = seeded(sandbox, portrait)
    sizes = sizes_of(client, photo["id"])
    expected = ["Square", "Large Square", "Thumbnail", "Small", "Small 320", "Small 400", "Medium", "Medium 640",
                "Medium 800", "Large", "Large 1600", "Large 2048", "X-Large 3K", "Original"]
    assert list(sizes) == expected  # 4000 px: 4K and up would be larger than the original
    for label, (path, width, height) in sizes.items():
        if portrait and label in ("X-Large 3K", "Original"):
            continue  # the largest two once (landscape) is enough: they take a second or two
        status, kind, body = get(client, path)
        assert (status, kind) == (200, "image/jpeg"), label
        assert jpeg_frame(body) == header_dimensions(body) == (width, height), label
        if label in ("Square", "Large Square"):
            assert width == height
        else:  # the original's aspect ratio, the longest side at the size's edge
            assert max(width, height) in (75, 150, 100, 240, 320, 400, 500, 640, 800, 1024, 1600, 2048, 3072, 4000)
            assert (width > height) == (not portrait) and abs(width / height - photo["width"] / photo["height"]) < 0.01


def test_sizes_above_the_original_are_404(client, sandbox):
    photo = seeded(sandbox)
    path = sizes_of(client, photo["id"])["X-Large 3K"][0]  # 3k has its own secret, as 4k would
    for suffix in ("4k", "5k", "6k"):
        assert client.raw("GET", path.replace("_3k.jpg", f"_{suffix}.jpg")).status == 404


def test_url_extras_agree_with_get_sizes(client):
    root = client.rest("flickr.photos.search", user_id=C.OTHER_NSID, per_page=5, extras=URL_EXTRAS).ok()
    for photo in root.iter("photo"):
        listed = {(path, w, h) for path, w, h in sizes_of(client, photo.get("id")).values()}
        extras = {(photo.get(f"url_{k}")[len(client.url):], int(photo.get(f"width_{k}")), int(photo.get(f"height_{k}")))
                  for k in URL_EXTRAS.replace("url_", "").split(",") if photo.get(f"url_{k}")}
        assert extras == {entry for entry in listed if "_3k" not in entry[0]}  # no url_ extra for 3k


def test_different_photos_are_different_pictures(client, sandbox):
    rows = sandbox.store.all("SELECT id FROM photos WHERE file_path IS NULL AND ispublic = 1 ORDER BY id LIMIT 6")
    squares = {get(client, sizes_of(client, row["id"])["Large Square"][0])[2] for row in rows}
    assert len(squares) == len(rows)


def test_the_same_photo_is_the_same_bytes_in_any_sandbox(client, sandbox):
    photo = seeded(sandbox)
    path = sizes_of(client, photo["id"])["Medium 640"][0]
    first, again = get(client, path)[2], get(client, path)[2]
    with Sandbox() as other:
        elsewhere = get(Client(other), path)[2]
    assert first == again == elsewhere
    width, height = header_dimensions(first)
    drawn = scenes.render(photo["id"], photo["title"], width, height)
    assert jpeg.encode(width, height, drawn.pixels) == first


def test_pictures_are_kept_on_disk_and_follow_lastupdate(fresh_sandbox):
    client = Client(fresh_sandbox)
    photo = fresh_sandbox.store.one("SELECT * FROM photos WHERE owner = ? AND title LIKE 'Kitten%' LIMIT 1",
                                    (C.USER_NSID,))
    path = sizes_of(client, photo["id"])["Small 320"][0]
    kept = os.path.join(cache.directory(fresh_sandbox.data_dir), str(photo["id"]), f"{photo['lastupdate']}_n.jpg")
    kitten = get(client, path)[2]
    made = os.stat(kept).st_mtime_ns
    assert get(client, path)[2] == kitten and os.stat(kept).st_mtime_ns == made  # served from disk
    # A new title is a new lastupdate, and here another scene; the old file goes.
    client.rest("flickr.photos.setMeta", auth="oauth", photo_id=photo["id"], title="Fireworks").ok()
    fireworks = get(client, path)[2]
    assert fireworks != kitten and header_dimensions(fireworks) == (320, 240)
    assert not os.path.exists(kept) and len(os.listdir(os.path.dirname(kept))) == 1
    client.rest("flickr.photos.delete", auth="oauth", photo_id=photo["id"]).ok()
    assert not os.path.exists(os.path.dirname(kept))


def _bands_png(width: int, height: int) -> bytes:
    """Red, green and blue vertical thirds."""
    row = b"".join(bytes(((255, 0, 0), (0, 255, 0), (0, 0, 255))[min(2, 3 * x // width)]) for x in range(width))
    return png.write(width, height, row * height)


def test_an_uploaded_png_is_scaled(fresh_sandbox, tmp_path):
    client = Client(fresh_sandbox)
    photo_id = client.upload(_bands_png(600, 300), title="bands").ok().find("photoid").text
    sizes = sizes_of(client, photo_id)
    assert list(sizes) == ["Square", "Large Square", "Thumbnail", "Small", "Small 320", "Small 400", "Medium",
                           "Original"]
    for label, (path, width, height) in sizes.items():
        status, kind, body = get(client, path)
        assert status == 200 and header_dimensions(body) == (width, height)
        assert kind == ("image/png" if label == "Original" else "image/jpeg")
    medium = sizes["Medium"][0]
    assert client.raw("GET", medium.replace(".jpg", "_z.jpg")).status == 404  # 640 px: above the original's 600
    row = fresh_sandbox.store.photo(photo_id)
    # The pixels the JPEGs encode: the thirds, scaled; a square is the middle of the picture.
    small = cache.raster_of(row, "m", (240, 120))
    assert [small.pixels[i:i + 3] for i in (0, 120 * 3, 239 * 3)] == [b"\xff\0\0", b"\0\xff\0", b"\0\0\xff"]
    square = cache.raster_of(row, "q", (150, 150))
    assert [square.pixels[i:i + 3] for i in (0, 75 * 3, 149 * 3)] == [b"\xff\0\0", b"\0\xff\0", b"\0\0\xff"]


def test_an_upload_not_decoded_gets_a_picture_that_changes_on_replace(fresh_sandbox):
    client = Client(fresh_sandbox)
    photo_id = client.upload(jpeg.placeholder_jpeg(800, 600), title="Harbour at dawn").ok().find("photoid").text
    path = sizes_of(client, photo_id)["Small"][0]
    before = get(client, path)[2]
    assert header_dimensions(before) == (240, 180)
    client.upload(jpeg.placeholder_jpeg(800, 600, (10, 20, 30)), path="/services/replace/", photo_id=photo_id).ok()
    after = get(client, path)[2]
    assert header_dimensions(after) == (240, 180) and after != before


def test_png_reads_every_filter_and_colour_type():
    rng = random.Random(7)
    width, height = 13, 9
    for colour_type, channels in ((0, 1), (2, 3), (3, 1), (4, 2), (6, 4)):
        samples = bytes(rng.randrange(256) for _ in range(width * height * channels))
        line, previous, raw = width * channels, bytes(width * channels), b""
        for y in range(height):
            row = samples[y * line:(y + 1) * line]
            raw += bytes([y % 5]) + _filtered(y % 5, row, previous, channels)
            previous = row
        palette = bytes(rng.randrange(256) for _ in range(768))
        data = png.SIGNATURE + png._chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0))
        data += (png._chunk(b"PLTE", palette) if colour_type == 3 else b"")
        data += png._chunk(b"IDAT", zlib.compress(raw)) + png._chunk(b"IEND", b"")
        decoded = png.read(data, 1000)
        assert decoded is not None and decoded[:2] == (width, height)
        assert decoded[2] == _on_white_rgb(samples, colour_type, channels, palette), colour_type
    assert png.read(data, 100) is None  # over the pixel budget
    assert png.read(data[:60], 1000) is None  # cut short


def _on_white_rgb(samples: bytes, colour_type: int, channels: int, palette: bytes) -> bytes:
    """What png.read should give, pixel by pixel: RGB, alpha composed on white."""
    out = bytearray()
    for i in range(0, len(samples), channels):
        px = samples[i:i + channels]
        if colour_type == 3:
            out += palette[px[0] * 3:px[0] * 3 + 3]
        elif colour_type in (4, 6):
            alpha = px[-1]
            out += bytes((v * alpha + 255 * (255 - alpha)) // 255 for v in (px[:3] if colour_type == 6 else px[:1] * 3))
        else:
            out += px if colour_type == 2 else px * 3
    return bytes(out)


def _filtered(kind: int, row: bytes, previous: bytes, bpp: int) -> bytes:
    out = bytearray(len(row))
    for i, value in enumerate(row):
        a, b = row[i - bpp] if i >= bpp else 0, previous[i]
        c = previous[i - bpp] if i >= bpp else 0
        p = a + b - c
        predictor = [0, a, b, (a + b) >> 1,
                     a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c]
        out[i] = (value - predictor[kind]) & 255
    return bytes(out)


def test_an_independent_decoder_reads_the_jpegs_back(tmp_path):
    if shutil.which("djpeg") is None:  # scripts/install-deps.sh installs it
        pytest.fail("djpeg is missing: apt install libjpeg-turbo-progs (scripts/install-deps.sh)")
    for title, (width, height) in (("Sunset over the bay", (203, 117)), ("東京の夜", (640, 480))):
        drawn = scenes.render(52600000000, title, width, height)
        path = tmp_path / "picture.jpg"
        path.write_bytes(jpeg.encode(width, height, drawn.pixels))
        result = subprocess.run(["djpeg", str(path)], capture_output=True, check=True)
        assert result.stderr == b""
        header, pixels = result.stdout[:result.stdout.index(b"255\n") + 4], result.stdout[result.stdout.index(b"255\n") + 4:]
        assert header.split()[:3] == [b"P6", str(width).encode(), str(height).encode()]
        error = sum((a - b) ** 2 for a, b in zip(pixels, drawn.pixels)) / len(pixels)
        assert 10 * math.log10(255 ** 2 / error) > 32  # PSNR in dB: the picture, JPEG-compressed


def test_the_scene_follows_the_title():
    assert scenes.theme_of("Street food 🍜 #18") is scenes.food
    assert scenes.theme_of("Rainy street #15") is scenes.city  # "street", not "tree"
    assert scenes.theme_of("Portrait of Anna #25") is scenes.portrait  # not "port"
    assert scenes.theme_of("東京の夜 #5") is scenes.city and scenes.theme_of("夕焼け #28") is scenes.sunset
    assert scenes.theme_of("IMG_0042 #14") is None


@pytest.mark.parametrize("width, height", [(4000, 3000), (3000, 4000), (1601, 899), (6144, 4096)])
def test_a_mosaic_decodes_to_its_cells(tmp_path, width, height):
    """Large drawn sizes are mosaics: djpeg reads them at their size, each cell its colour."""
    if shutil.which("djpeg") is None:  # scripts/install-deps.sh installs it
        pytest.fail("djpeg is missing: apt install libjpeg-turbo-progs (scripts/install-deps.sh)")
    columns, rows = mosaic.cell_grid(width, height)
    k = mosaic.cell_blocks(width, height)
    cells = scenes.render(52600000000, "Harbour lights", columns, rows)
    path = tmp_path / "mosaic.jpg"
    path.write_bytes(mosaic.encode(width, height, cells))
    result = subprocess.run(["djpeg", str(path)], capture_output=True, check=True)
    assert result.stderr == b""
    header_end = result.stdout.index(b"255\n") + 4
    assert result.stdout[:header_end].split()[:3] == [b"P6", str(width).encode(), str(height).encode()]
    pixels = result.stdout[header_end:]
    worst = 0
    for row in range(rows):
        for column in range(columns):
            x, y = min(width - 1, column * k * 8 + 3), min(height - 1, row * k * 8 + 3)
            got = pixels[(y * width + x) * 3:(y * width + x) * 3 + 3]
            want = cells.pixels[(row * columns + column) * 3:(row * columns + column) * 3 + 3]
            worst = max(worst, max(abs(a - b) for a, b in zip(got, want)))
    print(f"{columns}x{rows} cells of {k * 8} px, worst channel error {worst}")
    assert worst <= 2
    with pytest.raises(ValueError):
        mosaic.encode(width, height, scenes.render(1, "", columns + 1, rows))
