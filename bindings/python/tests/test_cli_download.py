# SPDX-License-Identifier: MIT
"""`flickr download`: photo files by id, search, tags or set, streamed into a folder (test_cli_download_sizes.py:
the size taken, its fallbacks, videos and large files)."""
import json
import os
import re
import struct
import uuid
import zlib

import pytest

from flickr_sandbox.images import header_dimensions
from flickr_sandbox.pictures.jpeg import placeholder_jpeg
from libtest import answering, run_cli

WIDE = placeholder_jpeg(2100, 900, (200, 30, 30))  # has every size up to k (2048)
MEDIUM = placeholder_jpeg(1200, 800, (30, 200, 30))  # up to b (1024)
SMALL = placeholder_jpeg(300, 200, (30, 30, 200))  # no b: Flickr has no size larger than the original


def png(width, height) -> bytes:
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\x80\x80\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


@pytest.fixture(scope="module")
def sandbox(module_sandbox):
    # Real images, some too small for a size (no url_m at 300 px): kept out of the session's sandbox.
    return module_sandbox


@pytest.fixture
def run(sandbox, tmp_path):
    """run_cli with a photo cache of the test's own."""
    def run(*argv):
        return run_cli(sandbox, *argv, env_extra={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    return run


@pytest.fixture
def uploaded(library_path, run, tmp_path):
    """Uploads {name: bytes} with a tag and title of their own; {name: photo id}, and the tag."""
    def upload(files, title="Red <sun> & sea"):
        tag = "dl" + uuid.uuid4().hex[:12]
        source = tmp_path / ("src" + tag)
        source.mkdir()
        for name, data in files.items():
            (source / name).write_bytes(data)
        extra = ["--title", f"{title} {tag}"] if title else []
        result = run("upload", *[str(source / name) for name in files], "--tags", tag, *extra, "--json")
        assert result.returncode == 0, result.stderr
        ids = {os.path.basename(line["file"]): line["photo_id"] for line in map(json.loads, result.stdout.splitlines())}
        return ids, tag
    return upload


def records(result) -> list:
    return [json.loads(line) for line in result.stdout.splitlines()]


def listing(directory) -> list:
    return sorted(os.listdir(directory))


def test_by_ids_names_files_and_reports_titles(run, uploaded, tmp_path):
    ids, tag = uploaded({"wide.jpg": WIDE, "medium.jpg": MEDIUM, "small.jpg": SMALL})
    untitled, _ = uploaded({"plain.jpg": MEDIUM}, title=None)
    dest = tmp_path / "out"
    result = run("download", ids["wide.jpg"], ids["medium.jpg"], ids["small.jpg"], untitled["plain.jpg"],
                 "--dest", str(dest), "--json")
    assert result.returncode == 0, result.stderr
    lines = records(result)
    assert [line["photo_id"] for line in lines] == [ids["wide.jpg"], ids["medium.jpg"], ids["small.jpg"],
                                                  untitled["plain.jpg"]]
    # getInfo's title is an element: {"_text": ...} printed as its text; an empty <title/> as "".
    assert [line["title"] for line in lines] == [f"Red <sun> & sea {tag}"] * 3 + [""]
    assert [line.get("status") for line in lines] == ["downloaded"] * 4
    # The small one has no b (Flickr makes no size larger than the original): its original, 300 px,
    # is the largest file it has below b, and the line says so.
    assert [line["size"] for line in lines] == ["b", "b", "o", "b"]
    assert "why" not in lines[0] and lines[2]["label"] == "Original"
    assert "Flickr lists no b size for it" in lines[2]["why"] and "(Original, not b: " in result.stderr
    assert "1 not at size b" in result.stderr
    assert (dest / f"{ids['small.jpg']}_o.jpg").read_bytes() == SMALL
    assert listing(dest) == sorted([f"{ids[n]}_b.jpg" for n in ("wide.jpg", "medium.jpg")] + [
        f"{untitled['plain.jpg']}_b.jpg", f"{ids['small.jpg']}_o.jpg"])  # the private folder is gone
    # The b size, 1024 px wide (the sandbox draws a picture for an uploaded JPEG's smaller sizes).
    assert header_dimensions((dest / f"{ids['wide.jpg']}_b.jpg").read_bytes()) == (1024, 439)
    assert f"{ids['wide.jpg']} (Red <sun> & sea {tag}) -> {dest / (ids['wide.jpg'] + '_b.jpg')}" in result.stderr
    assert "downloaded 4 of 4 photos into " + str(dest) in result.stderr
    # The amounts in the CLI's one renderer's units (progress.py): each file's bytes, their sum and rate.
    assert all(line["bytes"] == os.path.getsize(line["file"]) > 0 for line in lines)
    total = sum(line["bytes"] for line in lines)
    shown = re.search(r"; ([\d.]+) KiB, [\d.]+ (B|KiB|MiB|GiB)/s\n", result.stderr)
    assert shown and float(shown[1]) == round(total / 1024, 1), (total, result.stderr)


def test_second_run_skips_identical_files_and_refuses_different_ones(run, uploaded, tmp_path):
    ids, _ = uploaded({"one.jpg": MEDIUM, "two.jpg": WIDE})
    dest = tmp_path / "out"
    first = run("download", ids["one.jpg"], "--dest", str(dest), ids["two.jpg"])  # options anywhere
    assert first.returncode == 0, first.stderr
    one, two = (dest / f"{ids[n]}_b.jpg" for n in ("one.jpg", "two.jpg"))
    served_one, served_two = one.read_bytes(), two.read_bytes()
    two.write_bytes(b"my own edit")
    again = run("download", *ids.values(), "--dest", str(dest), "--json")
    assert again.returncode == 1, again.stderr
    assert [line.get("status") for line in records(again)] == ["identical", None]
    assert "exists with other content" in records(again)[1]["error"] and "--overwrite" in again.stderr
    assert two.read_bytes() == b"my own edit" and one.read_bytes() == served_one
    assert "downloaded 0 of 2 photos into " + str(dest) + " (1 already there)" in again.stderr
    forced = run("download", *ids.values(), "--dest", str(dest), "--overwrite")
    assert forced.returncode == 0, forced.stderr
    assert two.read_bytes() == served_two
    assert listing(dest) == sorted([one.name, two.name])  # no partial file left behind


def test_a_link_in_the_way_is_not_written_through(run, uploaded, tmp_path):
    ids, _ = uploaded({"one.jpg": MEDIUM})
    dest, elsewhere = tmp_path / "out", tmp_path / "precious.txt"
    dest.mkdir()
    elsewhere.write_text("keep me")
    os.symlink(elsewhere, dest / f"{ids['one.jpg']}_b.jpg")
    result = run("download", ids["one.jpg"], "--dest", str(dest))
    assert result.returncode == 1 and "exists with other content" in result.stderr
    forced = run("download", ids["one.jpg"], "--dest", str(dest), "--overwrite")
    assert forced.returncode == 0, forced.stderr
    assert elsewhere.read_text() == "keep me"  # the link was replaced, not followed
    assert not os.path.islink(dest / f"{ids['one.jpg']}_b.jpg")
    assert header_dimensions((dest / f"{ids['one.jpg']}_b.jpg").read_bytes()) == (1024, 683)


def test_by_tags_with_a_size_that_has_its_own_secret(run, uploaded, tmp_path):
    ids, tag = uploaded({"wide.jpg": WIDE, "medium.jpg": MEDIUM})
    dest = tmp_path / "out"
    result = run("download", "--tags", tag, "--size", "k", "--dest", str(dest), "--json", "--exact-size")
    assert result.returncode == 1, result.stderr  # the medium one has no 2048 size
    by_id = {line["photo_id"]: line for line in records(result)}
    assert by_id[ids["wide.jpg"]]["status"] == "downloaded"
    assert "Flickr lists no k size for it" in by_id[ids["medium.jpg"]]["error"]
    assert listing(dest) == [f"{ids['wide.jpg']}_k.jpg"]
    # Without --exact-size the medium one's largest below k is its original (1200 px), from the listing.
    fallback = run("download", "--tags", tag, "--size", "k", "--dest", str(dest), "--json")
    assert fallback.returncode == 0, fallback.stderr
    by_id = {line["photo_id"]: line for line in records(fallback)}
    assert by_id[ids["wide.jpg"]]["status"] == "identical" and by_id[ids["medium.jpg"]]["size"] == "o"
    assert (dest / f"{ids['medium.jpg']}_o.jpg").read_bytes() == MEDIUM
    # By id, the k size's URL comes from flickr.photos.getSizes.
    by_id = run("download", ids["wide.jpg"], "--size", "h", "--dest", str(dest))
    assert by_id.returncode == 0, by_id.stderr
    assert header_dimensions((dest / f"{ids['wide.jpg']}_h.jpg").read_bytes()) == (1600, 686)


def test_by_search_pages_through_walk_up_to_the_limit(run, uploaded, tmp_path):
    ids, tag = uploaded({f"p{i}.jpg": MEDIUM for i in range(5)})
    dest = tmp_path / "out"
    result = run("download", "--search", tag, "--limit", "3", "--size", "-", "--dest", str(dest), "--json", "-v")
    assert result.returncode == 0, result.stderr
    assert len(records(result)) == 3
    assert all(name in {f"{i}.jpg" for i in ids.values()} for name in listing(dest))  # 500 px: no suffix
    assert len(listing(dest)) == 3
    # --limit 3 asks for pages of three: one search request for three photos.
    assert sum("flickr.photos.search GET" in line for line in result.stderr.splitlines()) == 1
    everything = run("download", "--search", tag, "--tags", tag, "--dest", str(tmp_path / "all"))
    assert everything.returncode == 0, everything.stderr
    assert len(listing(tmp_path / "all")) == 5


def test_by_set_in_the_set_order_with_the_original_format(run, uploaded, tmp_path):
    ids, _ = uploaded({"a.jpg": MEDIUM, "b.png": png(1100, 40)})
    created = run("call", "flickr.photosets.create", "--post", "title=Download test",
                  f"primary_photo_id={ids['b.png']}")
    assert created.returncode == 0, created.stderr
    set_id = json.loads(created.stdout)["photoset"]["id"]
    added = run("call", "flickr.photosets.addPhoto", "--post", f"photoset_id={set_id}", f"photo_id={ids['a.jpg']}")
    assert added.returncode == 0, added.stderr
    dest = tmp_path / "out"
    result = run("download", "--set", set_id, "--size", "o", "--dest", str(dest), "--json")
    assert result.returncode == 0, result.stderr
    assert [line["photo_id"] for line in records(result)] == [ids["b.png"], ids["a.jpg"]]
    assert listing(dest) == sorted([f"{ids['b.png']}_o.png", f"{ids['a.jpg']}_o.jpg"])
    assert (dest / f"{ids['b.png']}_o.png").read_bytes() == png(1100, 40)
    # The album's URL names its owner (Flickr's getPhotos requires user_id); another owner's id is refused.
    owner = json.loads(run("call", "flickr.test.login").stdout)["user"]["id"]
    by_url = run("download", "--set", f"https://www.flickr.com/photos/{owner}/albums/{set_id}/", "--size", "o",
                 "--dest", str(tmp_path / "by-url"), "--json")
    assert by_url.returncode == 0, by_url.stderr
    assert [line["photo_id"] for line in records(by_url)] == [ids["b.png"], ids["a.jpg"]]
    wrong = run("download", "--set", set_id, "--owner", "1@N01", "--dest", str(tmp_path / "wrong"))
    assert wrong.returncode == 3 and "Photoset not found" in wrong.stderr
    not_album = run("download", "--set", "https://www.flickr.com/photos/bees/", "--dest", str(tmp_path / "no"))
    assert not_album.returncode == 2 and "not an album URL" in not_album.stderr


def test_by_the_album_url_the_sandbox_hands_out(run, uploaded, tmp_path):
    """The sandbox's album URLs are on the sandbox (http://127.0.0.1:PORT/photos/.../sets/ID/): one
    on the configured base URL's scheme, host and port reads as Flickr's; any other host is refused."""
    ids, _ = uploaded({"a.jpg": SMALL}, title=None)
    created = run("call", "flickr.photosets.create", "--post", "title=Album URL", f"primary_photo_id={ids['a.jpg']}")
    assert created.returncode == 0, created.stderr
    url = json.loads(created.stdout)["photoset"]["url"]
    set_id = json.loads(created.stdout)["photoset"]["id"]
    listed = json.loads(run("call", "flickr.photosets.getList").stdout)["photosets"]["photoset"]
    assert [found.get("url") for found in listed if found["id"] == set_id] in ([url], [None]), listed
    base = url.split("/photos/")[0]
    assert url.startswith("http://127.0.0.1:") and f"/{set_id}/" in url, url
    for given in (url, url.replace("http://", "HTTP://"), url.rstrip("/") + "?x=1#top"):
        result = run("download", "--set", given, "--size", "o", "--dest", str(tmp_path / "out"), "--json")
        assert result.returncode == 0, (given, result.stderr)
        assert [line["photo_id"] for line in records(result)] == [ids["a.jpg"]]
    port = int(base.rsplit(":", 1)[1])
    others = [url.replace(base, f"http://127.0.0.1:{port + 1}"), url.replace(base, "http://127.0.0.2:" + str(port)),
              url.replace(base, base.replace("http:", "https:")), url.replace("http://", "http://user@"),
              url.replace(base, "http://localhost:" + str(port))]
    for given in others:
        refused = run("download", "--set", given, "--dest", str(tmp_path / "no"))
        assert refused.returncode == 2 and "is not a Flickr host" in refused.stderr, (given, refused.stderr)
    print(f"album URL {url} accepted; {len(others)} other hosts refused")


def test_a_listing_that_fails_is_reported(run, library_path, tmp_path):
    result = run("download", "--set", "999999999", "--dest", str(tmp_path / "out"))
    assert result.returncode == 3
    assert "listing the photos failed: Photoset not found" in result.stderr
    assert "downloaded 0 of 0 photos" in result.stderr


@pytest.mark.parametrize("argv, message", [
    ([], "say which photos"),
    (["123", "--set", "1"], "say which photos"),
    (["--search", "x", "--set", "1"], "say which photos"),
    (["123", "--limit", "2"], "--limit takes"),
    (["--tags", "x", "--limit", "0"], "--limit takes"),
    (["123", "--size", "xl"], "unknown size 'xl'"),
])
def test_usage_errors(run, library_path, argv, message, tmp_path):
    result = run("download", *argv, "--dest", str(tmp_path / "out"))
    assert result.returncode == 2
    assert message in result.stderr
    assert not (tmp_path / "out").exists() or listing(tmp_path / "out") == []


HOSTILE_LIST = (b'<?xml version="1.0" encoding="utf-8"?><rsp stat="ok"><photos page="1" pages="1" perpage="100" '
                b'total="1"><photo id="../../escaped" secret="abcdef1234" server="65535" title="t\xc2\x9b2J"/>'
                b'</photos></rsp>')


@pytest.fixture
def run_hostile_list(library_path, sandbox, tmp_path):
    """run_cli against a server whose photo list holds a photo id made to climb out of --dest
    (every request gets the list: the photo must never be fetched)."""
    with answering(HOSTILE_LIST) as url:
        yield lambda *argv: run_cli(sandbox, *argv, env_extra={"FLICKR_ENDPOINT": url,
                                                               "XDG_CACHE_HOME": str(tmp_path / "cache")})


def test_ids_from_the_server_never_become_paths(run_hostile_list, tmp_path):
    dest = tmp_path / "deep" / "out"
    result = run_hostile_list("download", "--tags", "x", "--dest", str(dest), "--json")
    assert result.returncode == 1, result.stderr
    (line,) = records(result)
    assert line["error"] == "'../../escaped' is not a photo id; no file is named after it"
    assert "\x9b" not in result.stderr and "(t\\x9b2J)" in result.stderr  # the title (CSI), escaped
    assert listing(dest) == [] and list(tmp_path.rglob("*escaped*")) == []


def test_a_link_planted_at_the_final_name_is_not_written_through(tmp_path):
    """A shared destination where someone planted a link at the name the file is placed under: the
    file is renamed over the link (--overwrite) or refused, never written through it; the fetched
    file arrives in a private folder of the tool's own, where nothing can be planted."""
    from flickr_apps.cli.common import CLIError
    from flickr_apps.cli.place import place

    dest, precious = tmp_path / "shared", tmp_path / "precious"
    dest.mkdir()
    precious.write_bytes(b"keep me")
    final = dest / "1234_b.jpg"
    os.symlink(precious, final)
    fetched = tmp_path / "fetched"
    fetched.write_bytes(MEDIUM * 3)
    with pytest.raises(CLIError, match="exists with other content"):
        place(str(fetched), str(final), overwrite=False)
    assert fetched.exists() and final.is_symlink() and precious.read_bytes() == b"keep me"
    assert place(str(fetched), str(final), overwrite=True) == "downloaded"
    print(f"link target {'untouched' if precious.read_bytes() == b'keep me' else 'overwritten'}")
    assert precious.read_bytes() == b"keep me" and not final.is_symlink() and final.read_bytes() == MEDIUM * 3
    assert listing(dest) == [final.name] and not fetched.exists()
    # The same bytes again: identical, the fetched copy removed; a dangling link is refused too.
    fetched.write_bytes(MEDIUM * 3)
    assert place(str(fetched), str(final), overwrite=False) == "identical" and not fetched.exists()
    os.symlink(tmp_path / "nowhere", dest / "5678_b.jpg")
    fetched.write_bytes(MEDIUM)
    with pytest.raises(CLIError):
        place(str(fetched), str(dest / "5678_b.jpg"), overwrite=False)
    assert not (tmp_path / "nowhere").exists()
