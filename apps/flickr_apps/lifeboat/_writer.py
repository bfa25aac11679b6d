# SPDX-License-Identifier: MIT
"""`LifeboatWriter`: a Data Lifeboat folder from a `flickr backup` archive (docs/lifeboat.md).

Written under the backup's file rules: nothing outside OUT (every folder opened from OUT's
descriptor without following a link), every file under a temporary name (O_EXCL|O_NOFOLLOW),
fsync'd, then renamed. OUT is marked first (`.flickr-lifeboat`), so that a killed run's OUT is
recognised and completed by the next, and a folder of anything else is refused. Media files are
streamed (constant memory), checked against the backup's recorded SHA-256 as they are read, and
copied, not linked: a Lifeboat is handed on, and a hard link would share a later edit.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
import stat
import time
from typing import Any, Callable, Optional

from flickr.files import create_temporary, open_regular, temporary_final
from .._media.sizes import ORIGINALS
from ..backup.safedir import SafeDir, disk_full
from . import _metadata as meta
from ._archive import PHOTO_ID, Archive, ItemError, loads
from ._readme import readme_html
from ._rules import why_left_out
from ._viewer import write_viewer

MARKER = ".flickr-lifeboat"
MARKER_FORMAT = "flickr-lifeboat 1"
RECORD = ".flickr-lifeboat-files"  # the names of the per-photo files this command wrote (_Record)
RECORD_FORMAT = "flickr-lifeboat files 1"
_LARGEST_RECORD = 256 * 1024 * 1024
_CHUNK = 1 << 20
_LARGEST_PHOTO_FILE = 64 * 1024 * 1024  # a photo's metadata file of this command's: far below
# Images a browser shows: their original is their thumbnail too (a backup keeps no smaller size).
_SHOWN = {"jpg", "jpeg", "png", "gif", "webp", "avif"}
_EXTENSION = re.compile(r"[a-z0-9]{1,8}")
_OWN_MEDIA = re.compile(r"[0-9]{1,20}_[0-9a-z_]*\.[a-z0-9]{1,8}")
_OWN_PHOTO_FILE = re.compile(r"[0-9]{1,20}\.js")
_FOLDERS: tuple[tuple[str, ...], ...] = ((), ("metadata",), ("metadata", "photos"), ("media",), ("media", "originals"), ("media", "thumbnails"),
            ("viewer",))


class DiskFull(OSError):
    """The disk (or quota) holding OUT is full: the run stopped; every file in OUT is whole (each
    renamed into place once written), so the same command, with space, goes on from there."""

    def __init__(self, out: str) -> None:
        super().__init__(errno.ENOSPC, f"the disk holding {out} is full: the Lifeboat is not finished; every file "
                         "written is whole: free some space and run the same command again")

    def __str__(self) -> str:
        return str(self.strerror)


class UsageError(ValueError):
    """A selection or an argument that cannot be used (an album the archive lacks, OUT inside DIR...)."""


class OutInUse(OSError):
    """OUT holds something else than a Lifeboat this command wrote, or another run is writing it."""


class LifeboatWriter:
    def __init__(self, archive: Archive, out: str, selection: "Selection", readme: str, name: str,
                 creator: str, progress: Optional[Callable[[dict[str, Any]], None]] = None) -> None:
        self.archive, self.out, self.selection = archive, out, selection
        self.readme, self.name, self.creator = readme, name, creator
        self.progress = progress
        self.left_out: list[dict[str, str]] = []
        self.failed: list[dict[str, str]] = []
        self.copied = self.kept = self.bytes = 0
        self.record = _Record()

    # -- OUT -----------------------------------------------------------

    def open_out(self) -> tuple[SafeDir, dict[str, Any], int]:
        """OUT (created when missing), its marker's content, and the marker's descriptor, locked."""
        if os.path.lexists(self.out) and not os.path.isdir(self.out):
            raise OutInUse(f"{self.out} exists and is not a folder")
        root = SafeDir.open_root(self.out, create=True)
        try:
            # A run killed while writing the marker left its temporary alone: still an empty OUT.
            names = [name for name in root.names() if temporary_final(name) != MARKER]
            if MARKER not in names:
                if names:
                    raise OutInUse(f"{self.out} is not empty and is not a Lifeboat flickr lifeboat wrote: "
                                   "give a new or empty folder")
                _create_marker(root)
            try:
                fd = open_regular(MARKER, root.fd, os.O_RDWR, shown=root.shown(MARKER))
            except OSError:
                raise OutInUse(f"{root.shown(MARKER)} is not a regular file: not a Lifeboat this command wrote")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise OutInUse(f"another flickr lifeboat is writing {self.out}; try again when it has ended") from None
            try:
                marker = loads(os.pread(fd, 4096, 0))
            except ValueError:
                marker = None
            if not isinstance(marker, dict) or marker.get("format") != MARKER_FORMAT:
                os.close(fd)
                raise OutInUse(f"{root.shown(MARKER)} is not this command's marker: not a Lifeboat it wrote")
            return root, marker, fd
        except BaseException:
            root.close()
            raise

    # -- the run -------------------------------------------------------

    def run(self) -> dict[str, Any]:
        root, marker, lock = self.open_out()
        try:
            with contextlib.ExitStack() as stack:
                stack.callback(root.close)
                folders: dict[tuple[str, ...], SafeDir] = {parts: stack.enter_context(root.subdir(*parts)) if parts else root for parts in _FOLDERS}
                for folder in folders.values():  # what a killed run left: our temporaries only
                    folder.remove_leftovers(lambda name: temporary_final(name) is not None)
                self.record.open(root)
                stack.callback(self.record.close)
                return self._write(folders, str(marker.get("created") or ""))
        except OSError as error:
            if disk_full(error):
                raise DiskFull(self.out) from None
            raise
        finally:
            os.close(lock)

    def _write(self, folders: dict[tuple[str, ...], SafeDir], created: str) -> dict[str, Any]:
        photos: dict[str, dict[str, Any]] = {}
        sidecars: dict[str, dict[str, Any]] = {}
        album_names = {album["id"] for album in self.archive.albums()}
        chosen = self.selection.items
        for done, item in enumerate(chosen, 1):
            photo_id = item["id"]
            title = str(item.get("title") or "")
            try:
                if not PHOTO_ID.fullmatch(photo_id):  # it names files: `../x` would reach outside
                    raise ItemError(f"the archive's index names {photo_id[:40]!r}, not a Flickr photo id")
                sidecar = self.archive.json(item.get("sidecar"))
                if str(sidecar.get("id")) != photo_id:
                    raise ItemError(f"{item.get('sidecar')} is the sidecar of another item")
                why = why_left_out(sidecar, self.creator)
                if why is not None:
                    self.left_out.append({"id": photo_id, "title": title, "why": why})
                    continue
                files = self._media(folders, item, sidecar)
            except ItemError as error:
                self._failed(folders, photos, sidecars, photo_id, title, str(error))
                continue
            uploaded = meta.iso_utc(meta._dict(sidecar.get("dates")).get("uploaded"))
            if uploaded is None:
                self._failed(folders, photos, sidecars, photo_id, title, "the archive lacks its upload date")
                continue
            albums = [a for a in meta._list(item.get("albums")) if isinstance(a, str) and a in album_names]
            groups = [str(g.get("id")) for g in meta._list(meta._dict(sidecar.get("contexts")).get("groups"))
                      if isinstance(g, dict) and g.get("id")]
            photos[photo_id] = meta.photo_file(sidecar, uploaded, files, albums, groups,
                                               item.get("deleted_on_flickr") is True)
            sidecars[photo_id] = sidecar
            if self.progress is not None:
                self.progress({"event": "item", "id": photo_id, "done": done, "total": len(chosen)})
        for photo_id, photo in photos.items():
            # A rerun rewrites (fsync, rename) only what changed: 1,000 unchanged files cost reads alone.
            folders[("metadata", "photos")].write_if_changed(f"{photo_id}.js", meta.js_file("photo", photo))
        not_ours = self._remove_strays(folders, photos)
        lifeboat = self._indexes(folders[("metadata",)], photos, sidecars, created)
        folders[()].write_if_changed("README.html", readme_html(lifeboat, len(photos), self.left_out))
        write_viewer(folders[("viewer",)])
        # Last: a Lifeboat whose lifeboat.js is there was written whole (a killed run's is not).
        folders[("metadata",)].write_if_changed("lifeboat.js", meta.js_file("lifeboat", lifeboat))
        own = sum(1 for photo in photos.values() if photo["uploaderId"] == self.creator)
        return {"photos": len(photos), "own": own, "others": len(photos) - own, "left_out": self.left_out,
                "failed": self.failed, "copied": self.copied, "kept": self.kept, "bytes": self.bytes,
                "not_in_archive": self.selection.unknown, "not_ours": not_ours}

    def _failed(self, folders: dict[tuple[str, ...], SafeDir], photos: dict[str, dict[str, Any]],
                sidecars: dict[str, dict[str, Any]], photo_id: str, title: str, error: str) -> None:
        """An item that cannot be read now (its file missing or changed in the archive) keeps the
        copy an earlier run wrote: its photo file and media stay, and the indexes name them. A
        Lifeboat may be the last copy; the archive's loss is not passed on to it."""
        earlier = self._earlier(folders, photo_id) if PHOTO_ID.fullmatch(photo_id) else None
        if earlier is not None:
            photos[photo_id], sidecars[photo_id] = earlier, {}
            error += "; the copy an earlier run wrote is kept"
        self.failed.append({"id": photo_id, "title": title, "error": error})

    def _earlier(self, folders: dict[tuple[str, ...], SafeDir], photo_id: str) -> Optional[dict[str, Any]]:
        """The photo file an earlier run wrote for `photo_id`, when it and its media are whole."""
        name = f"{photo_id}.js"
        if f"metadata/photos/{name}" not in self.record.names:
            return None  # not this command's: a user's file is neither read nor kept
        there = folders[("metadata", "photos")].lstat(name)
        if there is None or not stat.S_ISREG(there.st_mode) or there.st_size > _LARGEST_PHOTO_FILE:
            return None
        try:
            text = folders[("metadata", "photos")].read(name).decode("utf-8")
            prefix = "const photo = "
            photo = loads(text[len(prefix):].rstrip().rstrip(";").encode()) if text.startswith(prefix) else None
        except (OSError, ValueError):
            return None
        if not isinstance(photo, dict) or photo.get("id") != photo_id or not _whole(photo):
            return None
        files = photo["files"]
        for path in (files["original"], files["thumbnail"]):
            folder, _, file = path.rpartition("/")
            parts = tuple(folder.split("/"))
            found = folders[parts].lstat(file) if parts in folders and parts[0] == "media" else None
            if found is None or path not in self.record.names or not stat.S_ISREG(found.st_mode):
                return None
        photo["groupIds"] = []  # the groups' names were in the sidecar the archive no longer gives
        return photo

    # -- media ---------------------------------------------------------

    def _media(self, folders: dict[tuple[str, ...], SafeDir], item: dict[str, Any],
               sidecar: dict[str, Any]) -> dict[str, str]:
        source = str(item.get("path") or "")
        extension = source.rsplit(".", 1)[-1].lower() if "." in source else ""
        if not _EXTENSION.fullmatch(extension):
            raise ItemError(f"{source or 'its file'}: no media file of a known kind in the archive")
        file = meta._dict(sidecar.get("file"))
        original = file.get("size") in ORIGINALS
        secret = meta.secret(sidecar, original)
        name = f"{item['id']}_{secret + '_' if secret else ''}{'o' if original else 'l'}.{extension}"
        expected = file.get("sha256") if isinstance(file.get("sha256"), str) else None
        kind = "video" if sidecar.get("media") == "video" else "image"
        # No image a browser shows, and no tool to make one: a drawn tile of the kind.
        thumbnail = (f"media/originals/{name}" if sidecar.get("media") != "video" and extension in _SHOWN
                     else f"media/thumbnails/{kind}.svg")
        self._claim(folders, {f"metadata/photos/{item['id']}.js", f"media/originals/{name}", thumbnail})
        self._copy(source, folders[("media", "originals")], name, expected)
        if thumbnail.startswith("media/thumbnails/"):
            folders[("media", "thumbnails")].write_if_changed(f"{kind}.svg", _TILES[kind])
        return {"original": f"media/originals/{name}", "thumbnail": thumbnail}

    def _claim(self, folders: dict[tuple[str, ...], SafeDir], paths: set[str]) -> None:
        """Records `paths` (OUT-relative) as this command's before any is written; ItemError when
        one is taken by a file this command did not write: that file is never replaced."""
        new = paths - self.record.names
        for path in sorted(new):
            folder, name = _at(folders, path)
            if folder.lstat(name) is not None:
                raise ItemError(f"{folder.shown(name)} is a file this command did not write: it is left as it is, "
                                "and this photo is not put in (move it away and run again)")
        self.record.add(new)

    def _copy(self, source: str, folder: SafeDir, name: str, expected: Optional[str]) -> None:
        """Streams the archive's file to `name` in `folder` (temporary, fsync, rename); a file
        already there (a killed run's, renamed whole) is kept when it is the same: its SHA-256 the
        backup's record, or without a record its size and time. (The backup sets a file's time to
        the date taken, which a photo replaced on Flickr keeps: size and time alone would miss it.)"""
        fd = self.archive.open_media(source)
        try:
            found = os.fstat(fd)
            there = folder.lstat(name)
            if there is not None and stat.S_ISREG(there.st_mode) and there.st_size == found.st_size and (
                    folder.digest(name) == (found.st_size, expected) if expected is not None
                    else there.st_mtime_ns == found.st_mtime_ns):
                self.kept += 1
                return
            out, temporary = create_temporary(folder.fd, name, 0o644)
            try:
                hasher = hashlib.sha256()
                while True:
                    chunk = os.read(fd, _CHUNK)
                    if not chunk:
                        break
                    hasher.update(chunk)
                    view = memoryview(chunk)
                    while view:
                        view = view[os.write(out, view):]
                if expected is not None and hasher.hexdigest() != expected:
                    raise ItemError(f"{source} differs from what the backup recorded (flickr backup --verify "
                                    "finds it; the next backup run fetches it again)")
                os.fsync(out)
                os.utime(out, ns=(found.st_atime_ns, found.st_mtime_ns))
                os.close(out)
                out = -1
                os.rename(temporary, name, src_dir_fd=folder.fd, dst_dir_fd=folder.fd)
            except BaseException:
                if out >= 0:
                    os.close(out)
                with contextlib.suppress(OSError):
                    os.unlink(temporary, dir_fd=folder.fd)
                raise
            self.copied += 1
            self.bytes += found.st_size
        except OSError as error:
            if isinstance(error, ItemError) or disk_full(error) or error.errno in (errno.EROFS, errno.EACCES):
                raise
            raise ItemError(f"{source}: {error.strerror or error}") from None
        finally:
            os.close(fd)

    def _remove_strays(self, folders: dict[tuple[str, ...], SafeDir], photos: dict[str, dict[str, Any]]) -> list[str]:
        """What an earlier run (of another selection, or killed) wrote and this one does not name:
        only names the record holds, only files; then the record is rewritten to what stands. The
        files in the per-photo folders this command did not write are returned (left as they are)."""
        named = {f"metadata/photos/{i}.js" for i in photos} | {
            p["files"][k] for p in photos.values() for k in ("original", "thumbnail")}
        kept = set()
        for path in sorted(self.record.names):
            folder, name = _at(folders, path)
            found = folder.lstat(name)
            if found is None or not (stat.S_ISREG(found.st_mode) or stat.S_ISLNK(found.st_mode)):
                continue  # never put in place (a killed run's, a failed item's): no longer recorded
            if path in named:
                kept.add(path)
            else:
                folder.remove(name)
        self.record.rewrite(kept)
        return sorted(f"{'/'.join(parts)}/{name}" for parts in _RECORDED for name in folders[parts].names()
                      if temporary_final(name) is None and f"{'/'.join(parts)}/{name}" not in kept)

    # -- indexes -------------------------------------------------------

    def _indexes(self, folder: SafeDir, photos: dict[str, dict[str, Any]], sidecars: dict[str, dict[str, Any]],
                 created: str) -> dict[str, Any]:
        licences = self.archive.licences()
        licence_index = {}
        contributors = meta.Contributors()
        tag_counts: dict[str, int] = {}
        groups: dict[str, dict[str, Any]] = {}
        for photo_id, photo in photos.items():
            known = meta._dict(licences.get(photo["licenseId"]))
            licence_index[photo["licenseId"]] = {"label": str(known.get("name") or ""), "url": str(known.get("url") or "")}
            contributors.add_photo(photo, sidecars[photo_id])
            for tag in meta.index_entry(photo)["tags"]:
                tag_counts[tag] = tag_counts.get(tag, 0) + 1
            for group in meta._list(meta._dict(sidecars[photo_id].get("contexts")).get("groups")):
                if isinstance(group, dict) and str(group.get("id")) in photo["groupIds"]:
                    entry = groups.setdefault(str(group["id"]), {"name": str(group.get("title") or ""),
                                                                 "nsid": str(group["id"]), "members": None,
                                                                 "poolCount": None, "photoIds": []})
                    entry["photoIds"].append(photo_id)
        albums = self._albums(photos)
        index = {photo_id: meta.index_entry(photo) for photo_id, photo in photos.items()}
        for file, name, value in (("photoIndex.js", "photoIndex", index), ("licenseIndex.js", "licenseIndex", licence_index),
                                  ("contributorIndex.js", "contributorIndex", contributors.members),
                                  ("albumIndex.js", "albumIndex", albums), ("galleryIndex.js", "galleryIndex", {}),
                                  ("groupIndex.js", "groupIndex", groups), ("tagIndex.js", "tagIndex", tag_counts)):
            folder.write_if_changed(file, meta.js_file(name, value))
        creator = contributors.members.get(self.creator) or {}
        account = meta._dict(self.archive.index.get("account"))
        if self.creator == self.archive.user:
            creator = {"realname": _text_of(account.get("realname")), "username": _text_of(account.get("username"))}
        return {
            "id": _lifeboat_id(self.out), "name": self.name,
            "creator": {"id": self.creator, "name": creator.get("realname") or creator.get("username") or self.creator},
            "dateCreated": created, "purpose": self.readme,
            "futureConsiderations": "Photos of other Flickr members are included only when public and under a "
            "licence that allows passing them on (Creative Commons, public domain, no known copyright "
            "restrictions, US Government work); the creator's own photos are all included. Non-commercial "
            "licences: give this Lifeboat on, do not sell it.",
            "generator": "libflickr flickr lifeboat",
            "leftOut": self.left_out,
        }

    def _albums(self, photos: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        found = {}
        for album in self.archive.albums():
            members = [photo_id for photo_id, photo in photos.items() if album["id"] in photo["albumIds"]]
            if not members:
                continue
            try:
                detail = self.archive.json(f"{album.get('folder')}/album.json")
            except ItemError:
                detail = {}  # the index's title stands
            flickr = meta._dict(detail.get("flickr"))
            found[album["id"]] = {
                "title": str(album.get("title") or ""), "description": str(detail.get("description") or ""),
                "ownerId": str(flickr.get("owner") or self.archive.user),
                "countPhotos": _number(flickr.get("count_photos")), "countVideos": _number(flickr.get("count_videos")),
                "countViews": _number(flickr.get("count_views")), "countComments": _number(flickr.get("count_comments")),
                "photoIds": members}
        return found


class _Record:
    """The names (OUT-relative) of the per-photo files this command wrote, in OUT's RECORD: only
    these are ever replaced, read back or removed; a file the user put there is left alone. A name
    is appended (fsync'd) before its file is put in place, so a killed run's file is still known;
    the record is rewritten whole when it changed (temporary, fsync, rename) at each run's start
    (a line cut by a kill is dropped: its file was never put in place) and after the strays are
    removed."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.root: Optional[SafeDir] = None
        self.fd = -1

    def open(self, root: SafeDir) -> None:
        self.root = root
        try:
            fd = open_regular(RECORD, root.fd, shown=root.shown(RECORD))
        except FileNotFoundError:
            lines: list[str] = [RECORD_FORMAT]  # a new OUT, or one killed before its record was made
        except OSError:
            raise OutInUse(f"{root.shown(RECORD)} is not a regular file: not this command's record") from None
        else:
            with os.fdopen(fd, "rb") as file:  # the size first: a planted 1 GB file is not read
                data = file.read(_LARGEST_RECORD + 1) if os.fstat(fd).st_size <= _LARGEST_RECORD else b""
            lines = data.decode("utf-8", "replace").split("\n")[:-1]  # the last: cut by a kill, or empty
            if len(data) > _LARGEST_RECORD or not lines or lines[0] != RECORD_FORMAT:
                raise OutInUse(f"{root.shown(RECORD)} is not this command's record: not a Lifeboat it wrote")
        self.names = {line for line in lines[1:] if _recordable(line)}
        self.rewrite(self.names)

    def add(self, paths: set[str]) -> None:
        if paths:
            data = "".join(f"{path}\n" for path in sorted(paths)).encode()
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]
            os.fsync(self.fd)
            self.names |= paths

    def rewrite(self, names: set[str]) -> None:
        assert self.root is not None
        self.close()
        self.root.write_if_changed(RECORD, "".join(f"{line}\n" for line in [RECORD_FORMAT, *sorted(names)]).encode())
        self.names = set(names)
        self.fd = open_regular(RECORD, self.root.fd, os.O_WRONLY | os.O_APPEND, shown=self.root.shown(RECORD))

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _at(folders: dict[tuple[str, ...], SafeDir], path: str) -> tuple[SafeDir, str]:
    """The open folder and the name of an OUT-relative path of the record's."""
    folder, _, name = path.rpartition("/")
    return folders[tuple(folder.split("/"))], name


def _recordable(path: str) -> bool:
    """A name of the shapes this command writes, in its folder: a record edited by hand names
    nothing else (no `..`, no README.html)."""
    folder, _, name = path.rpartition("/")
    shape = _RECORDED.get(tuple(folder.split("/")))
    return shape is not None and shape.fullmatch(name) is not None


def _whole(photo: dict[str, Any]) -> bool:
    """A photo file has every field the indexes read, of its type (meta.photo_file's): one planted
    in OUT, or cut short, is not kept."""
    def listed(value: Any, key: str) -> bool:
        return isinstance(value, list) and all(isinstance(v, dict) and isinstance(v.get(key), str) for v in value)
    files = meta._dict(photo.get("files"))
    return (all(isinstance(photo.get(k), str) for k in ("title", "uploaderId", "licenseId", "dateUploaded",
                                                        "visibility", "mediaType"))
            and all(isinstance(photo.get(k), int) for k in ("countComments", "countFaves", "countViews"))
            and isinstance(photo.get("dateTaken"), (dict, type(None))) and isinstance(photo.get("albumIds"), list)
            and all(isinstance(a, str) for a in photo["albumIds"]) and listed(photo.get("comments"), "authorId")
            and listed(photo.get("tags"), "authorId") and listed(photo.get("tags"), "normalizedValue")
            and all(isinstance(files.get(k), str) for k in ("original", "thumbnail")))


def _create_marker(root: SafeDir) -> None:
    """The marker, whole (temporary, fsync) and put in place by a link, which fails when another
    run's stands there: a rename would replace it, and each run would lock its own marker while
    both write OUT. Then the lock decides, as with an OUT made earlier."""
    data = json.dumps({"format": MARKER_FORMAT, "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
    fd, temporary = create_temporary(root.fd, MARKER, 0o644)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(f"{data}\n".encode())
            file.flush()
            os.fsync(file.fileno())
        # FileNotFoundError: the run whose marker is in place removed this temporary as a leftover.
        with contextlib.suppress(FileExistsError, FileNotFoundError):
            os.link(temporary, MARKER, src_dir_fd=root.fd, dst_dir_fd=root.fd, follow_symlinks=False)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=root.fd)


def _number(value: Any) -> Optional[int]:
    return int(value) if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 19 else None


def _text_of(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("_text")
    return value if isinstance(value, str) else ""


def _lifeboat_id(out: str) -> str:
    """The Lifeboat's id: OUT's name, in the letters a folder name and an id both take (ASSUMED)."""
    found = re.sub(r"[^A-Za-z0-9_-]+", "_", os.path.basename(os.path.normpath(out))).strip("_")
    return found or "LIFEBOAT"


class Selection:
    """The items of the archive a run takes, and the ids asked for that the archive lacks."""

    def __init__(self, items: list[dict[str, Any]], unknown: list[str]) -> None:
        self.items = items
        self.unknown = unknown


_TILE = ('<svg xmlns="http://www.w3.org/2000/svg" width="150" height="150" viewBox="0 0 150 150">'
         '<rect width="150" height="150" fill="#444"/>{}</svg>\n')
_TILES = {"video": _TILE.format('<path d="M55 45 L110 75 L55 105 Z" fill="#eee"/>').encode(),
          "image": _TILE.format('<rect x="35" y="45" width="80" height="60" fill="none" stroke="#eee" '
                                'stroke-width="6"/>').encode()}
# The per-photo folders and the shapes of the names this command writes there (the record's).
_RECORDED: dict[tuple[str, ...], re.Pattern[str]] = {
    ("metadata", "photos"): _OWN_PHOTO_FILE, ("media", "originals"): _OWN_MEDIA,
    ("media", "thumbnails"): re.compile("|".join(re.escape(f"{kind}.svg") for kind in _TILES))}
