# SPDX-License-Identifier: MIT
"""What `flickr upload` records of each file it sends, to know it again: a machine tag
``libflickr:sha256=<hex>`` carrying the file's content hash, and the listing of those tags."""
from __future__ import annotations

import hashlib
from typing import Any, Protocol

from flickr.limits import MAX_PER_PAGE

# Flickr machine tags are namespace:predicate=value, the first two [A-Za-z][A-Za-z0-9_]*; a hex
# value needs no quotes. 128 bits of SHA-256 tell files apart and keep the tag short.
TAG_PREFIX = "libflickr:sha256="
HEX_DIGITS = 32
_CHUNK = 1 << 20  # hashed in 1 MiB reads: a video need not fit in memory


class _Walker(Protocol):
    def walk(self, method: str, *, item_path: str | None = None, **params: Any) -> Any: ...


def file_checksum(path: str) -> str:
    """The hex digits of the tag for the file at `path`. Raises OSError."""
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()[:HEX_DIGITS]


def checksum_tag(checksum: str) -> str:
    return TAG_PREFIX + checksum


def uploaded_checksums(api: _Walker) -> dict[str, str]:
    """{checksum: photo id} of the caller's photos carrying the tag: one search for them all
    ("libflickr:sha256=" matches any value), 500 a page, so N photos cost about N/500 calls."""
    found: dict[str, str] = {}
    for photo in api.walk("flickr.photos.search", user_id="me", machine_tags=TAG_PREFIX,
                          extras="machine_tags", per_page=MAX_PER_PAGE):
        # Flickr lists machine tags in their clean form (lower case), space-separated.
        for tag in str(photo.get("machine_tags", "")).split():
            if tag.startswith(TAG_PREFIX):
                found.setdefault(tag[len(TAG_PREFIX):], str(photo.get("id", "")))
    return found
