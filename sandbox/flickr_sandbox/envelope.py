# SPDX-License-Identifier: MIT
"""Response envelopes in Flickr's exact layout (XML ``rest`` and JSON).

A response payload is a list of :class:`Node` trees.  XML output reproduces the
recorded responses byte for byte in layout: ``<?xml ... ?>`` header with the
space before ``?>``, payload at column 0, deeper levels tab-indented,
self-closing empty elements written ``<name a="b" />``.

JSON follows Flickr's own rendering (attributes become members, text becomes
``_content``, list containers stay arrays), with Flickr's types. Flickr's JSON
is typed field by field (``"farm":66`` but ``"server":"65535"``), so a Node
keeps the Python type it was given and the method chooses it:

- ``str`` is a JSON string; ``int`` a JSON number; ``Decimal`` a JSON number
  that keeps its digits in XML (``Decimal("23.340000")``: ``latitude="23.340000"``
  in XML, ``"latitude":23.34`` in JSON); ``bool`` is written as 0/1 (Flickr has
  no JSON booleans). In XML every value is its text.
- ``text`` follows the same rule (``"_content":"3"`` or ``"_content":3``).
- ``list_of="note"`` names the children of a list container, so that it is an
  array in JSON even when it has none: ``Node("notes", list_of="note")`` is
  ``<notes />`` in XML and ``"notes":{"note":[]}`` in JSON. Without it a
  container is an array when its name is the child's plus "s" (photos/photo,
  sizes/size) and it has children; an element with neither attributes, children
  nor ``list_of`` is ``{"_content":""}``, as Flickr writes ``<description />``.

Example: ``photos = Node("photos", {"page": 1, "total": 0}, list_of="photo")``,
``photos.add("photo", {"id": "52", "farm": 66})``.
The JSON types each method uses, and the recordings they come from, are listed
in docs/sandbox.md ("JSON types"); sandbox/tests/test_shapes.py holds them.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any, Mapping, Union

XML_HEADER = '<?xml version="1.0" encoding="utf-8" ?>\n'
XML_CONTENT_TYPE = "text/xml; charset=utf-8"
JSON_CONTENT_TYPE = "application/json; charset=utf-8"

# Characters XML 1.0 forbids even when escaped; dropped so output stays well formed.
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# Flickr escapes like PHP's htmlspecialchars(ENT_QUOTES): note &#039; (fixture people.getInfo).
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#039;"})


def escape(value: object) -> str:
    """Escape text or an attribute value for XML output."""
    return _INVALID_XML.sub("", str(value)).translate(_ESCAPES)


# What an attribute or a text may hold: its JSON type is its Python type (see above).
Value = Union[str, int, Decimal]


def _value(value: object) -> Value:
    """A value as the envelope keeps it: bool as 0/1, float as Decimal, None as "", others as text."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (str, int, Decimal)):
        return value
    if isinstance(value, float):
        return Decimal(repr(value))
    return "" if value is None else str(value)


class Node:
    """One XML element: ordered typed attributes, optional text, child elements."""

    __slots__ = ("name", "attrs", "text", "children", "list_of")

    def __init__(self, name: str, attrs: Mapping[str, object] | None = None, text: object = None,
                 children: list[Node] | None = None, list_of: str | None = None):
        self.name = name
        self.attrs: dict[str, Value] = {k: _value(v) for k, v in (attrs or {}).items()}
        self.text: Value | None = None if text is None else _value(text)
        self.children = children if children is not None else []
        self.list_of = list_of

    def add(self, name: str, attrs: Mapping[str, object] | None = None, text: object = None,
            list_of: str | None = None) -> Node:
        """Append and return a new child element."""
        child = Node(name, attrs, text, list_of=list_of)
        self.children.append(child)
        return child


def _write_xml(node: Node, depth: int, out: list[str]) -> None:
    indent = "\t" * depth
    attrs = "".join(f' {k}="{escape(v)}"' for k, v in node.attrs.items())
    text = "" if node.text is None else str(node.text)
    if not node.children:
        if text:
            out.append(f"{indent}<{node.name}{attrs}>{escape(text)}</{node.name}>\n")
        else:
            out.append(f"{indent}<{node.name}{attrs} />\n")
        return
    out.append(f"{indent}<{node.name}{attrs}>{escape(text)}\n")
    for child in node.children:
        _write_xml(child, depth + 1, out)
    out.append(f"{indent}</{node.name}>\n")


def xml_ok(payload: list[Node]) -> bytes:
    out = [XML_HEADER, '<rsp stat="ok">\n']
    for node in payload:
        _write_xml(node, 0, out)
    out.append("</rsp>\n")
    return "".join(out).encode("utf-8")


def xml_fail(code: int, message: str) -> bytes:
    return (f'{XML_HEADER}<rsp stat="fail">\n\t<err code="{code}" msg="{escape(message)}" />\n'
            "</rsp>\n").encode("utf-8")


def _is_list_container(parent: str, child: str) -> bool:
    # photos/photo, photosets/photoset, tags/tag, sizes/size: arrays even with one item.
    return len(parent) > len(child) and parent.startswith(child) and parent.endswith("s")


def _json_value(value: Value) -> Any:
    return float(value) if isinstance(value, Decimal) else value


def _to_json(node: Node) -> dict[str, Any]:
    obj: dict[str, Any] = {k: _json_value(v) for k, v in node.attrs.items()}
    groups: dict[str, list[dict[str, Any]]] = {}
    if node.list_of:
        groups[node.list_of] = []
    for child in node.children:
        groups.setdefault(child.name, []).append(_to_json(child))
    for name, items in groups.items():
        listed = name == node.list_of or _is_list_container(node.name, name)
        obj[name] = items if len(items) > 1 or listed else items[0]
    if node.text is not None or (not node.children and not node.attrs and not node.list_of):
        obj["_content"] = "" if node.text is None else _json_value(node.text)
    return obj


# Top-level elements Flickr renders as JSON arrays even when there is one: photos.getAllContexts'
# albums and pools (a recorded answer: `"set":[{...}],"pool":[{...}]`).
TOP_LEVEL_LISTS = frozenset({"set", "pool"})


def json_ok(payload: list[Node]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for node in payload:
        rendered = _to_json(node)
        if node.name in obj or node.name in TOP_LEVEL_LISTS:  # several of a name: an array
            held = obj.setdefault(node.name, [])
            obj[node.name] = (held if isinstance(held, list) else [held]) + [rendered]
        else:
            obj[node.name] = rendered
    obj["stat"] = "ok"
    return obj


def json_fail(code: int, message: str) -> dict[str, Any]:
    return {"stat": "fail", "code": code, "message": message}


def json_bytes(obj: dict[str, Any], callback: str | None) -> bytes:
    """Serialise; wrap in ``callback(...)`` unless nojsoncallback was asked for."""
    # As PHP's json_encode writes Flickr's: non-ASCII as \uXXXX, "/" as "\/" (no NaN in JSON).
    text = json.dumps(obj, ensure_ascii=True, separators=(",", ":"), allow_nan=False).replace("/", "\\/")
    if callback:
        text = f"{callback}({text})"
    return text.encode("utf-8")
