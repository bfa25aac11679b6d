# SPDX-License-Identifier: MIT
"""The archive's viewer: a static app (index.html, app.js, style.css, basemap.js, and Leaflet)
that browses an archive, or a Data Lifeboat, opened from disk (file://, no server, no network).

`install_viewer(root, kind)` writes it (`write_viewer_folder(folder, kind)` fills a viewer/ folder
already open): for an archive (`kind="archive"`) `index.html` at the root
and the rest in `viewer/`, beside the data `flickr backup` writes in `viewer/data/`
(`backup/viewerdata.py`); for a Data Lifeboat (`kind="lifeboat"`) everything in `viewer/`,
reading the Lifeboat's `metadata/*.js` (docs/lifeboat.md). Leaflet (the map) is copied from
Debian's libjs-leaflet (scripts/install-deps.sh) when it is installed; without it the viewer
says the map needs it and works otherwise.
"""
from __future__ import annotations

import os
from importlib import resources
from typing import Union

from flickr.files import read_regular

from ..layout import VIEWER
from ..safedir import SafeDir

KINDS = ("archive", "lifeboat")
LEAFLET_DIR = "/usr/share/javascript/leaflet"  # Debian's libjs-leaflet
ASSETS = ("app.js", "style.css", "basemap.js", "photo-loader.js")
LEAFLET = ("leaflet.js", "leaflet.css")
# Where each kind's index.html (DIR/index.html; a Lifeboat's viewer/index.html) finds the assets,
# its data and the media paths the data names.
_PLACES = {"archive": ("viewer/", "viewer/data/", ""), "lifeboat": ("", "../metadata/", "../")}


def asset(name: str) -> bytes:
    """One of the viewer's static files, as shipped in this package."""
    return resources.files(__name__).joinpath(name).read_bytes()


def page(kind: str, leaflet: bool = True) -> bytes:
    """index.html for `kind`: the template with where the assets, the data and the media are, and
    whether Leaflet was copied in (without it the map says what it needs, and loads nothing)."""
    assets, data, media = _PLACES[kind]
    text = asset("index.html").decode("utf-8")
    for key, value in (("KIND", kind), ("ASSETS", assets), ("DATA", data), ("MEDIA", media),
                       ("LEAFLET", "yes" if leaflet else "no")):
        text = text.replace("{{" + key + "}}", value)
    return text.encode("utf-8")


def contents(kind: str, leaflet_dir: str = LEAFLET_DIR) -> list[tuple[str, bytes]]:
    """Every file of the viewer for `kind`, by its path from the folder it is installed in (DIR, or
    the Lifeboat's root): for an archive index.html and viewer/'s assets, for a Lifeboat all in
    viewer/; Leaflet when `leaflet_dir` holds it."""
    if kind not in KINDS:
        raise ValueError(f"kind is one of {', '.join(KINDS)}, not {kind!r}")
    files = [(name, asset(name)) for name in ASSETS]
    try:
        leaflet = []
        for name in LEAFLET:
            leaflet.append((name, read_regular(os.path.join(leaflet_dir, name), follow=True)))
    except OSError:
        leaflet = []  # not installed: the page says the map needs it
    files += leaflet
    index = page(kind, bool(leaflet))
    found = [(f"{VIEWER}/{name}", data) for name, data in files]
    return [("index.html", index)] + found if kind == "archive" else found + [(f"{VIEWER}/index.html", index)]


def write_viewer_folder(folder: SafeDir, kind: str, leaflet_dir: str = LEAFLET_DIR) -> list[str]:
    """Writes the viewer's files into `folder`, the viewer/ folder itself (opened, never through a
    link): the assets, Leaflet when `leaflet_dir` holds it, and for a Lifeboat (`kind="lifeboat"`)
    its index.html, reading ../metadata/*.js. Each file through a temporary renamed into place,
    left alone when unchanged (SafeDir.write_if_changed). Returns the names written."""
    return _write(folder, contents(kind, leaflet_dir), f"{VIEWER}/")


def install_viewer(root: Union[SafeDir, "os.PathLike[str]", str], kind: str,
                   leaflet_dir: str = LEAFLET_DIR) -> list[str]:
    """Writes the viewer into `root` (a SafeDir, or a folder's path, created if missing) for a data
    source of `kind`: "archive", index.html in `root` and the rest in root/viewer/; "lifeboat",
    everything in root/viewer/ (write_viewer_folder). What stands at those names is replaced: the
    backup checks first that they are its own (backup/viewerfiles.py). Returns the paths written,
    relative to `root` (unchanged files too)."""
    if kind not in KINDS:
        raise ValueError(f"kind is one of {', '.join(KINDS)}, not {kind!r}")
    if not isinstance(root, SafeDir):
        with SafeDir.open_root(os.fspath(root)) as opened:
            return install_viewer(opened, kind, leaflet_dir)
    files = contents(kind, leaflet_dir)
    write_contents(root, files)
    return [path for path, _ in files]


def write_contents(root: SafeDir, files: list[tuple[str, bytes]]) -> None:
    """Writes `contents()`'s files into `root`: viewer/'s first, so that the page finds them."""
    with root.subdir(VIEWER) as folder:
        _write(folder, files, f"{VIEWER}/")
    _write(root, files, "")


def _write(folder: SafeDir, files: list[tuple[str, bytes]], prefix: str) -> list[str]:
    """Writes those of `files` directly below `prefix` into `folder`; their names."""
    mine = [(path[len(prefix):], data) for path, data in files
            if path.startswith(prefix) and "/" not in path[len(prefix):]]
    for name, data in mine:
        folder.write_if_changed(name, data)
    return [name for name, _ in mine]
