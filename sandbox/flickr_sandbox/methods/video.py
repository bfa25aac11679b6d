# SPDX-License-Identifier: MIT
"""flickr.video.getStreamInfo: the streams of a video, what gallery-dl downloads videos by.

Not in Flickr's published method list, but answered by Flickr: ``photo_id`` and the photo's
``secret``; ``<streams><stream type="orig">URL</stream>...</streams>``, best first.  The
original stream follows the same download rules as the original file (``downloads``).
"""

from __future__ import annotations

from .. import videos
from ..downloads import may_download
from ..envelope import Node
from ..errors import ApiError
from .photolist import can_see
from .registry import Call, method


@method("flickr.video.getStreamInfo")
def get_stream_info(call: Call) -> list[Node]:
    photo = call.store.photo(call.arg("photo_id"))
    if photo is None or not can_see(photo, call.caller.nsid) or call.arg("secret") != photo["secret"]:
        raise ApiError(1, "Video not found")
    if not videos.is_ready_video(photo):
        raise ApiError(1, "Video not found")
    owner = call.store.owner(photo["owner"])
    downloadable = may_download(call.store, photo, call.caller.nsid)
    streams = Node("streams")
    for kind in videos.STREAM_TYPES:  # best first
        if videos.video_dims(photo, kind) is None or (kind == "orig" and not downloadable):
            continue
        streams.add("stream", {"type": videos.STREAM_TYPES[kind]},
                    text=videos.play_url(call.base_url, owner, photo, kind))
    return [streams]
