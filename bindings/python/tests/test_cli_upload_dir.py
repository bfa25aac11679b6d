# SPDX-License-Identifier: MIT
"""`flickr upload DIR`: the images of a directory, sorted, one failure not stopping the others."""
import hashlib
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


def _photos(folder, names):
    """Files of `names` in `folder`, each a JPEG of its own bytes: the sandbox is shared by the module."""
    folder.mkdir(exist_ok=True)
    for name in names:
        (folder / name).write_bytes(JPEG + uuid.uuid4().bytes)


def _searches(stderr):
    """The listing calls -v logged: one line per request, naming its method."""
    return [line for line in stderr.splitlines() if line.startswith("flickr: ") and "flickr.photos.search" in line]


def test_skip_existing_lists_once_and_sends_only_new_or_changed_files(library_path, sandbox, tmp_path):
    """Issue 30, item 5: re-running `flickr upload DIR` uploaded every file again. Now each upload
    carries the machine tag libflickr:sha256=HASH, and --skip-existing lists those tags in one
    search (500 a page), then skips the files whose hash the account holds."""
    folder = tmp_path / "trip"
    _photos(folder, ["1.jpg", "2.jpg", "3.jpg"])
    first = run(sandbox, "upload", str(folder), "--json")
    assert first.returncode == 0, first.stderr
    ids = {line["file"]: line["photo_id"] for line in map(json.loads, first.stdout.splitlines())}
    assert len(ids) == 3

    again = run(sandbox, "-v", "upload", str(folder), "--skip-existing", "--json")
    assert again.returncode == 0, again.stderr
    lines = [json.loads(line) for line in again.stdout.splitlines()]
    searches = _searches(again.stderr)
    print(f"re-run: {sum('photo_id' in l and 'skipped' not in l for l in lines)} uploaded, "
          f"{len(lines)} skipped, {len(searches)} listing calls")
    assert lines == [{"file": path, "skipped": "already uploaded", "photo_id": ids[path]} for path in sorted(ids)]
    assert "3 already on Flickr, skipped" in again.stderr and "uploaded 0 of 0 files" in again.stderr
    assert len(searches) == 1, searches  # one listing call, not one per file

    _photos(folder, ["4.jpg"])
    (folder / "2.jpg").write_bytes(JPEG + b"edited")
    third = run(sandbox, "upload", str(folder), "--skip-existing", "--json")
    assert third.returncode == 0, third.stderr
    sent = [line["file"] for line in map(json.loads, third.stdout.splitlines()) if "skipped" not in line]
    print(f"after adding one and changing one: {len(sent)} uploaded")
    assert sent == [str(folder / "2.jpg"), str(folder / "4.jpg")]
    assert "2 already on Flickr, skipped" in third.stderr and "uploaded 2 of 2 files" in third.stderr


def test_skip_existing_sends_a_repeated_file_once(library_path, sandbox, tmp_path):
    folder = tmp_path / "copies"
    _photos(folder, ["a.jpg"])
    (folder / "copy of a.jpg").write_bytes((folder / "a.jpg").read_bytes())  # another file, same bytes
    result = run(sandbox, "upload", str(folder), "--skip-existing", "--json")
    assert result.returncode == 0, result.stderr
    sent, copy = map(json.loads, result.stdout.splitlines())
    assert copy == {"file": str(folder / "copy of a.jpg"), "skipped": "already uploaded", "photo_id": sent["photo_id"]}


def test_the_checksum_tag_and_opting_out(library_path, sandbox, tmp_path):
    folder = tmp_path / "tagged"
    _photos(folder, ["a.jpg", "b.jpg"])
    tag = "mine" + uuid.uuid4().hex[:12]
    tagged_run = run(sandbox, "upload", str(folder / "a.jpg"), "--tags", tag, "--json")
    untagged_run = run(sandbox, "upload", str(folder / "b.jpg"), "--no-checksum-tag", "--json")
    assert tagged_run.returncode == untagged_run.returncode == 0
    listed = {}
    for result in (tagged_run, untagged_run):
        photo_id = json.loads(result.stdout)["photo_id"]
        info = run(sandbox, "call", "flickr.photos.getInfo", f"photo_id={photo_id}")
        listed[photo_id] = [t["raw"] for t in json.loads(info.stdout)["photo"]["tags"].get("tag", [])]
    digest = hashlib.sha256((folder / "a.jpg").read_bytes()).hexdigest()[:32]
    assert list(listed.values()) == [[tag, f"libflickr:sha256={digest}"], []]
    again = run(sandbox, "upload", str(folder), "--skip-existing", "--json")  # b.jpg, untagged, goes again
    assert [("skipped" in json.loads(line)) for line in again.stdout.splitlines()] == [True, False]


def test_skip_existing_finds_the_files_of_an_account_past_the_search_cap(library_path, tmp_path):
    """A search serves 4,000 results (flickr.limits.SEARCH_RESULT_CAP), newest first: the listing was one
    walk, so on an account of more tagged photos the oldest were not found and their files were sent
    again. An account of the cap + 200 tagged photos: a file of the oldest and one of the newest are
    both skipped."""
    from flickr.limits import SEARCH_RESULT_CAP
    from flickr_sandbox import constants
    from flickr_sandbox.seed import normalize_tag
    from flickr_sandbox.seed_photos import FIRST_ID
    from flickr_sandbox.store import Store
    from libtest import running_sandbox

    count = SEARCH_RESULT_CAP + 200
    folder = tmp_path / "old and new"
    _photos(folder, ["oldest.jpg", "newest.jpg"])
    hashes = {FIRST_ID + n: hashlib.sha256(b"seeded %d" % n).hexdigest()[:32] for n in range(count)}
    hashes[FIRST_ID] = hashlib.sha256((folder / "oldest.jpg").read_bytes()).hexdigest()[:32]
    hashes[FIRST_ID + count - 1] = hashlib.sha256((folder / "newest.jpg").read_bytes()).hexdigest()[:32]
    data = tmp_path / "sandbox"
    with running_sandbox("--data", str(data), "--seed-photos", str(count)) as server:
        store = Store(str(data))  # the tag `flickr upload` would have added, on every seeded item
        try:
            with store.transaction():
                store.many("INSERT INTO tags VALUES (?,?,?,?,?,?)",
                           [(photo, 50, constants.USER_NSID, f"libflickr:sha256={digest}",
                             normalize_tag(f"libflickr:sha256={digest}"), 1) for photo, digest in hashes.items()])
        finally:
            store.close()
        result = run(server, "-v", "upload", str(folder), "--skip-existing", "--json")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    searches = _searches(result.stderr)
    print(f"{count} tagged photos listed in {len(searches)} searches; {lines}")
    assert result.returncode == 0, result.stderr
    assert lines == [{"file": str(folder / "newest.jpg"), "skipped": "already uploaded", "photo_id": str(FIRST_ID + count - 1)},
                     {"file": str(folder / "oldest.jpg"), "skipped": "already uploaded", "photo_id": str(FIRST_ID)}]
    assert "2 already on Flickr, skipped" in result.stderr and "not every photo" not in result.stderr
    assert len(searches) < count / 100  # about one a page of 500, and the slicing's few


def test_skip_existing_says_when_the_listing_is_incomplete(library_path, sandbox, tmp_path):
    """A listing Flickr did not serve whole (here: its total one more than it gives, counts that moved)
    is said on stderr, as files already there may be sent again; the run goes on (exit 0)."""
    import re

    from lyingproxy import attributes, lying

    folder = tmp_path / "once"
    _photos(folder, ["a.jpg"])
    assert run(sandbox, "upload", str(folder), "--json").returncode == 0

    def one_more(page, body):
        total = int(re.search(rb'<photos [^>]*total="(\d+)"', body).group(1))
        return attributes(body, "photos", total=total + 1)
    with lying(sandbox.url, "flickr.photos.search", one_more) as proxy:
        again = run(sandbox, "upload", str(folder), "--skip-existing", "--json",
                    env_extra={"FLICKR_ENDPOINT": proxy.url})
    print(f"{proxy.calls['flickr.photos.search']} searches: {again.stderr.strip()}")
    assert again.returncode == 0, again.stderr
    assert "not every photo tagged with its checksum could be listed" in again.stderr
    assert json.loads(again.stdout)["skipped"] == "already uploaded"
