# SPDX-License-Identifier: MIT
"""`Fetcher`: media files streamed to disk through the library, at any size.

The library's photo fetch streams an image into its cache directory (temporary file, checked,
renamed) with the context's retries (429 and Retry-After included) and no credentials sent.
The backup gives it a context of its own whose cache is inside DIR (.flickr-backup/cache, on
the same file system as the final names, so placing a file is a rename, not a copy) and whose
bound is the library's largest (2^40 bytes): no original or video is too big, and nothing is
evicted before the backup has moved it out. The caller's client is left as it was.

A killed run leaves a fetched file in that cache; the next run's fetch of the same URL finds it
there and downloads nothing.
"""
from __future__ import annotations

import os
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from .sizes import Candidate

if TYPE_CHECKING:
    from ..client import Flickr

UNBOUNDED = 1 << 40  # the library's largest cache bound and response cap
# A whole file's time limit: a video of gigabytes over a slow line still fits; a stalled one ends.
FILE_TIMEOUT_MS = 3 * 3600 * 1000
_COPIED = ("photo_endpoint", "ca_file", "proxy", "user_agent", "connect_timeout_ms", "max_retries", "retry_base_ms")


class Fetcher:
    def __init__(self, client: "Flickr", cache_dir: str, connections: int) -> None:
        from ..client import Flickr

        options: dict[str, Any] = {name: client.get_option(name) for name in _COPIED}
        options = {name: value for name, value in options.items() if value is not None}
        self.context = Flickr(client.api_key, None, photo_cache_dir=os.path.abspath(cache_dir),
                              photo_cache_max_bytes=UNBOUNDED, max_response_bytes=UNBOUNDED,
                              timeout_ms=FILE_TIMEOUT_MS, max_connections=max(connections, 1), **options)

    def fetch(self, photo_id: str, lastupdate: int, candidate: Candidate) -> "Future[Any]":
        """A future of the cached file's path (pathlib.Path)."""
        photo = {"id": photo_id, "url_o": candidate.url, "lastupdate": str(lastupdate)}
        return self.context.fetch_photo_async(photo, "o")

    def close(self) -> None:
        self.context.close()
