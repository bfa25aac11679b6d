# SPDX-License-Identifier: MIT
"""What the social and organising methods share: the photo or user an argument names (as the
caller may see it), page links, and one page of a photo list drawn from a join.

Photo lists other than a photostream carry attributes of their own (``date_faved``,
``dateadded``, ``is_primary``): :func:`photo_page` places them where Flickr's answers do,
after the standard attributes and before the geo, media and URL extras.
"""

from __future__ import annotations

import sqlite3
from typing import Callable

from ..envelope import Node
from ..errors import ApiError
from .photolist import can_see, paginate, parse_extras, photo_element
from .registry import Call

# Extras Flickr writes after a list's own attributes (fixture flickr.favorites.getList.xml).
_TRAILING = ("latitude", "media", "url_", "pathalias")


def find_photo(call: Call, message: str = "Photo not found", code: int = 1,
               secret: bool = False) -> sqlite3.Row:
    """The photo ``photo_id`` names if the caller may see it (or, with ``secret``, passes its
    secret, which Flickr accepts instead of permission); else Flickr's error."""
    photo = call.store.photo(call.arg("photo_id"))
    if photo is None:
        raise ApiError(code, message)
    if not can_see(photo, call.caller.nsid) and not (secret and call.arg("secret") == photo["secret"]):
        raise ApiError(code, message)
    return photo


def find_user(call: Call, name: str = "user_id", default_caller: bool = True) -> sqlite3.Row:
    """The user an argument names (NSID, username or path alias; ``me`` the caller), the caller
    when it is absent (if ``default_caller``); error 1 "User not found" otherwise."""
    ident = call.arg(name)
    if ident == "me" or (not ident and default_caller):
        ident = call.caller.nsid or ""
    user = call.store.find_user(ident) if ident else None
    if user is None:
        raise ApiError(1, "User not found")
    return user


def person_path(user: sqlite3.Row) -> str:
    """The part of a member's URLs that names them: path alias, else NSID."""
    return str(user["path_alias"] or user["nsid"])


def visible(alias: str = "p") -> str:
    """SQL: the photo is public or the caller's own (one ``?``: the caller's NSID or "")."""
    return f"({alias}.ispublic = 1 OR {alias}.owner = ?)"


def place_attrs(node: Node, attrs: dict[str, object]) -> None:
    """Insert a list's own attributes before the trailing extras, as Flickr orders them."""
    keys = list(node.attrs)
    at = next((i for i, k in enumerate(keys) if k.startswith(_TRAILING)), len(keys))
    items = list(node.attrs.items())
    node.attrs = dict(items[:at] + [(k, str(v)) for k, v in attrs.items()] + items[at:])


def photo_page(call: Call, source: str, args: tuple[object, ...], order: str,
               own: Callable[[sqlite3.Row], dict[str, object]] | None = None, columns: str = "",
               default_per_page: int = 100) -> list[Node]:
    """``<photos page pages perpage total>``: one page of ``SELECT p.*{columns} {source}``.

    ``source`` is the FROM and WHERE part (the photo table as ``p``); ``own`` gives a row's
    list-specific attributes, from the extra ``columns`` (", f.favedate AS x_faved") if need be.
    """
    page, per_page = call.page_args(default_per_page)
    total = call.store.row(f"SELECT COUNT(*) AS n {source}", args)["n"]
    rows = call.store.all(f"SELECT p.*{columns} {source} ORDER BY {order} LIMIT ? OFFSET ?",
                          args + (per_page, (page - 1) * per_page))
    extras = parse_extras(call.arg("extras"))
    photos = Node("photos", paginate(total, page, per_page))
    for row in rows:
        node = photo_element(call.store, call.base_url, row, extras, viewer=call.caller.nsid)
        if own is not None:
            place_attrs(node, own(row))
        photos.children.append(node)
    return [photos]
