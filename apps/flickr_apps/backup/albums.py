# SPDX-License-Identifier: MIT
"""`Albums`: albums and collections as folders of relative links, plus their index JSON.

    albums/{id}_{slug}/{media name} -> ../../YYYY/MM/{media name}
    albums/{id}_{slug}/album.json      the album as flickr.photosets.getList gave it, and its items
    albums/index.json                  every album
    collections/{id}_{slug}/{album folder} -> ../../albums/{album folder}
    collections/{id}_{slug}/{child collection folder} -> ../{child collection folder}

A link is made only to a file that is in place (no link to a file never downloaded), and a link
the album no longer holds is removed; nothing but links is ever removed there.
"""
from __future__ import annotations

import json
import stat
from typing import TYPE_CHECKING, Any

from .._media.sizes import as_list
from .fields import one_text
from .layout import ALBUMS, COLLECTIONS, Layout
from .safedir import SafeDir
from .sidecar import json_file

if TYPE_CHECKING:
    from .context import RunContext
    from .state import State





class Albums:
    def __init__(self, engine: "RunContext") -> None:
        self.engine = engine

    @staticmethod
    def store_collections(state: "State", tree: list[dict[str, Any]]) -> None:
        """Flattens flickr.collections.getTree: each collection with its albums and child collections."""
        def walk(collections: list[dict[str, Any]]) -> None:
            for collection in collections:
                try:
                    folder = Layout.album_folder(str(collection.get("id")), collection.get("title"))
                except ValueError:
                    continue
                children = [c for c in as_list(collection.get("collection")) if isinstance(c, dict)]
                albums = [str(s.get("id")) for s in as_list(collection.get("set")) if isinstance(s, dict)]
                info = {k: v for k, v in collection.items() if k not in ("collection", "set")}
                info["collections"] = [str(c.get("id")) for c in children]
                state.put_album(str(collection.get("id")), "collection", folder, "", info, albums)
                walk(children)

        walk(tree)

    def write(self) -> None:
        state, root = self.engine.state, self.engine.root
        media = {row["item"]: row["path"] for row in state.files() if row["kind"] == "media"}
        album_rows = state.albums("album")
        folders = {row["id"]: row["folder"] for row in album_rows}
        index = []
        with root.subdir(ALBUMS) as albums_dir:
            for row in album_rows:
                info, members = json.loads(row["info"]), json.loads(row["members"])
                wanted = {}
                for member in members:
                    if member in media:
                        name = media[member].rsplit("/", 1)[1]
                        wanted[name] = "../../" + media[member]
                with albums_dir.subdir(row["folder"]) as folder:
                    self._links(folder, wanted)
                    folder.write_if_changed("album.json", json_file({"id": row["id"], "title": one_text(info.get("title")),
                                                      "description": one_text(info.get("description")),
                                                      "items": [{"id": m, "path": media.get(m)} for m in members],
                                                      "flickr": info}))
                index.append({"id": row["id"], "title": one_text(info.get("title")), "folder": f"{ALBUMS}/{row['folder']}",
                              "items": len(members)})
            albums_dir.write_if_changed("index.json", json_file({"albums": index}))
        collection_rows = state.albums("collection")
        if not collection_rows:
            return
        by_id = {row["id"]: row["folder"] for row in collection_rows}
        listed = []
        with root.subdir(COLLECTIONS) as collections_dir:
            for row in collection_rows:
                info, members = json.loads(row["info"]), json.loads(row["members"])
                wanted = {folders[a]: f"../../{ALBUMS}/{folders[a]}" for a in members if a in folders}
                wanted.update({by_id[c]: f"../{by_id[c]}" for c in info.get("collections", []) if c in by_id})
                with collections_dir.subdir(row["folder"]) as folder:
                    self._links(folder, wanted)
                    folder.write_if_changed("collection.json", json_file({"id": row["id"], "title": one_text(info.get("title")),
                                                           "albums": members, "flickr": info}))
                listed.append({"id": row["id"], "title": one_text(info.get("title")),
                               "folder": f"{COLLECTIONS}/{row['folder']}"})
            collections_dir.write_if_changed("index.json", json_file({"collections": listed}))

    @staticmethod
    def _links(folder: SafeDir, wanted: dict[str, str]) -> None:
        for name in folder.names():
            found = folder.lstat(name)
            if found is not None and stat.S_ISLNK(found.st_mode) and name not in wanted:
                folder.remove(name)
        for name, target in wanted.items():
            folder.link(target, name)
