# SPDX-License-Identifier: MIT
"""The JPEG a photo's size serves, made once and kept on disk.

A size of an uploaded PNG the sandbox can decode (``png.read``, up to
``MAX_DECODE_PIXELS``) is that image scaled (squares: its centre, cropped);
every other size is a drawn scene (``scenes.render``, seeded by the photo id
and an upload's checksum, chosen by its title): seeded photos, which have no file, and uploads in the
formats not decoded here (JPEG, GIF, TIFF, HEIC, video).  Files are kept under
``DATA_DIR/pictures-N/{id}/{lastupdate}_{suffix}.jpg``: a replace, a new title
or new tags move ``lastupdate`` on and so make new files (older ones of the
photo are removed then), and N, the drawing's version, changes whenever the
scenes do, so a kept data directory never serves yesterday's drawing.
"""

from __future__ import annotations

import functools
import os
import shutil
import sqlite3
import tempfile
import threading

from . import jpeg, png
from .raster import Raster
from .scenes import render, render_square

VERSION = 1
# A Paeth-filtered PNG decodes at about 1 s a megapixel here: larger ones get a scene.
MAX_DECODE_PIXELS = 4_000_000
SQUARES = {"s", "q"}

_locks: dict[tuple[int, str], threading.Lock] = {}
_locks_guard = threading.Lock()


def directory(data_dir: str) -> str:
    return os.path.join(data_dir, f"pictures-{VERSION}")


def picture_path(data_dir: str, photo: sqlite3.Row, suffix: str, dims: tuple[int, int]) -> str:
    """The path of the JPEG for ``photo``'s size ``suffix`` at ``dims``, made if missing.

    One thread makes a given file at a time; others asking for it wait, then find it.
    """
    folder = os.path.join(directory(data_dir), str(photo["id"]))
    path = os.path.join(folder, f"{photo['lastupdate']}_{suffix or 'medium'}.jpg")
    with _locks_guard:
        lock = _locks.setdefault((photo["id"], suffix), threading.Lock())
    with lock:
        if not os.path.exists(path):
            picture = raster_of(photo, suffix, dims)
            data = jpeg.encode(picture.width, picture.height, picture.pixels)
            os.makedirs(folder, exist_ok=True)
            for name in os.listdir(folder):  # another lastupdate's files: outdated
                if not name.startswith(f"{photo['lastupdate']}_"):
                    _remove(os.path.join(folder, name))
            fd, temporary = tempfile.mkstemp(dir=folder, prefix=".")
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(temporary, path)
    return path


def forget(data_dir: str, photo_id: int) -> None:
    """Remove the files kept for a photo (when it is deleted)."""
    shutil.rmtree(os.path.join(directory(data_dir), str(photo_id)), ignore_errors=True)


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def raster_of(photo: sqlite3.Row, suffix: str, dims: tuple[int, int]) -> Raster:
    """The pixels of ``photo``'s size ``suffix`` at ``dims``: the upload scaled, or its scene."""
    width, height = dims
    source = _uploaded(photo["file_path"]) if photo["file_path"] and photo["originalformat"] == "png" else None
    if source is not None:
        if suffix in SQUARES:
            side = min(source.width, source.height)
            source = source.crop((source.width - side) // 2, (source.height - side) // 2, side, side)
        return source.resized(width, height)
    # An upload's picture changes with its file: a replace gives new images, as on Flickr.
    seed = f"{photo['id']}-{photo['file_sha256']}" if photo["file_sha256"] else photo["id"]
    title = photo["title"] or photo["description"]
    if suffix in SQUARES:
        return render_square(seed, title, (photo["width"], photo["height"]), width)
    return render(seed, title, width, height)


def _uploaded(path: str) -> Raster | None:
    """The pixels of an uploaded PNG, if it can be read (and is small enough to)."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return _decoded(path, stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=2)  # the sizes of one photo are asked for together: decode it once
def _decoded(path: str, size: int, mtime: int) -> Raster | None:
    with open(path, "rb") as f:
        found = png.read(f.read(), MAX_DECODE_PIXELS)
    if found is None:
        return None
    raster = Raster(found[0], found[1])
    raster.pixels = found[2]
    return raster
