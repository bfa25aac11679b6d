# SPDX-License-Identifier: MIT
"""`flickr upload DIR`: the images of a directory, sorted, one failure not stopping the others."""
import json
import os
import struct
import uuid

import pytest

from libtest import run_cli as run

JPEG = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 8
PNG = b"\x89PNG\r\n\x1a\n" + struct.pack(">I4sII", 13, b"IHDR", 40, 30) + bytes(64)


@pytest.fixture(scope="module")
def sandbox(module_sandbox):
    # A 40x30 PNG has no url_m (500 px) size: kept out of the session's sandbox, whose searches expect one.
    return module_sandbox


@pytest.fixture
def album(tmp_path):
    album = tmp_path / "album"
    (album / "sub" / ".thumbnails").mkdir(parents=True)
    files = {
        "a.jpg": JPEG,
        "b.PNG": PNG,  # extensions in any case
        "c broken.jpg": b"a .jpg that is no image: Flickr refuses it",
        "IMG_0004": JPEG,  # no extension: found by its content
        "notes.txt": b"not an image",
        "clip.mp4": b"\x00\x00\x00\x18ftypisom" + bytes(32),  # a video: left out of directories
        ".hidden.jpg": JPEG,
        "._a.jpg": b"\x00\x05\x16\x07 macOS metadata",
        "sub/d.jpg": JPEG,
        "sub/.thumbnails/t.jpg": JPEG,
    }
    for name, data in files.items():
        (album / name).write_bytes(data)
    return album


def tagged(sandbox, tag):
    """{photo id: title} of the photos carrying `tag`."""
    listed = run(sandbox, "walk", "flickr.photos.search", f"tags={tag}")
    assert listed.returncode == 0, listed.stderr
    return {item["id"]: item["title"] for item in map(json.loads, listed.stdout.splitlines())}


def test_directory_uploads_its_images_sorted_and_survives_a_failure(library_path, sandbox, album):
    tag = "dir" + uuid.uuid4().hex[:12]
    result = run(sandbox, "upload", str(album), "--tags", tag, "--json")
    assert result.returncode == 3, result.stderr  # the failed file's API error decides the exit code
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["file"] for line in lines] == [str(album / n) for n in ("IMG_0004", "a.jpg", "b.PNG", "c broken.jpg")]
    assert [("photo_id" in line) for line in lines] == [True, True, True, False]
    assert lines[3]["api_code"] == 5 and "not recognised" in lines[3]["error"]
    assert f"{album}: 4 images; 2 other files left out" in result.stderr
    assert "uploaded 3 of 4 files" in result.stderr
    for line in lines[:3]:
        assert f"{line['file']} -> {line['photo_id']}" in result.stderr  # each id reported
    assert f"{album / 'c broken.jpg'}: failed: " in result.stderr
    assert set(tagged(sandbox, tag)) == {line["photo_id"] for line in lines[:3]}


def test_recursive_descends_into_subdirectories_but_not_hidden_ones(library_path, sandbox, album):
    tag = "rec" + uuid.uuid4().hex[:12]
    (album / "c broken.jpg").unlink()
    result = run(sandbox, "upload", "-r", str(album), "--tags", tag, "--json")
    assert result.returncode == 0, result.stderr
    files = [json.loads(line)["file"] for line in result.stdout.splitlines()]
    assert files == [str(album / n) for n in ("IMG_0004", "a.jpg", "b.PNG", "sub/d.jpg")]
    assert len(tagged(sandbox, tag)) == 4


def test_files_and_directories_mixed_keep_their_order(library_path, sandbox, album, photo):
    only = album / "sub"
    result = run(sandbox, "upload", str(only), str(photo), "--json")
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["file"] for line in result.stdout.splitlines()] == [str(only / "d.jpg"), str(photo)]


def test_a_file_named_on_the_command_line_is_sent_whatever_it_is(library_path, sandbox, album):
    result = run(sandbox, "upload", str(album / "notes.txt"), "--json")
    assert result.returncode == 3  # not skipped: sent, and refused by Flickr
    assert json.loads(result.stdout)["api_code"] == 5


def test_directory_without_images_uploads_nothing(library_path, sandbox, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "readme.txt").write_text("no photos here")
    result = run(sandbox, "upload", str(empty))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"{empty}: 0 images; 1 other files left out",
                                          "flickr: no image files to upload"]


def test_a_missing_path_uploads_nothing(library_path, sandbox, album):
    tag = "none" + uuid.uuid4().hex[:12]
    result = run(sandbox, "upload", str(album), str(album / "nope.jpg"), "--tags", tag)
    assert result.returncode == 2
    assert "no such file" in result.stderr and "nope.jpg" in result.stderr
    assert tagged(sandbox, tag) == {}


@pytest.fixture
def linked(tmp_path):
    """A folder of two photos and links: one to a secret file outside (standing in for /etc/shadow),
    one to nothing outside, one to a photo inside, and with -r a loop back to the folder itself."""
    secret = tmp_path / "shadow"
    secret.write_bytes(JPEG + b"root:$6$secret-hash")  # would be sent as a JPEG
    folder = tmp_path / "linked"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.jpg").write_bytes(JPEG)
    (folder / "sub" / "b.jpg").write_bytes(JPEG)
    (folder / "shadow.jpg").symlink_to(secret)
    (folder / "gone.jpg").symlink_to(tmp_path / "nothing-here.jpg")
    (folder / "best.jpg").symlink_to("sub/b.jpg")  # inside: taken for the photo it names
    (folder / "sub" / "loop").symlink_to("..")
    (folder / "outside").symlink_to(tmp_path)  # a directory out of it: holds the secret again
    return folder


def test_links_leading_out_of_a_directory_are_left_out_and_listed(library_path, sandbox, linked):
    result = run(sandbox, "upload", "-r", str(linked), "--json")
    assert result.returncode == 0, result.stderr  # left out by policy, said on stderr: not a failure
    sent = [json.loads(line)["file"] for line in result.stdout.splitlines()]
    left_out = [line.strip() for line in result.stderr.splitlines() if line.startswith("  ") and " -> /" in line]
    print(f"{len(sent)} sent, {len(left_out)} links leading out left out")
    assert sent == [str(linked / n) for n in ("a.jpg", "best.jpg")]  # sub/b.jpg is best.jpg: sent once
    assert f"{linked}: 1 images reached again through a link, sent once" in result.stderr
    assert f"{linked}: 3 symbolic links leading out of it left out (--follow-links sends them):" in result.stderr
    assert left_out == [f"{linked / 'gone.jpg'} -> {linked.parent / 'nothing-here.jpg'}",
                        f"{linked / 'outside'} -> {linked.parent}",
                        f"{linked / 'shadow.jpg'} -> {linked.parent / 'shadow'}"]


def test_follow_links_sends_them_and_a_directory_loop_ends(library_path, sandbox, linked):
    (linked / "outside").unlink()
    result = run(sandbox, "upload", "-r", "--follow-links", str(linked), "--json")
    assert result.returncode == 0, result.stderr
    sent = [json.loads(line)["file"] for line in result.stdout.splitlines()]
    print(f"{len(sent)} sent through links, the loop walked once")
    # sub/loop is the folder again: each directory is listed once, so the walk ends; sub/b.jpg is best.jpg.
    assert sent == [str(linked / n) for n in ("a.jpg", "best.jpg", "shadow.jpg")]
    assert "left out" not in result.stderr


def test_an_escaping_name_in_the_listing_of_links(library_path, sandbox, linked):
    hostile = linked / "\x1b]0;pwned\x07\x1b[2J.jpg"
    hostile.symlink_to(linked.parent / "shadow")
    result = run(sandbox, "upload", str(linked), "--json")
    assert result.returncode == 0, result.stderr
    assert "\\x1b]0;pwned\\x07\\x1b[2J.jpg -> " in result.stderr and "\x1b" not in result.stderr


def test_names_that_are_not_utf8_upload(library_path, sandbox, tmp_path):
    """Issue 29, 4d: before, each such file failed with "path is not valid UTF-8" and the batch
    exited 2. Now they upload, Flickr gets the names as UTF-8 (U+FFFD for the bytes that are not),
    the JSON lines name the files as Python spells them (json.loads, then os.fsencode, gives the
    path back) and the summary shows the bytes escaped."""
    tag = "raw" + uuid.uuid4().hex[:12]
    folder = tmp_path / "raw"
    folder.mkdir()
    names = [b"caf\xe9.jpg", b"na\xefve \xff.png", b"plain.jpg"]
    for name in names:
        with open(bytes(folder) + b"/" + name, "wb") as file:
            file.write(JPEG)
    result = run(sandbox, "upload", str(folder), "--tags", tag, "--json")
    print(result.stderr)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [os.fsencode(line["file"]) for line in lines] == [bytes(folder) + b"/" + n for n in names]
    assert "uploaded 3 of 3 files" in result.stderr
    assert "caf\\xe9.jpg -> " in result.stderr
    assert len(tagged(sandbox, tag)) == 3
    received = []
    for line in lines:
        info = run(sandbox, "call", "flickr.sandbox.getFileInfo", f"photo_id={line['photo_id']}")
        assert info.returncode == 0, info.stderr
        received.append(json.loads(info.stdout)["file"]["name"])
    assert received == ["caf\ufffd.jpg", "na\ufffdve \ufffd.png", "plain.jpg"]
    print(f"{len(lines)} files uploaded, {len(names) - 1} of them named in bytes that are not UTF-8")
