# SPDX-License-Identifier: MIT
"""The JPEG a photo's size serves, made once and kept on disk.

A size of an uploaded PNG the sandbox can decode (``png.read``, up to
``MAX_DECODE_PIXELS``) is that image scaled (squares: its centre, cropped);
every other size is a drawn scene (``scenes.render``, seeded by the photo id
and an upload's checksum, chosen by its title): seeded photos, which have no file, and uploads in the
formats not decoded here (JPEG, GIF, TIFF, HEIC, video).  A drawn size larger than
``MOSAIC_ABOVE`` is the scene at about 256 px, each pixel a flat square (``mosaic``): encoded in
milliseconds, where ``jpeg.encode`` takes half a second for a 4000 px original.  Files are kept under
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
from typing import Callable

from . import jpeg, mosaic, png
from .raster import Raster
from .scenes import render, render_square

VERSION = 2  # 2: drawn sizes above 1024 px are mosaics
# A Paeth-filtered PNG decodes at about 1 s a megapixel here: larger ones get a scene.
MAX_DECODE_PIXELS = 4_000_000
SQUARES = {"s", "q"}
# Drawn sizes with a longer side than this are mosaics (Large 1600 and up, large originals).
MOSAIC_ABOVE = 1024

_locks: dict[tuple[int, str], threading.Lock] = {}
_locks_guard = threading.Lock()


def directory(data_dir: str) -> str:
    return os.path.join(data_dir, f"pictures-{VERSION}")


def picture_path(data_dir: str, photo: sqlite3.Row, suffix: str, dims: tuple[int, int]) -> str:
    """The path of the JPEG for ``photo``'s size ``suffix`` at ``dims``, made if missing."""
    return kept_file(data_dir, photo, f"{suffix or 'medium'}.jpg", lambda: picture_bytes(photo, suffix, dims))


def kept_file(data_dir: str, photo: sqlite3.Row, name: str, make: Callable[[], bytes]) -> str:
    """The path of ``photo``'s file ``name`` (a size's JPEG, a video's MP4), made by ``make``
    if missing.

    One thread makes a given file at a time; others asking for it wait, then find it.
    """
    folder = os.path.join(directory(data_dir), str(photo["id"]))
    path = os.path.join(folder, f"{photo['lastupdate']}_{name}")
    with _locks_guard:
        lock = _locks.setdefault((photo["id"], name), threading.Lock())
    with lock:
        if not os.path.exists(path):
            data = make()
            os.makedirs(folder, exist_ok=True)
            for entry in os.listdir(folder):  # another lastupdate's files: outdated
                if not entry.startswith(f"{photo['lastupdate']}_"):
                    _remove(os.path.join(folder, entry))
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


def picture_bytes(photo: sqlite3.Row, suffix: str, dims: tuple[int, int]) -> bytes:
    """The JPEG of ``photo``'s size ``suffix`` at ``dims``: scaled, drawn, or a drawn mosaic."""
    width, height = dims
    if max(width, height) > MOSAIC_ABOVE and suffix not in SQUARES and not _decodable(photo):
        columns, rows = mosaic.cell_grid(width, height)
        return mosaic.encode(width, height, render(_seed(photo), _title(photo), columns, rows))
    picture = raster_of(photo, suffix, dims)
    return jpeg.encode(picture.width, picture.height, picture.pixels)


def _decodable(photo: sqlite3.Row) -> bool:
    return bool(photo["file_path"]) and photo["originalformat"] == "png"


def _seed(photo: sqlite3.Row) -> int | str:
    # An upload's picture changes with its file: a replace gives new images, as on Flickr.
    return f"{photo['id']}-{photo['file_sha256']}" if photo["file_sha256"] else int(photo["id"])


def _title(photo: sqlite3.Row) -> str:
    return str(photo["title"] or photo["description"])


def raster_of(photo: sqlite3.Row, suffix: str, dims: tuple[int, int]) -> Raster:
    """The pixels of ``photo``'s size ``suffix`` at ``dims``: the upload scaled, or its scene."""
    width, height = dims
    source = _uploaded(photo["file_path"]) if _decodable(photo) else None
    if source is not None:
        if suffix in SQUARES:
            side = min(source.width, source.height)
            source = source.crop((source.width - side) // 2, (source.height - side) // 2, side, side)
        return source.resized(width, height)
    seed, title = _seed(photo), _title(photo)
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
