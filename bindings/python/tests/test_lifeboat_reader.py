# SPDX-License-Identifier: MIT
"""The independent Data Lifeboat reader (lifeboat_reader.py, docs/lifeboat.md) on Lifeboats built
here by hand: a valid one reads with no problem, and each broken one shows its problem.

No library and no network: the reader is what the writer of `flickr lifeboat` will be tested with.
"""
from __future__ import annotations

import json
import os
import pathlib
import re
from typing import Any, Callable, Dict, List

import pytest

import lifeboat_reader as reader

ADA, BO = "12345678@N00", "87654321@N01"
ALBUM, GROUP = "72157700000000001", "34567890@N00"


def write_js(path: pathlib.Path, name: str, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"const {name} = {json.dumps(value, indent=2, ensure_ascii=False)};\n", encoding="utf-8")


def photo(photo_id: str, title: str, tags: List[Dict[str, Any]], comments: List[Dict[str, Any]],
          albums: List[str], groups: List[str]) -> Dict[str, Any]:
    return {
        "id": photo_id, "secret": "1a2b3c4d5e", "title": title, "description": "",
        "url": f"https://www.flickr.com/photos/{ADA}/{photo_id}/",
        "uploaderId": ADA, "licenseId": "4",
        "dateTaken": {"value": "2023-05-14T21:04:11", "granularity": "second"},
        "dateUploaded": "2023-05-15T08:00:02Z",
        "location": {"latitude": 50.8, "longitude": -1.1, "accuracy": 16, "context": "outdoors"},
        "tags": tags, "countFaves": 3, "countViews": 120, "countComments": len(comments),
        "albumIds": albums, "galleryIds": [], "groupIds": groups,
        "safetyLevel": "safe", "visibility": "public", "originalFormat": "jpg", "mediaType": "photo",
        "files": {"original": f"media/originals/{photo_id}_1a2b3c4d5e_o.jpg",
                  "thumbnail": f"media/thumbnails/{photo_id}_1a2b3c4d5e_q.jpg"},
        "comments": comments,
    }


def tag(author: str, raw: str) -> Dict[str, Any]:
    return {"authorId": author, "rawValue": raw, "normalizedValue": raw.lower(), "isMachineTag": False}


def build(root: pathlib.Path) -> pathlib.Path:
    """A valid Lifeboat of two photos, two members, an album, a group, tags and a comment."""
    photos = {
        "52891000873": photo("52891000873", "Harbour at dusk", [tag(ADA, "Harbour"), tag(BO, "night")],
                             [{"id": "1000-52891000873-1", "authorId": BO, "text": "Lovely light.",
                               "date": "2023-05-16T10:12:00Z"}], [ALBUM], [GROUP]),
        "52891000874": photo("52891000874", "Pier", [tag(ADA, "harbour")], [], [ALBUM], []),
    }
    (root / "viewer").mkdir(parents=True)
    (root / "viewer" / "index.html").write_text("<!doctype html><title>viewer</title>\n")
    (root / "README.html").write_text("<!doctype html><title>Harbour lights</title>\n")
    meta = root / "metadata"
    write_js(meta / "lifeboat.js", "lifeboat", {
        "id": "HARBOUR_LIGHTS", "name": "Harbour lights", "creator": {"id": ADA, "name": "Ada Example"},
        "dateCreated": "2026-11-29T07:00:00Z", "purpose": "The club's archive.",
        "futureConsiderations": "None known."})
    index = {}
    for photo_id, value in photos.items():
        write_js(meta / "photos" / f"{photo_id}.js", "photo", value)
        for key in ("original", "thumbnail"):
            path = root / value["files"][key]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"\xff\xd8\xff\xe0" + photo_id.encode())
        index[photo_id] = {key: value[key] for key in reader.SHARED_FIELDS}
        index[photo_id].update({
            "tags": [t["normalizedValue"] for t in value["tags"]],
            "countComments": value["countComments"], "countFaves": 3, "countViews": 120,
            "thumbnail": {"path": value["files"]["thumbnail"], "width": 150, "height": 150},
            "metadataPath": f"metadata/photos/{photo_id}.js"})
    write_js(meta / "photoIndex.js", "photoIndex", index)
    write_js(meta / "licenseIndex.js", "licenseIndex",
             {"4": {"label": "CC BY 2.0", "url": "https://creativecommons.org/licenses/by/2.0/"}})
    write_js(meta / "contributorIndex.js", "contributorIndex", {
        ADA: {"username": "ada", "realname": "Ada Example", "pathAlias": None,
              "contributions": {"photo": 2, "tag": 2, "comment": 0}},
        BO: {"username": "bo", "realname": None, "pathAlias": None,
             "contributions": {"photo": 0, "tag": 1, "comment": 1}}})
    write_js(meta / "albumIndex.js", "albumIndex", {
        ALBUM: {"title": "Harbour", "ownerId": ADA, "countPhotos": 12, "photoIds": list(photos)}})
    write_js(meta / "galleryIndex.js", "galleryIndex", {})
    write_js(meta / "groupIndex.js", "groupIndex", {
        GROUP: {"name": "Harbours", "nsid": GROUP, "photoIds": ["52891000873"]}})
    write_js(meta / "tagIndex.js", "tagIndex", {"harbour": 2, "night": 1})
    return root


@pytest.fixture
def lifeboat(tmp_path: pathlib.Path) -> pathlib.Path:
    return build(tmp_path / "HARBOUR_LIGHTS")


def edit(root: pathlib.Path, relative: str, name: str, change: Callable[[Dict[str, Any]], None]) -> None:
    """Read one metadata file, change its object, write it back in the format."""
    path = root / relative
    value = reader.parse_js(path.read_text(encoding="utf-8"), name)
    change(value)
    write_js(path, name, value)


def problems(root: pathlib.Path, **options: Any) -> List[reader.Problem]:
    found = reader.check(str(root), **options)
    print(f"{len(found)} problem(s):", *found, sep="\n  ")
    return found


def assert_found(found: List[reader.Problem], code: str, where: str) -> None:
    assert any(p.code == code and where in p.where for p in found), (code, where, found)


def test_a_valid_lifeboat_has_no_problem(lifeboat):
    assert problems(lifeboat) == []
    read = reader.load(str(lifeboat))
    assert sorted(read.photos) == ["52891000873", "52891000874"]
    assert set(read.indexes) == set(reader.INDEXES.values())


def test_the_older_files_shape_is_read_too(lifeboat):
    """Older Foundation Lifeboats give each file as an object holding its path."""
    def older(value):
        for key in ("original", "thumbnail"):
            value["files"][key] = {"path": value["files"][key], "label": key, "content_type": "image/jpeg",
                                   "width": 1, "height": 1, "media": "photo", "size": 5, "checksum": "x"}
    edit(lifeboat, "metadata/photos/52891000874.js", "photo", older)
    assert problems(lifeboat) == []


@pytest.mark.parametrize("text", [
    'const photo = {"id": "1"};',
    'const photo = {"id": "1"}',           # the Foundation's own photoIndex example has no ';'
    'const   photo\n=\n{"id": "1"} ;\n\n',
])
def test_the_wrapper_accepts_const_name_json(text):
    assert reader.parse_js(text, "photo") == {"id": "1"}


@pytest.mark.parametrize("text, code", [
    ('var photo = {"id": "1"};', "wrapper"),
    ('let photo = {"id": "1"};', "wrapper"),
    ('photo = {"id": "1"};', "wrapper"),
    ('  const photo = {"id": "1"};', "wrapper"),
    ('const photo = {"id": "1"}; alert(1);', "wrapper"),
    ('const photo = {"id": "1"}; // note', "wrapper"),
    ('const photo = {"id": "1"};;', "wrapper"),
    ('const photo = ["1"];', "wrapper"),
    ('const photo = "1";', "wrapper"),
    ('const photo = {"id": "1"} + {};', "wrapper"),
    ('const photos = {"id": "1"};', "name"),
    ('const Photo = {"id": "1"};', "name"),
    ('const photo = {"n": NaN};', "json"),
    ('const photo = {"n": -Infinity};', "json"),
    ("const photo = {'id': '1'};", "json"),
    ('const photo = {"id": "1",};', "json"),
    ('const photo = {"id": "1", "id": "2"};', "json"),
    ('const photo = {"a": {"b": 1, "b": 1}};', "json"),
    ('const photo = {"id": "1"', "json"),
    ('\ufeffconst photo = {"id": "1"};', "encoding"),
])
def test_the_wrapper_refuses_anything_else(text, code):
    with pytest.raises(reader.FormatError) as caught:
        reader.parse_js(text, "photo")
    assert caught.value.code == code, caught.value


def test_a_missing_photo_file(lifeboat):
    (lifeboat / "metadata/photos/52891000874.js").unlink()
    assert_found(problems(lifeboat), "missing-photo-file", "metadata/photos/52891000874.js")


def test_a_stray_photo_file(lifeboat):
    write_js(lifeboat / "metadata/photos/52891000999.js", "photo", {"id": "52891000999"})
    assert_found(problems(lifeboat), "stray-photo-file", "52891000999.js")


def test_a_photo_file_of_another_id(lifeboat):
    edit(lifeboat, "metadata/photos/52891000874.js", "photo", lambda v: v.update(id="52891000873"))
    assert_found(problems(lifeboat), "id-mismatch", "52891000874.js")


def test_an_index_entry_that_disagrees_with_its_photo(lifeboat):
    edit(lifeboat, "metadata/photoIndex.js", "photoIndex", lambda v: v["52891000874"].update(title="Pear"))
    assert_found(problems(lifeboat), "index-mismatch", "photoIndex.js[52891000874]")


@pytest.mark.parametrize("path", [
    "media/../../outside.jpg", "/etc/hostname", "media/originals/../../../outside.jpg",
    "media\\originals\\x.jpg", "media//x.jpg", "media/./x.jpg", "README.html", "media/a b.jpg",
    "media/x.jpg?v=1", "",
])
def test_a_path_that_escapes_or_cannot_be_loaded(lifeboat, path):
    (lifeboat.parent / "outside.jpg").write_bytes(b"\xff\xd8 not the Lifeboat's")
    edit(lifeboat, "metadata/photos/52891000874.js", "photo", lambda v: v["files"].update(original=path))
    found = problems(lifeboat)
    assert_found(found, "path", "52891000874.js")
    assert_found(found, "unreferenced", "media/originals/52891000874_1a2b3c4d5e_o.jpg")


def test_a_link_out_of_the_lifeboat(lifeboat):
    outside = lifeboat.parent / "secret.jpg"
    outside.write_bytes(b"\xff\xd8 outside")
    original = lifeboat / "media/originals/52891000874_1a2b3c4d5e_o.jpg"
    original.unlink()
    original.symlink_to(outside)
    found = problems(lifeboat)
    assert_found(found, "link", "media/originals/52891000874_1a2b3c4d5e_o.jpg")
    assert_found(found, "escape", "52891000874.js")


def test_a_linked_metadata_folder_is_not_followed(lifeboat, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    (lifeboat / "metadata/photos").rename(elsewhere)
    (lifeboat / "metadata/photos").symlink_to(elsewhere, target_is_directory=True)
    found = problems(lifeboat)
    assert_found(found, "link", "metadata/photos")
    assert_found(found, "not-regular", "metadata/photos/52891000873.js")


def test_a_missing_media_file(lifeboat):
    (lifeboat / "media/thumbnails/52891000873_1a2b3c4d5e_q.jpg").unlink()
    assert_found(problems(lifeboat), "missing-media", "52891000873.js")


def test_a_leftover_media_file(lifeboat):
    (lifeboat / "media/originals/52891000875_aa_o.jpg.part").write_bytes(b"half")
    assert_found(problems(lifeboat), "unreferenced", "media/originals/52891000875_aa_o.jpg.part")


def test_a_bad_js_wrapper_in_a_photo_file(lifeboat):
    path = lifeboat / "metadata/photos/52891000873.js"
    path.write_text(path.read_text().replace("const photo", "var photo", 1))
    assert_found(problems(lifeboat), "wrapper", "metadata/photos/52891000873.js")


def test_a_bad_js_wrapper_in_an_index(lifeboat):
    path = lifeboat / "metadata/licenseIndex.js"
    path.write_text(path.read_text() + "document.title = 'x';\n")
    found = problems(lifeboat)
    assert_found(found, "wrapper", "metadata/licenseIndex.js")
    assert_found(found, "dangling-licence", "52891000873.js")


def test_a_file_that_is_not_utf8(lifeboat):
    (lifeboat / "metadata/tagIndex.js").write_bytes(b'const tagIndex = {"caf\xe9": 1};\n')
    assert_found(problems(lifeboat), "encoding", "metadata/tagIndex.js")


def test_a_dangling_licence_id(lifeboat):
    for relative, name, change in (
            ("metadata/photos/52891000874.js", "photo", lambda v: v.update(licenseId="99")),
            ("metadata/photoIndex.js", "photoIndex", lambda v: v["52891000874"].update(licenseId="99"))):
        edit(lifeboat, relative, name, change)
    found = problems(lifeboat)
    assert [p.code for p in found] == ["dangling-licence"]
    assert "'99'" in found[0].detail


def test_a_dangling_contributor(lifeboat):
    edit(lifeboat, "metadata/photos/52891000873.js", "photo",
         lambda v: v["comments"][0].update(authorId="11111111@N00"))
    found = problems(lifeboat)
    assert_found(found, "dangling-contributor", "52891000873.js")
    assert_found(found, "count", f"contributorIndex.js[{BO}]")   # BO's comment is gone


def test_a_dangling_album_gallery_and_group(lifeboat):
    def change(value):
        value["albumIds"].append("72157799999999999")
        value["galleryIds"].append("66911286-72157700000000002")
        value["groupIds"].append("99999999@N00")
    edit(lifeboat, "metadata/photos/52891000874.js", "photo", change)
    found = problems(lifeboat)
    for code in ("dangling-album", "dangling-gallery", "dangling-group"):
        assert_found(found, code, "52891000874.js")


def test_an_album_naming_a_photo_not_in_the_lifeboat(lifeboat):
    edit(lifeboat, "metadata/albumIndex.js", "albumIndex", lambda v: v[ALBUM]["photoIds"].append("1"))
    assert_found(problems(lifeboat), "dangling-photo", f"albumIndex.js[{ALBUM}]")


def test_membership_named_on_one_side_only(lifeboat):
    edit(lifeboat, "metadata/groupIndex.js", "groupIndex", lambda v: v[GROUP].update(photoIds=[]))
    edit(lifeboat, "metadata/albumIndex.js", "albumIndex", lambda v: v[ALBUM]["photoIds"].pop())
    edit(lifeboat, "metadata/photos/52891000874.js", "photo", lambda v: v.update(groupIds=[GROUP]))
    edit(lifeboat, "metadata/photos/52891000873.js", "photo", lambda v: v.update(albumIds=[]))
    found = problems(lifeboat)
    assert_found(found, "membership", "metadata/photos/52891000873.js")      # the group lost it
    assert_found(found, "membership", "metadata/photos/52891000874.js")      # the album lost it
    assert_found(found, "membership", f"metadata/albumIndex.js[{ALBUM}]")    # it left the album


def test_tag_counts_and_a_tag_missing_from_the_index(lifeboat):
    edit(lifeboat, "metadata/tagIndex.js", "tagIndex", lambda v: v.update(harbour=3) or v.pop("night"))
    found = problems(lifeboat)
    assert_found(found, "count", "tagIndex.js[harbour]")
    assert_found(found, "dangling-tag", "metadata/tagIndex.js")


def test_a_contributor_count_that_disagrees(lifeboat):
    edit(lifeboat, "metadata/contributorIndex.js", "contributorIndex",
         lambda v: v[ADA]["contributions"].update(photo=7))
    found = problems(lifeboat)
    assert [p.code for p in found] == ["count"]


def test_a_photo_id_that_would_name_a_file_elsewhere(lifeboat):
    (lifeboat.parent / "x.js").write_text('const photo = {"id": "../../x"};\n')
    edit(lifeboat, "metadata/photoIndex.js", "photoIndex",
         lambda v: v.update({"../../x": dict(v["52891000873"])}))
    found = problems(lifeboat)
    assert_found(found, "bad-id", "metadata/photoIndex.js")
    assert not any(p.code == "missing-photo-file" for p in found)


def test_wrong_shapes(lifeboat):
    def change(value):
        value["dateTaken"]["granularity"] = "weekly"
        value["location"]["latitude"] = 91
        value["tags"][0]["authorId"] = 5
        value["safetyLevel"] = "spicy"
    edit(lifeboat, "metadata/photos/52891000874.js", "photo", change)
    edit(lifeboat, "metadata/lifeboat.js", "lifeboat", lambda v: v.update(dateCreated="yesterday"))
    found = problems(lifeboat)
    shapes = [p.detail for p in found if p.code == "shape"]
    for words in ("granularity", "location", "tags is not", "safetyLevel", "dateCreated"):
        assert any(words in detail for detail in shapes), words


def test_missing_readme_viewer_and_index(lifeboat):
    (lifeboat / "README.html").unlink()
    (lifeboat / "viewer/index.html").unlink()
    (lifeboat / "viewer").rmdir()
    (lifeboat / "metadata/galleryIndex.js").unlink()
    found = problems(lifeboat)
    for where in ("README.html", "viewer", "metadata/galleryIndex.js"):
        assert_found(found, "missing-file", where)


def test_a_fifo_is_reported_and_never_opened(lifeboat):
    """Opening a FIFO for reading would wait for a writer forever: the test returning is the check."""
    (lifeboat / "metadata/tagIndex.js").unlink()
    os.mkfifo(lifeboat / "metadata/tagIndex.js")
    (lifeboat / "media/originals/52891000874_1a2b3c4d5e_o.jpg").unlink()
    os.mkfifo(lifeboat / "media/originals/52891000874_1a2b3c4d5e_o.jpg")
    found = problems(lifeboat)
    assert_found(found, "not-regular", "metadata/tagIndex.js")
    assert_found(found, "not-regular", "52891000874.js")


def test_a_metadata_file_over_the_limit(lifeboat):
    size = (lifeboat / "metadata/photoIndex.js").stat().st_size
    found = problems(lifeboat, limit=size - 1)
    assert_found(found, "too-large", "metadata/photoIndex.js")


def test_the_examples_of_the_format_page_read_without_problem(tmp_path):
    """docs/lifeboat.md's examples, put together, make a Lifeboat the reader accepts: the page and
    the reader say the same thing."""
    page = (pathlib.Path(__file__).parents[3] / "docs" / "lifeboat.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```js\n(.*?)```", page, re.S)
    statements = re.split(r"\n(?=const )", "\n".join(re.sub(r"\s{2,}// .*", "", b) for b in blocks))
    root = tmp_path / "HARBOUR_LIGHTS"
    files = {value: key for key, value in reader.INDEXES.items()}
    for statement in statements:
        declared = re.match(r"const ([A-Za-z]+)", statement)
        assert declared is not None, statement
        name = declared.group(1)
        value = reader.parse_js(statement.strip(), name)
        if name == "photo":
            write_js(root / "metadata/photos" / f"{value['id']}.js", name, value)
            for path in value["files"].values():
                (root / path).parent.mkdir(parents=True, exist_ok=True)
                (root / path).write_bytes(b"\xff\xd8")
        else:
            write_js(root / "metadata" / files.pop(name), name, value)
    print("indexes not in the page's examples:", sorted(files))
    assert sorted(files) == ["galleryIndex"]
    write_js(root / "metadata/galleryIndex.js", "galleryIndex", {})
    (root / "viewer").mkdir()
    (root / "README.html").write_text("<!doctype html>\n")
    assert problems(root) == []
