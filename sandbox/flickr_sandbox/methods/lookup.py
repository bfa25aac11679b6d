# SPDX-License-Identifier: MIT
"""Finding members: flickr.people.findByUsername, flickr.people.findByEmail,
flickr.urls.getUserPhotos and flickr.people.getPublicPhotos."""

from __future__ import annotations

import sqlite3

from ..envelope import Node
from ..errors import ApiError
from .common import find_user, person_path
from .criteria import NEWEST_FIRST, photo_list
from .registry import Call, method

# Each seeded member's address, as people.getInfo's mbox_sha1sum hashes it.
EMAIL_DOMAIN = "sandbox.invalid"


def _user_node(user: sqlite3.Row) -> list[Node]:
    node = Node("user", {"id": str(user["nsid"]), "nsid": user["nsid"]})
    node.add("username", text=user["username"])
    return [node]


@method("flickr.people.findByUsername")
def find_by_username(call: Call) -> list[Node]:
    """A member by screen name, any case (Flickr's own lookup is case-blind)."""
    wanted = call.arg("username").casefold()
    user = next((u for u in call.store.all("SELECT * FROM users ORDER BY nsid")
                 if wanted and u["username"].casefold() == wanted), None)
    if user is None:
        raise ApiError(1, "User not found")
    return _user_node(user)


@method("flickr.people.findByEmail")
def find_by_email(call: Call) -> list[Node]:
    """A member by e-mail address: the sandbox's members are ``{username}@sandbox.invalid``."""
    local, at, domain = call.arg("find_email").partition("@")
    user = None
    if at and domain.casefold() == EMAIL_DOMAIN:
        user = next((u for u in call.store.all("SELECT * FROM users ORDER BY nsid")
                     if u["username"].casefold() == local.casefold()), None)
    if user is None:
        raise ApiError(1, "User not found")
    return _user_node(user)


@method("flickr.urls.getUserPhotos")
def get_user_photos(call: Call) -> list[Node]:
    """The photostream URL of ``user_id``, by default the caller's."""
    user = find_user(call)
    return [Node("user", {"nsid": user["nsid"], "url": f"{call.base_url}/photos/{person_path(user)}/"})]


@method("flickr.people.getPublicPhotos")
def get_public_photos(call: Call) -> list[Node]:
    """A member's public photos, newest first, whoever asks (the owner too); without a login,
    safe ones only, as people.getPhotos."""
    user = find_user(call, default_caller=False)
    where = ["p.owner = ?", "p.ispublic = 1"]
    args: list[object] = [user["nsid"]]
    safe_search = call.arg("safe_search") if call.caller.nsid else "1"
    if safe_search in ("1", "2"):
        where.append("MAX(p.safety_level, 1) <= ?")
        args.append(int(safe_search))
    return photo_list(call, where, args, NEWEST_FIRST)
