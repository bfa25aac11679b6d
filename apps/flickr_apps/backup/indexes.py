# SPDX-License-Identifier: MIT
"""`Indexes`: index.json (the account and every item) and the viewer (index.html, viewer/: browse
the backup offline, from disk; viewerdata.py writes its data)."""
from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from .fields import check, one_text
from .layout import ALBUMS
from .sidecar import json_file
from .viewerdata import ViewerData
from .viewerfiles import look, sha256

if TYPE_CHECKING:
    from .context import RunContext

FORMAT = "flickr-backup index 1"
INDEX = "index.json"
INDEX_RECORD = "index_written"  # the state's meta key: the SHA-256 of the index.json last written
# How every index.json the backup wrote begins (json_file, "format" first): one from before the
# record existed is recognised by it.
_INDEX_START = b'{\n "format": "flickr-backup index '


class Indexes:
    def __init__(self, engine: "RunContext") -> None:
        self.engine = engine

    def items(self) -> list[dict[str, Any]]:
        state = self.engine.state
        files: dict[str, dict[str, str]] = {}
        for row in state.files():
            files.setdefault(row["item"], {})[row["kind"]] = row["path"]
        found = []
        for row in state.items():
            listed = check(json.loads(row["listed"])).listing  # an invalid field is left out (fields.py)
            found.append({"id": row["id"], "title": one_text(listed.get("title")), "media": listed.get("media", "photo"),
                          "taken": listed.get("datetaken", ""), "path": files.get(row["id"], {}).get("media"),
                          "sidecar": files.get(row["id"], {}).get("json"),
                          "xmp": files.get(row["id"], {}).get("xmp"), "size": row["size_label"],
                          "why_not_original": row["why"] or None, "albums": json.loads(row["albums"]),
                          "deleted_on_flickr": bool(row["deleted"]), "complete": row["need"] == "",
                          "error": row["error"]})
        return found

    def write(self, account: dict[str, Any]) -> None:
        items = self.items()
        albums = [{"id": row["id"], "title": one_text(json.loads(row["info"]).get("title")),
                   "folder": f"{ALBUMS}/{row['folder']}"} for row in self.engine.state.albums("album")]
        document = {"format": FORMAT, "generated": int(time.time()), "user": self.engine.report.user,
                    "account": account, "licenses": self.engine.licences.as_dict(), "albums": albums,
                    "items": items}
        galleries = self.engine.state.albums("gallery")  # from an export's galleries.json: others' photos
        if galleries:
            document["galleries"] = [{**json.loads(row["info"]), "items": json.loads(row["members"])}
                                     for row in galleries]
        data = json_file(document)
        in_the_way = self._not_ours()
        if in_the_way:  # a file of the user's: never overwritten (docs/backup.md, "Layout")
            self.engine.report.notes.append(
                f"{INDEX} was not written: {in_the_way} is not the backup's (left as it is); move it away "
                "and the next run writes it")
        else:
            self.engine.root.write(INDEX, data)
            self.engine.state.set_meta(INDEX_RECORD, sha256(data))
        viewer = ViewerData(self.engine)
        viewer.write(account)
        if viewer.note:  # a file of the user's at one of its names: the run's work is otherwise done
            self.engine.report.notes.append(viewer.note)

    def _not_ours(self) -> str:
        """What stands at index.json that the backup did not write ("" when nothing does): a file
        is the backup's when its SHA-256 is the one recorded, or, with no record yet, when it
        begins as the backup's index does."""
        kind, value = look(self.engine.root, INDEX)
        if kind == "in the way":
            return value or INDEX
        if kind != "file":
            return ""  # absent, or a FIFO, socket or device: replaced (SafeDir notes it)
        recorded = self.engine.state.meta(INDEX_RECORD)
        if recorded is not None:
            return "" if value == recorded else INDEX
        try:
            return "" if self.engine.root.read(INDEX).startswith(_INDEX_START) else INDEX
        except OSError:
            return INDEX
