# SPDX-License-Identifier: MIT
"""Videos: their sizes in getSizes, their streams, and their files at ``/photos/{user}/{id}/play/...``.

A video on Flickr lists its poster frame's photo sizes (``media="photo"``), then its video sizes
(``media="video"``): "Video Player", "Site MP4", "Mobile MP4", "HD MP4" (HD sources only) and
"Video Original", whose ``source`` is ``https://www.flickr.com/photos/{user}/{id}/play/{kind}/{secret}/``
(``orig`` with the original secret), the URL archive tools (flickr-download, gallery-dl's streams,
scripts since 2009) fetch.  Flickr redirects it to its video host; the sandbox answers it itself
with the file (a deviation: one request fewer).  A video still processing
(``media_status="processing"``) has no video sizes yet and its play URLs answer 404.

The file of a seeded video is an MP4 of two drawn frames (``pictures.mp4``), made on first
request and kept; an uploaded video's original is the uploaded file.
"""

from __future__ import annotations

import re
import sqlite3

from . import response as R
from .downloads import host_refuses
from .images import CONTENT_TYPES
from .pictures import mosaic, mp4
from .pictures.cache import kept_file
from .pictures.scenes import render
from .request import Prepared, Request
from .store import Store

PLAY_PATH = re.compile(r"^/photos/([^/]+)/(\d+)/play/(site|mobile|hd|orig)/([0-9a-f]+)/?$")
# label, kind in the play URL, longest edge (None: the original's); in getSizes' order.
VIDEO_SIZES = [("Site MP4", "site", 640), ("Mobile MP4", "mobile", 480), ("HD MP4", "hd", 1280),
               ("Video Original", "orig", None)]
# video.getStreamInfo's stream types by play kind, best first (gallery-dl ranks them: orig, 1080p,
# 720p, 360p, 288p...).
STREAM_TYPES = {"orig": "orig", "hd": "720p", "site": "360p", "mobile": "288p"}
DEFAULT_DURATION = 10  # seconds, for a video whose duration is unknown (an upload)
PLAYER = "https://www.flickr.com/apps/video/stewart.swf?v=2968162862"


def is_ready_video(photo: sqlite3.Row) -> bool:
    return bool(photo["media"] == "video" and photo["media_status"] == "ready")


def video_dims(photo: sqlite3.Row, kind: str) -> tuple[int, int] | None:
    """A video size's (width, height); None for HD of a source smaller than HD."""
    width, height = photo["width"], photo["height"]
    edge = next(size[2] for size in VIDEO_SIZES if size[1] == kind)
    longest = max(width, height)
    if edge is None or (longest <= edge and kind != "hd"):
        return width, height
    if longest < edge:
        return None
    scale = edge / longest
    # Even dimensions, as video encoders make them.
    return max(2, round(width * scale / 2) * 2), max(2, round(height * scale / 2) * 2)


def play_url(base_url: str, owner: sqlite3.Row, photo: sqlite3.Row, kind: str) -> str:
    secret = photo["originalsecret"] if kind == "orig" else photo["secret"]
    return f"{base_url}/photos/{owner['path_alias'] or owner['nsid']}/{photo['id']}/play/{kind}/{secret}/"


def video_sizes(base_url: str, owner: sqlite3.Row, photo: sqlite3.Row, downloadable: bool) -> list[dict[str, object]]:
    """The ``<size>`` attributes of a ready video's video sizes (none while it is processing)."""
    if not is_ready_video(photo):
        return []
    site = video_dims(photo, "site")
    assert site is not None  # only HD can be missing
    page = f"{base_url}/photos/{owner['path_alias'] or owner['nsid']}/{photo['id']}/"
    sizes: list[dict[str, object]] = [
        {"label": "Video Player", "width": site[0], "height": site[1],
         "source": f"{PLAYER}&photo_id={photo['id']}&photo_secret={photo['secret']}", "url": page,
         "media": "video"}]
    for label, kind, _ in VIDEO_SIZES:
        dims = video_dims(photo, kind)
        if dims is None or (kind == "orig" and not downloadable):
            continue
        url = play_url(base_url, owner, photo, kind)
        sizes.append({"label": label, "width": dims[0], "height": dims[1], "source": url, "url": url,
                      "media": "video"})
    return sizes


def prepare(req: Request, match: re.Match[str]) -> Prepared:
    req.read_form()  # consume any body so the connection stays usable
    return Prepared(req.query_pairs, lambda: serve(req, match))


def serve(req: Request, match: re.Match[str]) -> R.Response:
    ident, photo_id, kind, secret = match.groups()
    store = req.site.store
    photo = store.photo(photo_id)
    if photo is None or not is_ready_video(photo):
        return _not_found()
    owner = store.owner(photo["owner"])
    expected = photo["originalsecret"] if kind == "orig" else photo["secret"]
    dims = video_dims(photo, kind)
    if ident not in (owner["nsid"], owner["path_alias"]) or secret != expected or dims is None:
        return _not_found()
    if kind == "orig" and host_refuses(store, photo, "o"):
        return R.html(403, "403 Forbidden", "The owner's account does not allow downloading this original.")
    if kind == "orig" and photo["file_path"] is not None:
        path, content_type = photo["file_path"], CONTENT_TYPES.get(photo["originalformat"], "video/mp4")
    else:
        path, content_type = video_path(store, photo, kind, dims), "video/mp4"
    try:
        f = open(path, "rb")  # now: a replace may remove the file before the body is sent
    except FileNotFoundError:
        return _not_found()
    return R.open_file(f, content_type)


def video_path(store: Store, photo: sqlite3.Row, kind: str, dims: tuple[int, int]) -> str:
    return kept_file(store.data_dir, photo, f"{kind}.mp4", lambda: video_bytes(photo, dims))


def video_bytes(photo: sqlite3.Row, dims: tuple[int, int]) -> bytes:
    """Two frames of the photo's scene, laid out twice (it moves), over the video's duration."""
    width, height = dims
    columns, rows = mosaic.cell_grid(width, height)
    title = str(photo["title"] or photo["description"])
    frames = [mosaic.encode(width, height, render(f"{photo['id']}-{n}", title, columns, rows)) for n in (0, 1)]
    return mp4.write(width, height, 1000 * (photo["duration"] or DEFAULT_DURATION), frames)


def _not_found() -> R.Response:
    return R.html(404, "404 Not Found", "The requested video does not exist.")

