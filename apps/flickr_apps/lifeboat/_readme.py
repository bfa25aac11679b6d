# SPDX-License-Identifier: MIT
"""README.html: the Lifeboat's entry page, the creator's note to future readers ([F3], [F4]).

Every text (the creator's note, titles, names) is escaped; the page loads nothing, runs no script.
"""
from __future__ import annotations

import html
from typing import Any


def _paragraphs(text: str) -> str:
    blocks = [block.strip() for block in text.replace("\r\n", "\n").split("\n\n") if block.strip()]
    return "".join(f"<p>{html.escape(block).replace(chr(10), '<br>')}</p>" for block in blocks) or \
        "<p>(The creator wrote no note.)</p>"


def readme_html(lifeboat: dict[str, Any], photos: int, left_out: list[dict[str, str]]) -> bytes:
    name = html.escape(str(lifeboat["name"]))
    creator = lifeboat["creator"]
    rows = "".join(f"<tr><td>{html.escape(item['id'])}</td><td>{html.escape(item['title'] or '(untitled)')}</td>"
                   f"<td>{html.escape(item['why'])}</td></tr>" for item in left_out)
    left = (f"<h2>Left out ({len(left_out)})</h2><table><tr><th>Photo</th><th>Title</th><th>Why</th></tr>{rows}</table>"
            if left_out else "<h2>Left out</h2><p>Nothing: every photo selected is in this Lifeboat.</p>")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{name}</title><style>body{{font-family:sans-serif;max-width:50em;margin:2em auto;padding:0 1em;"
        "overflow-wrap:anywhere}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .4em;"
        "text-align:left;vertical-align:top}</style></head><body>"
        f"<h1>{name}</h1>"
        f"<p>A Data Lifeboat of {photos} Flickr photo{'s' if photos != 1 else ''}, made by "
        f"{html.escape(str(creator['name']))} ({html.escape(str(creator['id']))}) on "
        f"{html.escape(str(lifeboat['dateCreated']))} with libflickr's <code>flickr lifeboat</code>.</p>"
        "<p><a href=\"viewer/index.html\">Browse the photos</a> (opens from disk, needs no network).</p>"
        f"<h2>Why this Lifeboat was made</h2>{_paragraphs(str(lifeboat['purpose']))}"
        f"<h2>Whose photos are here</h2><p>{html.escape(str(lifeboat['futureConsiderations']))}</p>"
        f"{left}"
        "<h2>What is inside</h2><ul><li><code>metadata/</code>: the photos' titles, descriptions, tags, "
        "comments, albums, licences and people, as JavaScript files a page can load from disk</li>"
        "<li><code>media/originals/</code>: the photo and video files</li>"
        "<li><code>viewer/</code>: the pages that browse them</li></ul>"
        "</body></html>\n").encode("utf-8", "backslashreplace")  # a lone surrogate: \\udcff
