# SPDX-License-Identifier: MIT
"""Response envelopes in Flickr's exact layout (XML ``rest`` and JSON).

A response payload is a list of :class:`Node` trees.  XML output reproduces the
recorded responses byte for byte in layout: ``<?xml ... ?>`` header with the
space before ``?>``, payload at column 0, deeper levels tab-indented,
self-closing empty elements written ``<name a="b" />``.  JSON follows Flickr's
mapping (attributes become members, text becomes ``_content``, list containers
stay arrays).
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

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


class Node:
    """One XML element: ordered attributes, optional text, child elements."""

    __slots__ = ("name", "attrs", "text", "children")

    def __init__(self, name: str, attrs: Mapping[str, object] | None = None, text: object = None,
                 children: list[Node] | None = None):
        self.name = name
        self.attrs = {k: str(v) for k, v in (attrs or {}).items()}
        self.text = None if text is None else str(text)
        self.children = children if children is not None else []

    def add(self, name: str, attrs: Mapping[str, object] | None = None, text: object = None) -> Node:
        """Append and return a new child element."""
        child = Node(name, attrs, text)
        self.children.append(child)
        return child


def _write_xml(node: Node, depth: int, out: list[str]) -> None:
    indent = "\t" * depth
    attrs = "".join(f' {k}="{escape(v)}"' for k, v in node.attrs.items())
    if not node.children:
        if node.text:
            out.append(f"{indent}<{node.name}{attrs}>{escape(node.text)}</{node.name}>\n")
        else:
            out.append(f"{indent}<{node.name}{attrs} />\n")
        return
    out.append(f"{indent}<{node.name}{attrs}>{escape(node.text) if node.text else ''}\n")
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


def _to_json(node: Node) -> dict[str, Any]:
    obj: dict[str, Any] = dict(node.attrs)
    groups: dict[str, list[dict[str, Any]]] = {}
    for child in node.children:
        groups.setdefault(child.name, []).append(_to_json(child))
    for name, items in groups.items():
        obj[name] = items if len(items) > 1 or _is_list_container(node.name, name) else items[0]
    if node.text is not None or (not node.children and not node.attrs):
        obj["_content"] = node.text or ""
    return obj


def json_ok(payload: list[Node]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for node in payload:
        obj[node.name] = _to_json(node)
    obj["stat"] = "ok"
    return obj


def json_fail(code: int, message: str) -> dict[str, Any]:
    return {"stat": "fail", "code": code, "message": message}


def json_bytes(obj: dict[str, Any], callback: str | None) -> bytes:
    """Serialise; wrap in ``callback(...)`` unless nojsoncallback was asked for."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)  # JSON has no NaN
    if callback:
        text = f"{callback}({text})"
    return text.encode("utf-8")
