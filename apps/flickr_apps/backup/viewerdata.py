# SPDX-License-Identifier: MIT
"""`ViewerData`: the data the archive's viewer (apps/flickr_apps/backup/viewer/) reads, as scripts a page
opened from disk can load (a browser refuses `fetch` of file:// URLs; `<script src>` it runs):

    viewer/data/index.js          every item in brief, as columns (id, date taken, licence,
                                  flags), the albums, collections, galleries, licences and the
                                  geotagged items: what the grid, the filters and the map need
    viewer/data/items-NNNN.js     CHUNK items each in full (title, description, tags, licence,
                                  dates, place, camera, comments, file), loaded as they are shown
    viewer/data/search-NNNN.js    the same items' searchable text (title, description, tags),
                                  lower case, loaded at the first search

Each file is `archiveData(kind, chunk, value);` with `value` JSON. Every text from Flickr is data
in JSON here; the viewer puts it in pages as text, never as HTML. Files are written through
temporaries renamed into place (SafeDir), unchanged ones left as they are; the files of an earlier
run that this one no longer writes are removed, and only those: the state records which it wrote.
"""
from __future__ import annotations

import json
import unicodedata
from typing import TYPE_CHECKING, Any, Iterable, Optional

from .fields import one_text
from .layout import ALBUMS, COLLECTIONS, VIEWER
from .sidecar import Sidecar, _dict
from . import viewerfiles
from .viewer import contents, write_contents

if TYPE_CHECKING:
    from .context import RunContext

FORMAT = "flickr-backup viewer 1"
CHUNK = 500  # items a chunk: a screenful of the grid needs one or two
DATA = "data"
_WRITTEN = viewerfiles.DATA_RECORD  # the state's meta key: the data files the last run wrote

# Flags of the index's `flags` column.
VIDEO, DELETED, NO_FILE = 1, 2, 4


def _script(kind: str, chunk: int, value: Any) -> bytes:
    # ensure_ascii: U+2028/2029 and every other non-ASCII character escaped, so the script is
    # valid JavaScript whatever the title holds; "</" cannot end a script either ("<\/").
    body = json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    return f"archiveData({json.dumps(kind)},{chunk},{body});\n".encode("ascii")


def chunk_name(kind: str, chunk: int) -> str:
    return f"{kind}-{chunk + 1:04d}.js"


def camera(exif: Any) -> str:
    """The camera from flickr.photos.getExif's answer: its `camera`, else Make and Model."""
    photo = _dict(_dict(exif).get("photo"))
    if one_text(photo.get("camera")):
        return one_text(photo.get("camera"))
    found = {}
    for tag in photo.get("exif", []) if isinstance(photo.get("exif"), list) else []:
        if isinstance(tag, dict) and tag.get("tag") in ("Make", "Model"):
            found[str(tag["tag"])] = one_text(tag.get("raw"))
    return " ".join(v for v in (found.get("Make", ""), found.get("Model", "")) if v)


def flickr_page(sidecar: dict[str, Any]) -> str:
    owner = sidecar["owner"]
    who = owner.get("path_alias") or owner.get("nsid")
    return f"https://www.flickr.com/photos/{who}/{sidecar['id']}/" if who and sidecar["id"] else ""


def record(sidecar: dict[str, Any], files: dict[str, str], deleted: bool) -> dict[str, Any]:
    """What the large view shows of one item, from its sidecar (the same facts, written once)."""
    location = sidecar.get("location") or None
    place = None
    if location:
        names = [location[k] for k in ("neighbourhood", "locality", "county", "region", "country") if location.get(k)]
        place = {"latitude": location["latitude"], "longitude": location["longitude"], "names": names}
    found = {"id": sidecar["id"], "title": sidecar["title"], "description": sidecar["description"],
             "media": sidecar["media"], "path": files.get("media"), "sidecar": files.get("json"),
             "tags": [t["raw"] or t["tag"] for t in sidecar["tags"] if (t["raw"] or t["tag"]) and not t["machine_tag"]],
             "license": sidecar["license"]["id"],  # named in the index's licenses
             "taken": "" if sidecar["dates"]["taken_unknown"] else sidecar["dates"]["taken"],
             "uploaded": sidecar["dates"]["uploaded"], "place": place, "camera": camera(sidecar.get("exif")),
             "comments": [{"author": c["authorname"] or c["author"], "date": c["date"], "text": c["text"]}
                          for c in sidecar["comments"] or []],
             "albums": [a["id"] for a in sidecar["albums"]], "url": flickr_page(sidecar), "deleted": deleted}
    # What is empty is left out (a chunk of 500 items is read as the grid reaches it): the viewer
    # takes a missing field as empty.
    return {key: value for key, value in found.items() if value or key in ("id", "title")}


def folded(text: str) -> str:
    """What a search compares: lower case, compatibility forms and accents taken off ("Café" and
    "ｃａｆｅ" are "cafe"); app.js folds the words searched for the same way."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn")  # as app.js's \p{Mn}


def search_text(item: dict[str, Any]) -> str:
    return folded("\n".join([item["title"], item.get("description", ""), *item.get("tags", [])]))


class ViewerData:
    def __init__(self, engine: "RunContext") -> None:
        self.engine = engine
        self.note: Optional[str] = None  # why the viewer was not installed, for the run's report

    def records(self) -> list[dict[str, Any]]:
        """Every item with a file or a deletion to show, newest taken first (the grid's order)."""
        state, engine = self.engine.state, self.engine
        files: dict[str, dict[str, str]] = {}
        for row in state.files():
            files.setdefault(row["item"], {})[row["kind"]] = row["path"]
        found = []
        for row in state.items():
            item_files = files.get(row["id"], {})
            try:
                sidecar = Sidecar.build(json.loads(row["listed"]), json.loads(row["details"]),
                                        engine.albums_of(row["id"]), engine.licences, {}, engine.account)
            except Exception:  # noqa: BLE001 - what its sidecar could not take (its item failed): the file alone
                found.append({"id": row["id"], "title": "", "path": item_files.get("media"), "deleted": bool(row["deleted"])})
                continue
            found.append(record(sidecar, item_files, bool(row["deleted"])))
        found.sort(key=lambda i: (bool(i.get("taken")), i.get("taken", ""), i["id"]), reverse=True)
        return found

    def index(self, title: str, items: list[dict[str, Any]]) -> dict[str, Any]:
        position = {item["id"]: n for n, item in enumerate(items)}
        state = self.engine.state

        def members(ids: Iterable[str]) -> list[int]:
            return [position[i] for i in ids if i in position]

        albums = [{"id": row["id"], "title": one_text(json.loads(row["info"]).get("title")),
                   "description": one_text(json.loads(row["info"]).get("description")),
                   "folder": f"{ALBUMS}/{row['folder']}", "items": members(json.loads(row["members"]))}
                  for row in state.albums("album")]
        collections = [{"id": row["id"], "title": one_text(info.get("title")),
                        "description": one_text(info.get("description")), "folder": f"{COLLECTIONS}/{row['folder']}",
                        "albums": json.loads(row["members"]), "collections": info.get("collections", [])}
                       for row in state.albums("collection") for info in [json.loads(row["info"])]]
        galleries = []
        for row in state.albums("gallery"):  # from an export: mostly others' photos, not in the archive
            info, listed = json.loads(row["info"]), [str(m) for m in json.loads(row["members"])]
            galleries.append({"id": row["id"], "title": one_text(info.get("title")),
                              "description": one_text(info.get("description")), "url": str(info.get("url") or ""),
                              "items": members(listed), "others": [m for m in listed if m not in position]})
        geo: list[float] = []
        for n, item in enumerate(items):
            if item.get("place"):
                geo += [n, item["place"]["latitude"], item["place"]["longitude"]]
        return {"format": FORMAT, "title": title, "count": len(items), "chunk": CHUNK,
                "ids": [i["id"] for i in items], "taken": [i.get("taken", "")[:10] for i in items],
                "license": [i.get("license", "") for i in items],
                "flags": [(VIDEO if i.get("media") == "video" else 0) | (DELETED if i.get("deleted") else 0)
                          | (0 if i.get("path") else NO_FILE) for i in items],
                "licenses": self.engine.licences.as_dict(), "albums": albums, "collections": collections,
                "galleries": galleries, "geo": geo}

    def write(self, account: dict[str, Any]) -> list[str]:
        """Writes the viewer and its data; the data files' names, relative to DIR. None of them
        when a file the backup did not write stands at one of the viewer's names (viewerfiles.py):
        `note` says which."""
        who = one_text(account.get("realname")) or one_text(account.get("username")) or str(account.get("nsid", ""))
        items = self.records()
        files = contents("archive")
        chunks = range(0, len(items), CHUNK)
        theirs = viewerfiles.not_ours(self.engine.root, self.engine.state, files,
                                      [chunk_name(kind, start // CHUNK) for start in chunks for kind in ("items", "search")]
                                      + ["index.js"])
        if theirs:
            self.note = viewerfiles.note(theirs)
            return []
        write_contents(self.engine.root, files)
        viewerfiles.remember(self.engine.state, files)
        names = []
        with self.engine.root.subdir(VIEWER, DATA) as data:
            for start in chunks:
                part, n = items[start:start + CHUNK], start // CHUNK
                for kind, value in (("items", part), ("search", [search_text(i) for i in part])):
                    data.write_if_changed(chunk_name(kind, n), _script(kind, n, value))
                    names.append(chunk_name(kind, n))
            # Last: a page reading it finds every chunk it names in place.
            data.write_if_changed("index.js", _script("index", 0, self.index(f"Flickr backup of {who}", items)))
            names.append("index.js")
            self._remove_stale(data, names)
        return [f"{VIEWER}/{DATA}/{name}" for name in names]

    def _remove_stale(self, data: Any, names: list[str]) -> None:
        state = self.engine.state
        before: Optional[str] = state.meta(_WRITTEN)
        state.set_meta(_WRITTEN, json.dumps(names))
        for name in json.loads(before) if before else []:
            if name not in names:
                data.remove(name)
