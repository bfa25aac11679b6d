# SPDX-License-Identifier: MIT
"""The archive's viewer: a static app (index.html, app.js, style.css, basemap.js, and Leaflet)
that browses an archive, or a Data Lifeboat, opened from disk (file://, no server, no network).

`install_viewer(root, kind)` writes it: for an archive (`kind="archive"`) `index.html` at the root
and the rest in `viewer/`, beside the data `flickr backup` writes in `viewer/data/`
(`flickr/backup/viewerdata.py`); for a Data Lifeboat (`kind="lifeboat"`) everything in `viewer/`,
reading the Lifeboat's `metadata/*.js` (docs/lifeboat.md). Leaflet (the map) is copied from
Debian's libjs-leaflet (scripts/install-deps.sh) when it is installed; without it the viewer
says the map needs it and works otherwise.
"""
from __future__ import annotations

import os
from importlib import resources
from typing import Union

from ..layout import VIEWER
from ..safedir import SafeDir

KINDS = ("archive", "lifeboat")
LEAFLET_DIR = "/usr/share/javascript/leaflet"  # Debian's libjs-leaflet
ASSETS = ("app.js", "style.css", "basemap.js", "photo-loader.js")
LEAFLET = ("leaflet.js", "leaflet.css")
# Where each kind's index.html finds the assets, its data and the media paths the data names.
_PLACES = {"archive": ("index.html", "viewer/", "viewer/data/", ""),
           "lifeboat": ("viewer/index.html", "", "../metadata/", "../")}


def asset(name: str) -> bytes:
    """One of the viewer's static files, as shipped in this package."""
    return resources.files(__name__).joinpath(name).read_bytes()


def page(kind: str, leaflet: bool = True) -> bytes:
    """index.html for `kind`: the template with where the assets, the data and the media are, and
    whether Leaflet was copied in (without it the map says what it needs, and loads nothing)."""
    _, assets, data, media = _PLACES[kind]
    text = asset("index.html").decode("utf-8")
    for key, value in (("KIND", kind), ("ASSETS", assets), ("DATA", data), ("MEDIA", media),
                       ("LEAFLET", "yes" if leaflet else "no")):
        text = text.replace("{{" + key + "}}", value)
    return text.encode("utf-8")


def install_viewer(root: Union[SafeDir, "os.PathLike[str]", str], kind: str,
                   leaflet_dir: str = LEAFLET_DIR) -> list[str]:
    """Writes the viewer into `root` (a SafeDir, or a folder's path, created if missing) for a data
    source of `kind`, "archive" or "lifeboat"; each file through a temporary renamed into place
    (SafeDir.write_if_changed). Returns the paths written, relative to `root` (unchanged files too)."""
    if kind not in KINDS:
        raise ValueError(f"kind is one of {', '.join(KINDS)}, not {kind!r}")
    if not isinstance(root, SafeDir):
        with SafeDir.open_root(os.fspath(root)) as opened:
            return install_viewer(opened, kind, leaflet_dir)
    entry = _PLACES[kind][0]
    written = []
    with root.subdir(VIEWER) as folder:
        files = [(name, asset(name)) for name in ASSETS]
        try:
            leaflet = []
            for name in LEAFLET:
                with open(os.path.join(leaflet_dir, name), "rb") as source:
                    leaflet.append((name, source.read()))
            files += leaflet
        except OSError:
            leaflet = []  # not installed: the page says the map needs it
        for name, data in files:
            folder.write_if_changed(name, data)
            written.append(f"{VIEWER}/{name}")
        if kind == "lifeboat":
            folder.write_if_changed("index.html", page(kind, bool(leaflet)))
    if kind == "archive":
        root.write_if_changed(entry, page(kind, bool(leaflet)))
    return [entry, *written]
