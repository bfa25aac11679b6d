# SPDX-License-Identifier: MIT
"""flickr.auth.*: OAuth token checks and the legacy frob flow (for migration)."""

from __future__ import annotations

import secrets
import sqlite3
import time

from .. import constants as C
from ..auth import issue_token
from ..limits import REQUEST_TOKENS
from ..envelope import Node
from ..errors import ApiError
from ..store import Store
from .registry import Call, method


def _auth_user_node(store: Store, nsid: str) -> Node:
    user = store.owner(nsid)
    return Node("user", {"nsid": user["nsid"], "username": user["username"],
                         "fullname": user["realname"]})


@method("flickr.auth.oauth.checkToken")
def check_token(call: Call) -> list[Node]:
    token = call.arg("oauth_token")
    row = call.store.one("SELECT * FROM tokens WHERE token=? AND kind='access'", (token,))
    if row is None:
        raise ApiError(98, "Invalid auth token")
    node = Node("oauth")
    node.add("token", text=row["token"])
    node.add("perms", text=C.PERM_NAMES[row["perms"]])
    node.children.append(_auth_user_node(call.store, row["nsid"]))
    return [node]


@method("flickr.auth.oauth.getAccessToken", perms=1)
def get_access_token(call: Call) -> list[Node]:
    """Exchange a legacy auth_token for an OAuth token; the old token dies."""
    if call.caller.scheme != "legacy":
        raise ApiError(98, "Invalid auth token")
    with call.store.transaction():
        call.store.run("DELETE FROM tokens WHERE token=? AND kind='legacy'", (call.caller.token,))
        token, secret = issue_token(call.store, "access", call.caller.nsid, call.caller.perms)
    node = Node("auth")
    node.add("access_token", {"oauth_token": token, "oauth_token_secret": secret})
    return [node]


@method("flickr.auth.getFrob", signed=True)
def get_frob(call: Call) -> list[Node]:
    frob = f"72157{secrets.randbelow(10 ** 12):012d}-{secrets.token_hex(8)}-{secrets.randbelow(10 ** 6)}"
    with call.store.transaction():  # the oldest frobs go past the bound (limits.py)
        call.store.run("DELETE FROM frobs WHERE created < ?", (time.time() - C.REQUEST_TOKEN_TTL,))
        call.store.trim("frobs", "1", (), REQUEST_TOKENS - 1, "created")
        call.store.run("INSERT INTO frobs(frob, created) VALUES (?, ?)", (frob, time.time()))
    return [Node("frob", text=frob)]


def _legacy_auth(call: Call, token_row: sqlite3.Row) -> list[Node]:
    node = Node("auth")
    node.add("token", text=token_row["token"])
    node.add("perms", text=C.PERM_NAMES[token_row["perms"]])
    node.children.append(_auth_user_node(call.store, token_row["nsid"]))
    return [node]


@method("flickr.auth.getToken", signed=True)
def get_token(call: Call) -> list[Node]:
    """Turn an approved frob into a legacy auth_token (single use)."""
    with call.store.transaction():
        frob = call.store.one("SELECT * FROM frobs WHERE frob=?", (call.arg("frob"),))
        if frob is None or frob["nsid"] is None or frob["created"] + C.REQUEST_TOKEN_TTL < time.time():
            raise ApiError(108, "Invalid frob")
        call.store.run("DELETE FROM frobs WHERE frob=?", (frob["frob"],))
        token, _ = issue_token(call.store, "legacy", frob["nsid"], frob["perms"])
        row = call.store.row("SELECT * FROM tokens WHERE token=?", (token,))
    return _legacy_auth(call, row)


@method("flickr.auth.checkToken", signed=True)
def check_legacy_token(call: Call) -> list[Node]:
    row = call.store.one("SELECT * FROM tokens WHERE token=? AND kind='legacy'", (call.arg("auth_token"),))
    if row is None:
        raise ApiError(98, "Invalid auth token")
    return _legacy_auth(call, row)
