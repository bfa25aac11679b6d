# SPDX-License-Identifier: MIT
"""`Fetcher`: media files streamed to disk through the library, at any size.

The library's photo fetch streams an image into its cache directory (a temporary file created
O_EXCL|O_NOFOLLOW, checked, renamed) with the context's retries (an image host's 429 and
Retry-After included) and no credentials sent. A Fetcher is a context of its own whose cache is a
directory the caller gives, on the same file system as the final names (placing a file is a
rename, not a copy), and whose bound is the library's largest (2^40 bytes): no original or video
is too big, nothing is evicted before the caller has moved it out, and the body never sits in
memory. The caller's client is left as it was.

`flickr backup` keeps its cache in DIR/.flickr-backup/cache: a killed run leaves a fetched file
there, and the next run's fetch of the same URL finds it and downloads nothing. `flickr download`
uses a fresh private directory inside --dest, removed when it ends.
"""
from __future__ import annotations

import os
import pathlib
import re
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from flickr import errors
from .sizes import Candidate

if TYPE_CHECKING:
    from flickr.client import Flickr

UNBOUNDED = 1 << 40  # the library's largest cache bound and response cap
# A whole file's time limit: a video of gigabytes over a slow line still fits; a stalled one ends.
FILE_TIMEOUT_MS = 3 * 3600 * 1000
# How an image host refuses one size of a photo (absent, or not for this caller): the next size
# down may be served. A 429 or a 5xx that outlasted the retries is the host's state, not the size's:
# taking a smaller file then would keep it for good; the photo fails and is fetched later.
SIZE_REFUSED = frozenset({403, 404, 410})


# The library's photo cache names a download's temporary file "." entry "." pid "." unique ".part"
# (CacheName.swift's grammar; entry = "flickr-cache-" key ["-u" stamp] ["-alt" 1|2] "." extension).
_CACHE_TEMPORARY = re.compile(r"\.flickr-cache-[0-9a-z_-]{1,120}\.(jpg|jpeg|png|gif|webp|tif|tiff|heic|avif|mp4|img)"
                              r"\.[0-9]{1,10}\.[0-9a-z]{1,13}\.part")


def cache_temporary(name: str) -> bool:
    """Whether `name` is a download the library's cache had not finished (a killed process's): in a
    cache that only one process uses at a time, such a file is abandoned."""
    return _CACHE_TEMPORARY.fullmatch(name) is not None


def refuses_size(error: BaseException) -> bool:
    """Whether a failed fetch says "not this size" (try the next one down) rather than "not now"."""
    if isinstance(error, errors.HTTPError):
        return error.http_status in SIZE_REFUSED
    return isinstance(error, errors.ParseError)  # an answer that is no image: a page in its place


_COPIED = ("photo_endpoint", "ca_file", "proxy", "user_agent", "connect_timeout_ms", "max_retries", "retry_base_ms")


class Fetcher:
    def __init__(self, client: "Flickr", cache_dir: str, connections: int) -> None:
        from flickr.client import Flickr

        options: dict[str, Any] = {name: client.get_option(name) for name in _COPIED}
        options = {name: value for name, value in options.items() if value is not None}
        self.context = Flickr(client.api_key, None, photo_cache_dir=os.path.abspath(cache_dir),
                              photo_cache_max_bytes=UNBOUNDED, max_response_bytes=UNBOUNDED,
                              timeout_ms=FILE_TIMEOUT_MS, max_connections=max(connections, 1), **options)

    @staticmethod
    def _photo(photo_id: str, lastupdate: int, candidate: Candidate) -> dict[str, str]:
        return {"id": photo_id, "url_o": candidate.url, "lastupdate": str(lastupdate)}

    def fetch(self, photo_id: str, lastupdate: int, candidate: Candidate) -> "Future[Any]":
        """A future of the cached file's path (pathlib.Path)."""
        return self.context.fetch_photo_async(self._photo(photo_id, lastupdate, candidate), "o")

    def fetch_now(self, photo_id: str, lastupdate: int, candidate: Candidate) -> pathlib.Path:
        """The cached file's path, fetched in the calling thread (Ctrl-C ends the wait)."""
        return self.context.fetch_photo(self._photo(photo_id, lastupdate, candidate), "o")

    def close(self) -> None:
        self.context.close()
