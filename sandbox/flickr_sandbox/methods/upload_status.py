# SPDX-License-Identifier: MIT
"""flickr.people.getUploadStatus: what the logged-in user may still upload.

The limits are Flickr's as its own answer gave them (the 2024 recording in Tests/Fixtures):
200 MB a photo, 1 GB a video, 1,000 items for a free account, bandwidth unlimited. The
counts are the sandbox's: the user's items, videos and albums. A free account at or past its
1,000 items reads ``at_limit``, a value no recording shows (sandbox/README.md, its method table).
"""

from __future__ import annotations

from ..envelope import Node
from .registry import Call, method

PHOTO_MAX_BYTES = 209_715_200
VIDEO_MAX_BYTES = 1_073_741_824
FREE_ITEMS = 1000
# Flickr still reports the old 2 GB monthly allowance beside unlimited="1".
BANDWIDTH_BYTES = 214_748_364_800
BANDWIDTH_MAX = 2_147_483_648


@method("flickr.people.getUploadStatus", perms=1)
def get_upload_status(call: Call) -> list[Node]:
    user = call.store.owner(call.caller.require_user())
    nsid = user["nsid"]
    items = call.store.row(
        "SELECT COUNT(*) AS n, COALESCE(SUM(media = 'video'), 0) AS videos FROM photos WHERE owner = ?", (nsid,))
    albums = call.store.row("SELECT COUNT(*) AS n FROM photosets WHERE owner = ?", (nsid,))
    pro = bool(user["ispro"])
    count = int(items["n"])
    status = "below_limit" if pro or count < FREE_ITEMS else "at_limit"
    # Types as Flickr's JSON has them: counts are numbers, limits strings.
    node = Node("user", {"id": nsid, "ispro": int(pro), "upload_count": count, "upload_limit": FREE_ITEMS,
                         "upload_limit_status": status})
    node.add("username", text=user["username"])
    node.add("bandwidth", {"max": str(BANDWIDTH_MAX), "used": 0, "maxbytes": str(BANDWIDTH_BYTES), "usedbytes": 0,
                           "remainingbytes": str(BANDWIDTH_BYTES), "maxkb": str(BANDWIDTH_BYTES // 1024),
                           "usedkb": 0, "remainingkb": str(BANDWIDTH_BYTES // 1024), "unlimited": 1})
    node.add("filesize", {"max": str(PHOTO_MAX_BYTES), "maxbytes": str(PHOTO_MAX_BYTES),
                          "maxkb": str(PHOTO_MAX_BYTES // 1024), "maxmb": str(PHOTO_MAX_BYTES // 1024 // 1024)})
    node.add("sets", {"created": int(albums["n"]), "remaining": "lots"})
    node.add("videosize", {"maxbytes": str(VIDEO_MAX_BYTES), "maxkb": str(VIDEO_MAX_BYTES // 1024),
                           "maxmb": str(VIDEO_MAX_BYTES // 1024 // 1024)})
    node.add("videos", {"uploaded": int(items["videos"]), "remaining": "lots"})
    return [node]
