# SPDX-License-Identifier: MIT
"""flickr.reflection.getMethods and getMethodInfo, answered from the catalogue Flickr's own
reflection produced (so scripts/catalogue.py --live can be tried against the sandbox)."""

from __future__ import annotations

from ..catalogue import METHODS as CATALOGUE
from ..envelope import Node
from ..errors import ApiError
from .registry import Call, method

_PERMISSIONS = ("none", "read", "write", "delete")


@method("flickr.reflection.getMethods")
def get_methods(call: Call) -> list[Node]:
    methods = Node("methods", list_of="method")
    for name, *_ in CATALOGUE:
        methods.add("method", text=name)
    return [methods]


@method("flickr.reflection.getMethodInfo")
def get_method_info(call: Call) -> list[Node]:
    name = call.arg("method_name")
    row = next((row for row in CATALOGUE if row[0] == name), None)
    if row is None:
        raise ApiError(1, "Method not found")
    _, _, perms, required, optional = row
    level = _PERMISSIONS.index(perms)
    described = Node("method", {"name": name, "needslogin": int(level > 0),
                                "needssigning": int(level > 0), "requiredperms": level})
    described.add("description", text=f"Flickr's {name}.")
    arguments = Node("arguments", list_of="argument")
    arguments.add("argument", {"name": "api_key", "optional": 0}, text="Your API application key.")
    for argument in required:
        arguments.add("argument", {"name": argument, "optional": 0}, text="")
    for argument in optional:
        arguments.add("argument", {"name": argument, "optional": 1}, text="")
    return [described, arguments, Node("errors", list_of="error")]
