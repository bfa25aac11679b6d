# SPDX-License-Identifier: MIT
"""Flickr URLs: a photo's image, page and short URLs, and the ids in any Flickr URL.

The library builds and reads them (``flickr_photo_source_url``, ``flickr_url_parse``...), so
C and Python agree on every form. Photos are dicts as calls return them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import _ffi, _response

__all__ = ["FlickrURL", "page", "parse", "short", "source"]


def _owned_url(pointer: int | None) -> str:
    return _ffi.take_text(pointer)


def source(photo: dict[str, Any], size: str = "b") -> str:
    """The image URL on Flickr's static host (``https://live.staticflickr.com/...``).

    Sizes: "s" 75 square, "q" 150 square, "t" 100, "m" 240, "n" 320, "w" 400, "" 500, "z" 640,
    "c" 800, "b" 1024 (from id, secret, server); "h", "k", "3k"... "6k" from the photo's url_*
    extras; "o" the original. ``Flickr.photo_url`` gives the URL on the client's own photo
    endpoint (a sandbox's). Raises ``flickr.InvalidArgument`` naming what the photo lacks.
    """
    with _response.photo_value(photo) as value:
        return _owned_url(_ffi.lib().flickr_photo_source_url(value, _ffi.encode(size, "size")))


def page(photo: dict[str, Any]) -> str:
    """The photo's page, ``https://www.flickr.com/photos/{path alias or owner}/{id}/``."""
    with _response.photo_value(photo) as value:
        return _owned_url(_ffi.lib().flickr_photo_page_url(value))


def short(photo_id: str | int) -> str:
    """The photo's short link, ``https://flic.kr/p/{base58 id}``."""
    return _owned_url(_ffi.lib().flickr_photo_short_url(_ffi.encode(str(photo_id), "photo_id")))


@dataclass(frozen=True, repr=False)
class FlickrURL:
    """What :func:`parse` found: `kind` ("photo", "image", "album", "gallery", "favorites",
    "group", "user" or "tag") and the ids the URL holds (None when absent), named as the library
    names them; `fields` has them all as the library returned them. The repr shows every one
    that is set, so nothing parsed is hidden."""

    kind: str
    photo_id: str | None = None
    album_id: str | None = None
    gallery_id: str | None = None
    group: str | None = None
    group_id: str | None = None
    topic_id: str | None = None
    user: str | None = None
    nsid: str | None = None
    path_alias: str | None = None
    tag: str | None = None
    context: str | None = None  # where a photo page was reached from: "album-721...", "pool-..."
    size: str | None = None
    secret: str | None = None
    server: str | None = None
    farm: str | None = None
    format: str | None = None
    originalsecret: str | None = None
    originalformat: str | None = None
    fields: dict[str, str] = field(default_factory=dict, compare=False)

    def __repr__(self) -> str:
        shown = {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "fields"}
        # A field of a newer library without an attribute here is shown too.
        shown.update((name, value) for name, value in self.fields.items() if name not in shown)
        return f"FlickrURL({', '.join(f'{name}={value!r}' for name, value in shown.items() if value is not None)})"


# scheme://host[:port] and the rest: an authority with credentials or a backslash is not matched.
_ORIGIN = re.compile(r"(https?)://([A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::([0-9]{1,5}))?(?=[/?#]|\Z)(.*)\Z",
                     re.IGNORECASE | re.DOTALL)


def _origin(url: str) -> tuple[tuple[str, str, int], str] | None:
    """((scheme, host, port), the rest) of an http(s) URL, case and default port folded; None if
    it is no plain scheme://host[:port] URL."""
    found = _ORIGIN.match(url.strip())
    if found is None:
        return None
    scheme, host, port, rest = found.groups()
    scheme = scheme.lower()
    number = int(port) if port else (443 if scheme == "https" else 80)
    return (scheme, host.lower().rstrip("."), number), rest


def parse(url: str, base_url: str | None = None) -> FlickrURL:
    """The ids in a Flickr URL: short links (flic.kr/p/..., /s/...), photo pages (with /in/...),
    static image URLs of every size and host, albums and sets, galleries, favorites, groups and
    their discussions, people, tags. Raises ``flickr.InvalidArgument`` for anything else.

    `base_url`: a Flickr-compatible server's (the client's ``base_url`` option, a sandbox's):
    its pages, on exactly its scheme, host and port, read as www.flickr.com's, since it hands out
    page URLs on itself."""
    if base_url:
        given, base = _origin(url), _origin(base_url)
        if given is not None and base is not None and given[0] == base[0]:
            url = "https://www.flickr.com" + given[1]
    fields = _response.call(_ffi.lib().flickr_url_parse, _ffi.encode(url, "url"))
    known = {name: fields.get(name) for name in FlickrURL.__dataclass_fields__ if name not in ("kind", "fields")}
    return FlickrURL(kind=fields["kind"], fields=fields, **known)
