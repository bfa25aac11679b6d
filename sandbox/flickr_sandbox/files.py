# SPDX-License-Identifier: MIT
"""Photo file serving: ``/photos/{server}/{id}_{secret}[_{suffix}].{ext}``.

The original of an uploaded photo answers with the uploaded bytes; every other
image is a JPEG of the size's own dimensions from ``pictures.py`` (the upload
scaled, or a drawn scene), made on first request and then kept on disk.  Sizes
larger than the original do not exist, as on Flickr.  URLs must carry the right
secret for the size, as on Flickr's static hosts; anything else is 404.  The sizes Flickr's
2025 rule for free accounts withholds (``downloads``) are refused with 403.
"""

from __future__ import annotations

import re

from . import response as R
from .downloads import host_refuses
from .images import CONTENT_TYPES
from .methods.photolist import SIZES, size_dims, size_secret
from .pictures import picture_path
from .request import Prepared, Request

PHOTO_PATH = re.compile(r"^/photos/(\w+)/(\d+)_([0-9a-f]+)(?:_(\w+))?\.(\w+)$")
_BY_SUFFIX = {s[1]: s for s in SIZES}


def prepare(req: Request, match: re.Match[str]) -> Prepared:
    req.read_form()  # consume any body so the connection stays usable
    return Prepared(req.query_pairs, lambda: serve(req, match))


def _not_found() -> R.Response:
    return R.html(404, "404 Not Found", "The requested photo does not exist.")


def serve(req: Request, match: re.Match[str]) -> R.Response:
    server, photo_id, secret, suffix, ext = match.groups()
    photo = req.site.store.photo(photo_id)
    suffix = suffix or ""
    if photo is None or photo["server"] != server or suffix not in _BY_SUFFIX:
        return _not_found()
    expected_ext = photo["originalformat"] if suffix == "o" else "jpg"
    dims = size_dims(photo, _BY_SUFFIX[suffix])
    if ext != expected_ext or secret != size_secret(photo, suffix) or dims is None:
        return _not_found()
    if host_refuses(req.site.store, photo, suffix):
        return R.html(403, "403 Forbidden", "The owner's account does not allow downloading this size.")
    if suffix == "o" and photo["file_path"] is not None:
        path, kind = photo["file_path"], CONTENT_TYPES[photo["originalformat"]]
    else:
        path, kind = picture_path(req.site.store.data_dir, photo, suffix, dims), "image/jpeg"
    try:
        f = open(path, "rb")  # now: a replace may remove the file before the body is sent
    except FileNotFoundError:
        return _not_found()
    return R.open_file(f, kind)

