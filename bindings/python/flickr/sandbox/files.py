# SPDX-License-Identifier: MIT
"""Photo file serving: ``/photos/{server}/{id}_{secret}[_{suffix}].{ext}``.

Every size of an uploaded photo answers with the original bytes (the sandbox
does not resize); seeded photos, which have no uploaded file, get a
placeholder JPEG of the size's own dimensions in a colour of their own.  URLs must carry the right secret for the size,
as on Flickr's static hosts; anything else is 404.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Iterator

from . import response as R
from .images import CONTENT_TYPES
from .jpeg import placeholder_jpeg
from .methods.photolist import SIZES, size_dims, size_secret
from .request import Prepared, Request
from .seed import photo_colour

PHOTO_PATH = re.compile(r"^/photos/(\w+)/(\d+)_([0-9a-f]+)(?:_(\w+))?\.(\w+)$")
_BY_SUFFIX = {s[1]: s for s in SIZES}


@functools.lru_cache(maxsize=64)
def _placeholder(photo_id: int, width: int, height: int) -> bytes:
    return placeholder_jpeg(width, height, photo_colour(photo_id))


def prepare(req: Request, match: re.Match) -> Prepared:
    req.read_form()  # consume any body so the connection stays usable
    return Prepared(req.query_pairs, lambda: serve(req, match))


def _not_found() -> R.Response:
    return R.html(404, "404 Not Found", "The requested photo does not exist.")


def serve(req: Request, match: re.Match) -> R.Response:
    server, photo_id, secret, suffix, ext = match.groups()
    photo = req.site.store.photo(photo_id)
    suffix = suffix or ""
    if photo is None or photo["server"] != server or suffix not in _BY_SUFFIX:
        return _not_found()
    expected_ext = photo["originalformat"] if suffix == "o" else "jpg"
    dims = size_dims(photo, _BY_SUFFIX[suffix])
    if ext != expected_ext or secret != size_secret(photo, suffix) or dims is None:
        return _not_found()
    path = photo["file_path"]
    if path is None:
        return R.Response(200, _placeholder(photo["id"], *dims), "image/jpeg")
    if not os.path.exists(path):
        return _not_found()
    size = os.path.getsize(path)
    return R.Response(200, _file_chunks(path), CONTENT_TYPES[photo["originalformat"]], length=size)


def _file_chunks(path: str) -> Iterator[bytes]:
    with open(path, "rb") as f:
        while chunk := f.read(64 * 1024):
            yield chunk
