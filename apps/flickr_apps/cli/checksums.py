# SPDX-License-Identifier: MIT
"""What `flickr upload` records of each file it sends, to know it again: a machine tag
``libflickr:sha256=<hex>`` carrying the file's content hash, and the listing of those tags."""
from __future__ import annotations

import hashlib
import os
from typing import Any, Protocol

from flickr.files import open_regular

# Flickr machine tags are namespace:predicate=value, the first two [A-Za-z][A-Za-z0-9_]*; a hex
# value needs no quotes. 128 bits of SHA-256 tell files apart and keep the tag short.
TAG_PREFIX = "libflickr:sha256="
HEX_DIGITS = 32
_CHUNK = 1 << 20  # hashed in 1 MiB reads: a video need not fit in memory


class _Harvester(Protocol):
    def harvest(self, method: str, **params: Any) -> Any: ...


def file_checksum(path: str) -> str:
    """The hex digits of the tag for the file at `path`. Raises OSError."""
    digest = hashlib.sha256()
    with os.fdopen(open_regular(path, follow=True), "rb") as file:  # a regular file only: no FIFO waited on
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()[:HEX_DIGITS]


def checksum_tag(checksum: str) -> str:
    return TAG_PREFIX + checksum


def uploaded_checksums(api: _Harvester) -> tuple[dict[str, str], bool]:
    """{checksum: photo id} of the caller's photos carrying the tag, and whether every one of them
    was listed. One search for them all ("libflickr:sha256=" matches any value), harvested: Flickr
    serves 4,000 results a search (flickr.limits.SEARCH_RESULT_CAP), so an account with more is
    sliced by upload date (docs/harvest.md); 500 a page, so N photos cost about N/500 calls."""
    found: dict[str, str] = {}
    harvest = api.harvest("flickr.photos.search", user_id="me", machine_tags=TAG_PREFIX, extras="machine_tags")
    for photo in harvest:
        # Flickr lists machine tags in their clean form (lower case), space-separated.
        for tag in str(photo.get("machine_tags", "")).split():
            if tag.startswith(TAG_PREFIX):
                found.setdefault(tag[len(TAG_PREFIX):], str(photo.get("id", "")))
    return found, bool(harvest.report.complete)
