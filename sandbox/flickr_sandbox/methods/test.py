# SPDX-License-Identifier: MIT
"""flickr.test.echo, flickr.test.login, flickr.test.null."""

from __future__ import annotations

import re

from ..envelope import Node
from .registry import Call, method

# Parameter names that cannot be XML element names are not echoed.
_XML_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")


@method("flickr.test.echo")
def echo(call: Call) -> list[Node]:
    nodes = [Node(name, text=value) for name, value in call.pairs if _XML_NAME.match(name)]
    if call.caller.scheme == "oauth":
        # What Flickr adds under OAuth (fixtures/flickr.test.echo.xml).
        nodes.append(Node("api_auth_is_oauth", text="1"))
        nodes.append(Node("api_sig", text=call.caller.signature))
        if call.caller.token:
            nodes.append(Node("auth_token", text=call.caller.token))
    return nodes


@method("flickr.test.login", perms=1)
def login(call: Call) -> list[Node]:
    user = call.store.owner(call.caller.require_user())
    node = Node("user", {"id": user["nsid"], "path_alias": user["path_alias"] or ""})
    node.add("username", text=user["username"])
    return [node]


@method("flickr.test.null", perms=1)
def null(call: Call) -> list[Node]:
    return []
