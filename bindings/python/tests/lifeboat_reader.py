# SPDX-License-Identifier: MIT
"""An independent reader of the Flickr Foundation's Data Lifeboat format, written from
docs/lifeboat.md only (standard library, nothing run: the JavaScript files are parsed as JSON).

`check(folder)` returns the list of problems (empty when the Lifeboat holds together);
`load(folder)` returns what it read with them; `parse_js(text, name)` reads one metadata file's
text. Each rule and its problem code are in docs/lifeboat.md ("What the reader checks").
"""
from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Set, Tuple

MAX_METADATA_BYTES = 64 * 1024 * 1024

# File name (under metadata/) -> the variable it declares.
INDEXES = {
    "lifeboat.js": "lifeboat",
    "photoIndex.js": "photoIndex",
    "licenseIndex.js": "licenseIndex",
    "contributorIndex.js": "contributorIndex",
    "albumIndex.js": "albumIndex",
    "galleryIndex.js": "galleryIndex",
    "groupIndex.js": "groupIndex",
    "tagIndex.js": "tagIndex",
}
PHOTO_VARIABLE = "photo"
GRANULARITIES = {"second", "minute", "hour", "day", "month", "year", "circa"}
SAFETY_LEVELS = {"safe", "moderate", "restricted"}
# Fields a photo index entry repeats from its photo file.
SHARED_FIELDS = ("title", "uploaderId", "licenseId", "dateTaken", "dateUploaded", "visibility")
# photo file field -> (index file, code when an id is missing from it)
MEMBERSHIPS = (("albumIds", "albumIndex", "album"), ("galleryIds", "galleryIndex", "gallery"),
               ("groupIds", "groupIndex", "group"))

_DECLARATION = re.compile(r"const\s+([A-Za-z]+)\s*=\s*")
_END = re.compile(r"\s*;?\s*")
_PHOTO_ID = re.compile(r"[0-9]+")
_SAFE_PATH = re.compile(r"[A-Za-z0-9._/-]+")


class Problem(NamedTuple):
    code: str
    where: str
    detail: str

    def __str__(self) -> str:
        return f"{self.where}: {self.code}: {self.detail}"


class FormatError(ValueError):
    """A metadata file that is not `const NAME = {JSON};`; `code` is its problem code."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code


def _unique_pairs(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen = set()
        for name, _ in pairs:
            if name in seen:
                raise FormatError("json", f"duplicate name {name!r} in an object")
            seen.add(name)
    return result


def _no_constant(word: str) -> Any:
    raise FormatError("json", f"{word} is not JSON")


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_pairs, parse_constant=_no_constant)


def parse_js(text: str, name: str) -> Dict[str, Any]:
    """The object of `const NAME = {JSON};` (the `;` optional); FormatError for anything else."""
    if text.startswith("\ufeff"):
        raise FormatError("encoding", "starts with a byte-order mark")
    declaration = _DECLARATION.match(text)
    if declaration is None:
        raise FormatError("wrapper", "does not start with `const NAME = `")
    if declaration.group(1) != name:
        raise FormatError("name", f"declares {declaration.group(1)!r}, expected {name!r}")
    start = declaration.end()
    if not text.startswith("{", start):
        raise FormatError("wrapper", "the value is not a JSON object")
    try:
        value, end = _DECODER.raw_decode(text, start)
    except json.JSONDecodeError as error:
        raise FormatError("json", f"{error.msg} at character {error.pos}") from None
    if _END.fullmatch(text, end) is None:
        raise FormatError("wrapper", f"text after the object at character {end}")
    assert isinstance(value, dict)
    return value


def _open_regular(path: str) -> int:
    """A descriptor on a regular file, never following a link nor blocking on a FIFO."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise IsADirectoryError(path)
    return fd


def _linked_folder(root: str, relative: str) -> Optional[str]:
    """The first folder on the way to `relative` that is a link (O_NOFOLLOW guards the last part only)."""
    parts = relative.split("/")[:-1]
    for depth in range(1, len(parts) + 1):
        folder = "/".join(parts[:depth])
        if os.path.islink(os.path.join(root, folder)):
            return folder
    return None


@dataclass
class Lifeboat:
    root: str
    problems: List[Problem] = field(default_factory=list)
    indexes: Dict[str, Dict[str, Any]] = field(default_factory=dict)  # variable -> object
    photos: Dict[str, Dict[str, Any]] = field(default_factory=dict)  # photo id -> photo file

    def problem(self, code: str, where: str, detail: str) -> None:
        self.problems.append(Problem(code, where, detail))

    def read(self, relative: str, name: str, limit: int) -> Optional[Dict[str, Any]]:
        path = os.path.join(self.root, relative)
        linked = _linked_folder(self.root, relative)
        if linked is not None:
            self.problem("not-regular", relative, f"reached through the link {linked}")
            return None
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            self.problem("missing-file", relative, "absent")
            return None
        if not stat.S_ISREG(info.st_mode):
            self.problem("not-regular", relative, "not a regular file")
            return None
        if info.st_size > limit:
            self.problem("too-large", relative, f"{info.st_size} bytes, over {limit}")
            return None
        try:
            fd = _open_regular(path)
        except OSError as error:
            self.problem("not-regular", relative, str(error))
            return None
        with os.fdopen(fd, "rb") as file:
            data = file.read(limit + 1)
        if len(data) > limit:
            self.problem("too-large", relative, f"over {limit} bytes")
            return None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            self.problem("encoding", relative, f"not UTF-8: {error.reason} at byte {error.start}")
            return None
        try:
            return parse_js(text, name)
        except FormatError as error:
            self.problem(error.code, relative, str(error))
            return None


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_date(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        datetime.fromisoformat(value[:-1] + "+00:00" if value.endswith("Z") else value)
    except ValueError:
        return False
    return True


def _date_taken_problem(value: Any) -> Optional[str]:
    if value is None:
        return None
    if not isinstance(value, dict) or not _is_date(value.get("value")):
        return "dateTaken is neither null nor {value: a date, granularity}"
    if value.get("granularity") not in GRANULARITIES:
        return f"dateTaken granularity {value.get('granularity')!r} unknown"
    return None


def _text_list(value: Any) -> bool:
    return isinstance(value, list) and all(_is_text(item) for item in value)


def _shape(lifeboat: Lifeboat, where: str, checks: List[Tuple[bool, str]]) -> bool:
    bad = [detail for ok, detail in checks if not ok]
    for detail in bad:
        lifeboat.problem("shape", where, detail)
    return not bad


def _shared_shape(value: Dict[str, Any]) -> List[Tuple[bool, str]]:
    """The checks of the fields a photo file and its index entry share (SHARED_FIELDS)."""
    taken = _date_taken_problem(value.get("dateTaken"))
    return [(_is_text(value.get(key)), f"{key} is not text")
            for key in ("title", "uploaderId", "licenseId", "visibility")] + [
        (taken is None, taken or ""),
        (_is_date(value.get("dateUploaded")), "dateUploaded is not an ISO 8601 date"),
    ]


def _check_lifeboat_file(lb: Lifeboat, value: Dict[str, Any]) -> None:
    creator = value.get("creator")
    _shape(lb, "metadata/lifeboat.js", [
        (_is_text(value.get("id")), "id is not text"),
        (_is_text(value.get("name")), "name is not text"),
        (isinstance(creator, dict) and _is_text(creator.get("id")) and _is_text(creator.get("name")),
         "creator is not {id, name}"),
        (_is_date(value.get("dateCreated")), "dateCreated is not an ISO 8601 date"),
        (_is_text(value.get("purpose")), "purpose is not text"),
        (_is_text(value.get("futureConsiderations")), "futureConsiderations is not text"),
    ])


def _media_path(value: Any) -> Optional[str]:
    """A `files` entry's path: the newer shape is the path, the older an object holding it."""
    if isinstance(value, dict):
        value = value.get("path")
    return value if isinstance(value, str) else None


def _path_problem(path: str) -> Optional[str]:
    if not path or "\\" in path or "\x00" in path:
        return "empty, or a backslash or NUL"
    if path.startswith("/"):
        return "absolute"
    if any(part in ("", ".", "..") for part in path.split("/")):
        return "a '', '.' or '..' part"
    if not _SAFE_PATH.fullmatch(path):
        return "a character outside A-Z a-z 0-9 . _ - /"
    if not path.startswith("media/"):
        return "not under media/"
    return None


def _check_media(lb: Lifeboat, where: str, path: str, named: Set[str]) -> None:
    problem = _path_problem(path)
    if problem is not None:
        lb.problem("path", where, f"{path!r}: {problem}")
        return
    full = os.path.join(lb.root, path)
    real_root = os.path.realpath(lb.root)
    if os.path.commonpath([real_root, os.path.realpath(full)]) != real_root:
        lb.problem("escape", where, f"{path!r} resolves outside the Lifeboat")
        return
    try:
        info = os.lstat(full)
    except FileNotFoundError:
        lb.problem("missing-media", where, f"{path!r} is not there")
        return
    if not stat.S_ISREG(info.st_mode):
        lb.problem("not-regular", where, f"{path!r} is not a regular file")
        return
    named.add(os.path.normpath(full))


def _check_photo(lb: Lifeboat, photo_id: str, photo: Dict[str, Any], named: Set[str]) -> None:
    where = f"metadata/photos/{photo_id}.js"
    if photo.get("id") != photo_id:
        lb.problem("id-mismatch", where, f"its id is {photo.get('id')!r}")
    tags = photo.get("tags")
    comments = photo.get("comments")
    files = photo.get("files")
    location = photo.get("location")
    _shape(lb, where, _shared_shape(photo) + [
        (photo.get("safetyLevel", "safe") in SAFETY_LEVELS, "safetyLevel is not safe/moderate/restricted"),
        (isinstance(tags, list) and all(
            isinstance(t, dict) and _is_text(t.get("authorId")) and _is_text(t.get("rawValue"))
            and _is_text(t.get("normalizedValue")) for t in tags),
         "tags is not a list of {authorId, rawValue, normalizedValue}"),
        (isinstance(comments, list) and all(
            isinstance(c, dict) and _is_text(c.get("id")) and _is_text(c.get("authorId"))
            and _is_text(c.get("text")) and _is_date(c.get("date")) for c in comments),
         "comments is not a list of {id, authorId, text, date}"),
        (all(_text_list(photo.get(key)) for key, _, _ in MEMBERSHIPS),
         "albumIds, galleryIds or groupIds is not a list of ids"),
        (location is None or (isinstance(location, dict)
                              and isinstance(location.get("latitude"), (int, float))
                              and isinstance(location.get("longitude"), (int, float))
                              and -90 <= location["latitude"] <= 90
                              and -180 <= location["longitude"] <= 180),
         "location is neither null nor a latitude and longitude in range"),
        (isinstance(files, dict) and all(_media_path(files.get(key)) is not None
                                         for key in ("original", "thumbnail")),
         "files is not {original, thumbnail} paths"),
    ])
    if isinstance(files, dict):
        for key in ("original", "thumbnail"):
            path = _media_path(files.get(key))
            if path is not None:
                _check_media(lb, where, path, named)


def _check_entry(lb: Lifeboat, photo_id: str, entry: Any) -> None:
    where = f"metadata/photoIndex.js[{photo_id}]"
    if not isinstance(entry, dict):
        lb.problem("shape", where, "the entry is not an object")
        return
    _shape(lb, where, _shared_shape(entry) + [
        (_text_list(entry.get("tags")), "tags is not a list of text"),
        (all(_is_count(entry.get(key)) for key in ("countComments", "countFaves", "countViews")),
         "countComments, countFaves or countViews is not a count"),
    ])
    photo = lb.photos.get(photo_id)
    if photo is None:
        return
    for key in SHARED_FIELDS:
        if entry.get(key) != photo.get(key):
            lb.problem("index-mismatch", where, f"{key} is {entry.get(key)!r}, the photo's {photo.get(key)!r}")
    photo_tags = photo.get("tags")
    if isinstance(photo_tags, list) and all(isinstance(t, dict) for t in photo_tags):
        normalised = [t.get("normalizedValue") for t in photo_tags]
        if entry.get("tags") != normalised:
            lb.problem("index-mismatch", where, f"tags {entry.get('tags')!r}, the photo's {normalised!r}")
    files = photo.get("files")
    thumbnail = entry.get("thumbnail")
    if thumbnail is not None:
        own = _media_path(files.get("thumbnail")) if isinstance(files, dict) else None
        if not isinstance(thumbnail, dict) or thumbnail.get("path") != own:
            lb.problem("index-mismatch", where, "thumbnail.path is not the photo's thumbnail")
    if "metadataPath" in entry and entry["metadataPath"] != f"metadata/photos/{photo_id}.js":
        lb.problem("index-mismatch", where, f"metadataPath is {entry['metadataPath']!r}")


def _walk(lb: Lifeboat) -> Iterator[Tuple[str, os.stat_result]]:
    """Every entry below the root (links reported, never followed)."""
    for folder, dirs, files in os.walk(lb.root, followlinks=False):
        for name in dirs + files:
            full = os.path.join(folder, name)
            info = os.lstat(full)
            relative = os.path.relpath(full, lb.root)
            if stat.S_ISLNK(info.st_mode):
                lb.problem("link", relative, f"a symbolic link to {os.readlink(full)!r}")
            elif not (stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode)):
                lb.problem("not-regular", relative, "neither a file nor a folder")
            yield full, info


def _cross_references(lb: Lifeboat) -> None:
    index = lb.indexes
    licences = index.get("licenseIndex", {})
    members = index.get("contributorIndex", {})
    photo_index = index.get("photoIndex", {})
    for licence_id, licence in licences.items():
        _shape(lb, f"metadata/licenseIndex.js[{licence_id}]", [
            (isinstance(licence, dict) and _is_text(licence.get("label")) and _is_text(licence.get("url")),
             "not {label, url}")])
    for nsid, person in members.items():
        _shape(lb, f"metadata/contributorIndex.js[{nsid}]", [(isinstance(person, dict), "not an object")])
    counted: Dict[str, Dict[str, int]] = {"photo": {}, "tag": {}, "comment": {}}  # kind -> nsid -> n

    def member(where: str, nsid: Any, kind: str) -> None:
        if not _is_text(nsid):
            return  # its shape problem is already reported
        counted[kind][nsid] = counted[kind].get(nsid, 0) + 1
        if nsid not in members:
            lb.problem("dangling-contributor", where, f"{kind} by {nsid!r}, not in contributorIndex")

    for photo_id, photo in lb.photos.items():
        where = f"metadata/photos/{photo_id}.js"
        if _is_text(photo.get("licenseId")) and photo["licenseId"] not in licences:
            lb.problem("dangling-licence", where, f"licenseId {photo.get('licenseId')!r} not in licenseIndex")
        member(where, photo.get("uploaderId"), "photo")
        for kind, items in (("tag", photo.get("tags")), ("comment", photo.get("comments"))):
            for item in items if isinstance(items, list) else []:
                if isinstance(item, dict):
                    member(where, item.get("authorId"), kind)
        for key, name, kind in MEMBERSHIPS:
            ids = photo.get(key)
            for group_id in ids if isinstance(ids, list) and _text_list(ids) else []:
                entry = index.get(name, {}).get(group_id)
                if entry is None:
                    lb.problem(f"dangling-{kind}", where, f"{key} names {group_id!r}, not in {name}")
                elif isinstance(entry, dict) and _text_list(entry.get("photoIds")) \
                        and photo_id not in entry["photoIds"]:
                    lb.problem("membership", where, f"in {kind} {group_id!r}, which does not list it")
    for key, name, kind in MEMBERSHIPS:
        for group_id, entry in index.get(name, {}).items():
            where = f"metadata/{name}.js[{group_id}]"
            if not (isinstance(entry, dict) and _text_list(entry.get("photoIds"))):
                lb.problem("shape", where, "photoIds is not a list of ids")
                continue
            for photo_id in entry["photoIds"]:
                listed = lb.photos.get(photo_id)
                if photo_id not in photo_index:
                    lb.problem("dangling-photo", where, f"lists photo {photo_id!r}, not in photoIndex")
                elif listed is not None and _text_list(listed.get(key)) and group_id not in listed[key]:
                    lb.problem("membership", where, f"lists photo {photo_id!r}, whose {key} lacks it")
    for nsid, entry in members.items():
        contributions = entry.get("contributions") if isinstance(entry, dict) else None
        if contributions is None:
            continue
        where = f"metadata/contributorIndex.js[{nsid}]"
        if not isinstance(contributions, dict):
            lb.problem("shape", where, "contributions is not an object")
            continue
        for kind, tally in counted.items():
            if kind in contributions and contributions[kind] != tally.get(nsid, 0):
                lb.problem("count", where, f"contributions.{kind} is {contributions[kind]!r}, "
                                           f"the photos hold {tally.get(nsid, 0)}")
    tag_counts: Dict[str, int] = {}
    for entry in photo_index.values():
        for tag in entry.get("tags", []) if isinstance(entry, dict) and _text_list(entry.get("tags")) else []:
            tag_counts[tag] = tag_counts.get(tag, 0) + 1
    tags = index.get("tagIndex", {})
    for tag, count in tag_counts.items():
        if tag not in tags:
            lb.problem("dangling-tag", "metadata/tagIndex.js", f"{tag!r} is on {count} photo(s), not in tagIndex")
    for tag, count in tags.items():
        if not _is_count(count):
            lb.problem("shape", f"metadata/tagIndex.js[{tag}]", "not a count")
        elif count != tag_counts.get(tag, 0):
            lb.problem("count", f"metadata/tagIndex.js[{tag}]", f"says {count}, the index holds {tag_counts.get(tag, 0)}")


def load(root: str, limit: int = MAX_METADATA_BYTES) -> Lifeboat:
    """Read the Lifeboat at `root` (a folder) and check it; the problems are in `.problems`."""
    lb = Lifeboat(root=root)
    if not os.path.isdir(root):
        lb.problem("missing-file", root, "not a folder")
        return lb
    entries = list(_walk(lb))
    for relative, is_kind in (("README.html", stat.S_ISREG), ("viewer", stat.S_ISDIR)):
        try:
            if not is_kind(os.lstat(os.path.join(root, relative)).st_mode):
                lb.problem("not-regular", relative, "not a folder" if relative == "viewer" else "not a file")
        except FileNotFoundError:
            lb.problem("missing-file", relative, "absent")
    for file_name, name in INDEXES.items():
        value = lb.read(f"metadata/{file_name}", name, limit)
        if value is not None:
            lb.indexes[name] = value
    if "lifeboat" in lb.indexes:
        _check_lifeboat_file(lb, lb.indexes["lifeboat"])
    photo_index = lb.indexes.get("photoIndex", {})
    for photo_id in photo_index:
        if not _PHOTO_ID.fullmatch(photo_id):
            lb.problem("bad-id", "metadata/photoIndex.js", f"photo id {photo_id!r} is not digits")
            continue
        relative = f"metadata/photos/{photo_id}.js"
        if not os.path.lexists(os.path.join(root, relative)):
            lb.problem("missing-photo-file", relative, f"photo {photo_id} is in photoIndex")
            continue
        value = lb.read(relative, PHOTO_VARIABLE, limit)
        if value is not None:
            lb.photos[photo_id] = value
    photos_dir = os.path.join(root, "metadata", "photos")
    if os.path.isdir(photos_dir) and not os.path.islink(photos_dir):
        for name in sorted(os.listdir(photos_dir)):
            if not (name.endswith(".js") and name[:-3] in photo_index):
                lb.problem("stray-photo-file", f"metadata/photos/{name}", "not a photo of photoIndex")
    named: Set[str] = set()
    for photo_id, photo in lb.photos.items():
        _check_photo(lb, photo_id, photo, named)
    for photo_id, entry in photo_index.items():
        if _PHOTO_ID.fullmatch(photo_id):
            _check_entry(lb, photo_id, entry)
    _cross_references(lb)
    media = os.path.normpath(os.path.join(root, "media"))
    for full, info in entries:
        inside_media = os.path.commonpath([media, os.path.normpath(full)]) == media
        if inside_media and not stat.S_ISDIR(info.st_mode) and os.path.normpath(full) not in named:
            lb.problem("unreferenced", os.path.relpath(full, root), "no photo names this file")
    return lb


def check(root: str, limit: int = MAX_METADATA_BYTES) -> List[Problem]:
    """The problems of the Lifeboat at `root`: none when it holds together."""
    return load(root, limit).problems
