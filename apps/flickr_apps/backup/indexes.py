# SPDX-License-Identifier: MIT
"""`Indexes`: index.json (the account and every item) and index.html (browse the backup offline).

The page is one static file: no script, no network; every text from Flickr is escaped, every
link is a relative path inside DIR, percent-encoded.
"""
from __future__ import annotations

import html
import json
import time
import urllib.parse
from typing import TYPE_CHECKING, Any

from .._media.types import BY_EXTENSION
from .fields import check, one_text
from .layout import ALBUMS
from .sidecar import json_file

if TYPE_CHECKING:
    from .context import RunContext

FORMAT = "flickr-backup index 1"


def _href(path: str) -> str:
    return html.escape(urllib.parse.quote(path), quote=True)


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
        self.engine.root.write("index.json", json_file(document))
        self.engine.root.write("index.html", self.page(account, items, albums).encode("utf-8"))

    @staticmethod
    def page(account: dict[str, Any], items: list[dict[str, Any]], albums: list[dict[str, Any]]) -> str:
        who = one_text(account.get("realname")) or one_text(account.get("username")) or str(account.get("nsid", ""))
        rows = []
        month = None
        for item in sorted(items, key=lambda i: (str(i["taken"]), i["id"]), reverse=True):
            if not item["path"]:
                continue
            here = str(item["path"]).rsplit("/", 1)[0]
            if here != month:
                month = here
                rows.append(f"<h2>{html.escape(here)}</h2>")
            title = html.escape(item["title"] or "(untitled)")
            media = BY_EXTENSION.get(str(item["path"]).rsplit(".", 1)[-1].lower())
            if media is None or not media.video:
                shown = f'<img loading="lazy" src="{_href(item["path"])}" alt="{title}">'
            else:
                shown = f'<video preload="none" controls src="{_href(item["path"])}"></video>'
            deleted = " (deleted on Flickr)" if item["deleted_on_flickr"] else ""
            rows.append(f'<figure>{shown}<figcaption><a href="{_href(item["path"])}">{title}</a>{deleted}'
                        f' · <a href="{_href(item["sidecar"] or "")}">json</a></figcaption></figure>')
        album_links = "".join(f'<li><a href="{_href(a["folder"])}/">{html.escape(a["title"])}</a></li>' for a in albums)
        return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                f"<title>Flickr backup of {html.escape(who)}</title>"
                "<style>body{font-family:sans-serif}figure{display:inline-block;width:220px;margin:4px;"
                "vertical-align:top}img,video{max-width:210px;max-height:210px}figcaption{font-size:small}</style>"
                f"</head><body><h1>Flickr backup of {html.escape(who)}</h1>"
                f"<p>{len(items)} items. <a href=\"index.json\">index.json</a></p>"
                f"<h2>Albums</h2><ul>{album_links}</ul>{''.join(rows)}</body></html>\n")
