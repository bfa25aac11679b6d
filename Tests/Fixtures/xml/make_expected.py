#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent reference implementation of libflickr's XML -> value mapping.

Writes `name.json` beside every `name.xml` under this directory (or checks them
with --check); for a file that is not well-formed XML it writes `name.error.txt`,
the exact error message the mapper must give instead. It does not call the Swift code: expat (through Python's
xml.parsers.expat) only tokenises; a full element tree is built first and then
mapped recursively by the rules of docs/architecture.md, "Response mapping (contract)":

- the root is the root element's object;
- attributes are string entries, in document order;
- text is the entry `_text` (pieces concatenated, CDATA included), placed where
  the first text piece arrived; whitespace-only text of an element with child
  elements is dropped;
- a child element is an object under its name; a second one of the same name
  makes the entry an array at the first occurrence's position;
- plural rule: parent name longer than the child's, starting with it and
  ending in "s" -> the entry is an array even with one child;
- a child colliding with a string entry (attribute or text) takes the key and
  the string entry is renamed `@name` (more `@` while that is taken); text
  arriving where a child `_text` exists goes to `@_text`; an attribute `_text`
  gives way to the text the same way;
- DTDs are refused.

JSON: compact, keys in order, strings escaped per RFC 8259 (plus U+2028/U+2029),
other non-ASCII as raw UTF-8.

Usage: python3 make_expected.py [--check]
"""
import os
import sys
import xml.parsers.expat


class Obj:
    """An object: an ordered list of [key, value] pairs."""

    def __init__(self):
        self.pairs = []

    def index(self, key):
        for i, (k, _) in enumerate(self.pairs):
            if k == key:
                return i
        return None


class Element:
    def __init__(self, name, attrs):
        self.name = name
        self.attrs = attrs      # list of (name, value)
        self.content = []       # str pieces and Element children, in order


class Refused(Exception):
    pass


def parse(data):
    p = xml.parsers.expat.ParserCreate()
    p.ordered_attributes = True
    p.buffer_text = False
    p.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack = []
    root = []

    def start(name, attrs):
        el = Element(name, list(zip(attrs[0::2], attrs[1::2])))
        if stack:
            stack[-1].content.append(el)
        else:
            root.append(el)
        stack.append(el)

    def end(name):
        stack.pop()

    def chars(s):
        if stack:
            stack[-1].content.append(s)

    def doctype(*args):
        raise Refused("DTDs are not accepted")

    p.StartElementHandler = start
    p.EndElementHandler = end
    p.CharacterDataHandler = chars
    p.StartDoctypeDeclHandler = doctype
    p.Parse(data, True)
    return root[0]


def plural(parent, child):
    return len(parent) > len(child) and parent.startswith(child) and parent.endswith("s")


def renamed(obj, key):
    new = "@" + key
    while obj.index(new) is not None:
        new = "@" + new
    return new


def is_xml_whitespace(s):
    return all(c in " \t\r\n" for c in s)


def map_element(el):
    obj = Obj()
    for k, v in el.attrs:
        obj.pairs.append([k, v])
    pieces = []
    text_pos = None
    has_children = False
    for item in el.content:
        if isinstance(item, str):
            if text_pos is None:
                text_pos = len(obj.pairs)
            pieces.append(item)
            continue
        has_children = True
        value = map_element(item)
        i = obj.index(item.name)
        if i is not None and isinstance(obj.pairs[i][1], list):
            obj.pairs[i][1].append(value)
            continue
        if i is not None and isinstance(obj.pairs[i][1], Obj):
            obj.pairs[i][1] = [obj.pairs[i][1], value]
            continue
        if i is not None:  # a string entry: it gives way
            obj.pairs[i][0] = renamed(obj, item.name)
        obj.pairs.append([item.name, [value] if plural(el.name, item.name) else value])
    if text_pos is not None:
        text = "".join(pieces)
        if not (has_children and is_xml_whitespace(text)):
            key = "_text"
            i = obj.index("_text")
            if i is not None:
                if isinstance(obj.pairs[i][1], str):
                    obj.pairs[i][0] = renamed(obj, "_text")
                else:
                    key = renamed(obj, "_text")
            obj.pairs.insert(text_pos, [key, text])
    return obj


def json_string(s):
    out = ['"']
    for c in s:
        o = ord(c)
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif c == "\b":
            out.append("\\b")
        elif c == "\f":
            out.append("\\f")
        elif o < 0x20:
            out.append("\\u%04x" % o)
        elif o in (0x2028, 0x2029):
            out.append("\\u%04x" % o)
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def to_json(v):
    if isinstance(v, str):
        return json_string(v)
    if isinstance(v, list):
        return "[" + ",".join(to_json(x) for x in v) + "]"
    return "{" + ",".join(json_string(k) + ":" + to_json(x) for k, x in v.pairs) + "}"


def expected(path):
    """(file name suffix, bytes): the JSON, or for a document that is not
    well-formed (one doc example has two root elements) the mapper's error message."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        root = parse(data)
    except xml.parsers.expat.ExpatError as e:
        message = xml.parsers.expat.ErrorString(e.code)
        # libflickr reports 1-based columns; expat's are 0-based.
        text = "malformed XML at line %d, column %d: %s" % (e.lineno, e.offset + 1, message)
        return ".error.txt", text.encode("utf-8")
    return ".json", to_json(map_element(root)).encode("utf-8")


def main():
    check = "--check" in sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    bad = 0
    count = 0
    for dirpath, _, files in sorted(os.walk(here)):
        for name in sorted(files):
            if not name.endswith(".xml"):
                continue
            xml_path = os.path.join(dirpath, name)
            suffix, text = expected(xml_path)
            json_path = xml_path[:-4] + suffix
            count += 1
            if check:
                try:
                    with open(json_path, "rb") as f:
                        if f.read() != text:
                            print("differs:", os.path.relpath(json_path, here))
                            bad += 1
                except FileNotFoundError:
                    print("missing:", os.path.relpath(json_path, here))
                    bad += 1
            else:
                with open(json_path, "wb") as f:
                    f.write(text)
    print("%d fixtures%s" % (count, ", %d bad" % bad if check else " written"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
