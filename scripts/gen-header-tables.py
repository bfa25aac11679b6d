#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the copies of the header's numbers from the header, the one place they are written.

The status codes (enum flickr_status, include/flickr/common.h) and the options (enum
flickr_option, include/flickr/context.h) are needed by the Swift core, the Python binding and
docs/conventions.md. As curl generates lib/easyoptions.c from its header, this script writes:

- Sources/FlickrCore/HeaderTables.swift: `ContextOption` and `FlickrError.Code`, with their C
  names and each code's flickr_strerror() text;
- bindings/python/flickr/_header.py: the status codes and the option keywords;
- the status table of docs/conventions.md, between its two "gen-header-tables" markers.

    scripts/gen-header-tables.py           write what is out of date
    scripts/gen-header-tables.py --check   write nothing; exit 1 with a diff if any is out of date

ctest `header_tables_are_current` and the CMake build run --check, so a header edited without
running this script fails the build and CI. Standard library only.
"""
from __future__ import annotations

import argparse
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import generated_files  # scripts/generated_files.py, beside this script

ROOT = Path(__file__).resolve().parents[1]
COMMON_H = "include/flickr/common.h"
CONTEXT_H = "include/flickr/context.h"
SWIFT_OUT = "Sources/FlickrCore/HeaderTables.swift"
PYTHON_OUT = "bindings/python/flickr/_header.py"
CONVENTIONS = "docs/conventions.md"
TABLE_BEGIN = f"<!-- gen-header-tables: begin (generated from {COMMON_H}; do not edit) -->"
TABLE_END = "<!-- gen-header-tables: end -->"

#: Swift names that are not the C name's words: the C names abbreviate them.
SWIFT_STATUS_NAMES = {"EINVAL": "invalidArgument", "ENOMEM": "noMemory", "ETOOBIG": "tooBig",
                      "ENOTFOUND": "notFound"}
#: Words kept in capitals inside a Swift name (Swift's API guidelines: baseURL).
ACRONYMS = {"URL"}
#: The header numbers string options from 1 and numeric ones from 100.
FIRST_NUMBER_OPTION = 100


class HeaderError(Exception):
    """The header is not in the form this script reads; the message says where."""


@dataclass(frozen=True)
class Enumerator:
    name: str  # the C name, FLICKR_...
    value: int
    doc: str  # its doc comment as one line


# One token of an enum body: a doc comment (before its enumerator, or `/**<` after it), an
# enumerator with a decimal value, or anything else (which is refused).
_TOKEN = re.compile(r"\s*(?:/\*\*(?P<after><)?(?P<doc>.*?)\*/|(?P<name>\w+)\s*=\s*(?P<value>-?\d+)\s*,?"
                    r"|(?P<other>\S[^\n]*))", re.S)


def _one_line(comment: str) -> str:
    """A doc comment's text with its line breaks and leading asterisks gone."""
    return " ".join(line.strip().lstrip("*").strip() for line in comment.strip().splitlines()).strip()


def read_enum(header: str, enum: str, prefix: str) -> list[Enumerator]:
    """The enumerators of `typedef enum ENUM {...} ENUM;` in HEADER, each with its doc comment.
    Anything but `NAME = number` with a doc comment is refused, so nothing is silently skipped."""
    text = (ROOT / header).read_text(encoding="utf-8")
    found = re.search(rf"typedef enum {enum} \{{(.*?)\}} {enum};", text, re.S)
    if found is None:
        raise HeaderError(f"{header}: no `typedef enum {enum} {{...}} {enum};`")
    items: list[Enumerator] = []
    pending: str | None = None
    for token in _TOKEN.finditer(found.group(1)):
        if token.group("other"):
            raise HeaderError(f"{header}: enum {enum}: cannot read {token.group('other').strip()!r} "
                              "(each enumerator is `NAME = decimal number`, with a /** doc comment */)")
        if token.group("doc") is not None:
            doc = _one_line(token.group("doc"))
            if token.group("after"):
                if not items or items[-1].doc:
                    raise HeaderError(f"{header}: enum {enum}: a /**< comment follows no enumerator")
                last = items.pop()
                items.append(Enumerator(last.name, last.value, doc))
            else:
                pending = doc
        elif token.group("name"):
            name = token.group("name")
            if not name.startswith(prefix):
                raise HeaderError(f"{header}: enum {enum}: {name} does not start with {prefix}")
            items.append(Enumerator(name, int(token.group("value")), pending or ""))
            pending = None
    for what, seen in (("name", [item.name for item in items]), ("value", [str(item.value) for item in items])):
        twice = sorted({x for x in seen if seen.count(x) > 1})
        if twice:
            raise HeaderError(f"{header}: enum {enum}: {what} used twice: {', '.join(twice)}")
    undocumented = [item.name for item in items if not item.doc]
    if not items or undocumented:
        raise HeaderError(f"{header}: enum {enum}: no enumerators, or some without a doc comment: {undocumented}")
    return items


@dataclass(frozen=True)
class Status:
    name: str  # FLICKR_EINVAL
    value: int
    text: str  # what flickr_strerror() returns: "invalid argument"
    meaning: str  # the rest of the comment

    @property
    def short(self) -> str:
        """The name without FLICKR_: Python's constant (errors.EINVAL)."""
        return self.name.removeprefix("FLICKR_")

    @property
    def swift(self) -> str:
        short = self.short
        default = short.lower() if short in ("OK", "ERROR") else short[1:].lower()
        return SWIFT_STATUS_NAMES.get(short, default)


@dataclass(frozen=True)
class Option:
    name: str  # FLICKR_OPT_BASE_URL
    value: int
    doc: str

    @property
    def keyword(self) -> str:
        """Python's keyword: base_url."""
        return self.name.removeprefix("FLICKR_OPT_").lower()

    @property
    def swift(self) -> str:
        """baseURL."""
        first, *rest = self.name.removeprefix("FLICKR_OPT_").split("_")
        return first.lower() + "".join(word if word in ACRONYMS else word.capitalize() for word in rest)

    @property
    def is_string(self) -> bool:
        return self.value < FIRST_NUMBER_OPTION


def read_statuses() -> list[Status]:
    statuses = []
    for item in read_enum(COMMON_H, "flickr_status", "FLICKR_"):
        found = re.fullmatch(r'"([^"\\]+)":\s*(\S.*)', item.doc)
        if found is None:
            raise HeaderError(f'{COMMON_H}: {item.name}: the comment must start with its flickr_strerror() '
                              f'text in quotes and a colon, as in /** "invalid argument": An argument... */')
        statuses.append(Status(item.name, item.value, found.group(1), found.group(2)))
    return statuses


def read_options() -> list[Option]:
    options = [Option(item.name, item.value, item.doc) for item in read_enum(CONTEXT_H, "flickr_option", "FLICKR_OPT_")]
    for option in options:
        if option.value < 1:
            raise HeaderError(f"{CONTEXT_H}: {option.name}: options are numbered from 1")
    return options


# -- what each file holds --------------------------------------------------------------------------


def _marker(comment: str) -> list[str]:
    return [f"{comment} Generated by scripts/gen-header-tables.py from {COMMON_H} and {CONTEXT_H}.",
            f"{comment} Do not edit: edit the header, then run the script (ctest header_tables_are_current)."]


def _swift_doc(text: str, indent: str) -> list[str]:
    return [f"{indent}/// {line}" for line in textwrap.wrap(text, 100 - len(indent) - 4, break_on_hyphens=False)]


def _swift_string(text: str) -> str:
    if any(c in text for c in '"\\') or not text.isprintable():
        raise HeaderError(f"cannot write {text!r} as a Swift literal: no quotes or backslashes, please")
    return f'"{text}"'


def swift(statuses: list[Status], options: list[Option]) -> str:
    lines = ["// SPDX-License-Identifier: MIT", *_marker("//"), "",
             "/// The options of `flickr_option`; raw values are the C values. Their kinds, slots and",
             "/// ranges are in ContextOption.swift.",
             "package enum ContextOption: Int32, Sendable, CaseIterable {"]
    for option in options:
        lines += [*_swift_doc(option.doc, "    "), f"    case {option.swift} = {option.value}"]
    lines += ["", "    /// The C enumerator's name, used in error messages.", "    package var name: String {",
              "        switch self {"]
    lines += [f"        case .{option.swift}: {_swift_string(option.name)}" for option in options]
    lines += ["        }", "    }", "}", "",
              "extension FlickrError {",
              "    /// The status codes of `flickr_status`; raw values are the C values.",
              "    package enum Code: Int32, Sendable, CaseIterable {"]
    for status in statuses:
        lines += [*_swift_doc(status.meaning, "        "), f"        case {status.swift} = {status.value}"]
    for prop, doc, texts in (("symbol", "The C enumerator's name, for messages and bindings.",
                              [status.name for status in statuses]),
                             ("summary", "A static one-line description (what `flickr_strerror` returns).",
                              [status.text for status in statuses])):
        lines += ["", f"        /// {doc}", f"        package var {prop}: StaticString {{", "            switch self {"]
        lines += [f"            case .{status.swift}: {_swift_string(text)}" for status, text in zip(statuses, texts)]
        lines += ["            }", "        }"]
    lines += ["    }", "}"]
    return "\n".join(lines) + "\n"


def python(statuses: list[Status], options: list[Option]) -> str:
    def mapping(name: str, doc: str, rows: list[Option]) -> list[str]:
        return [f"#: {doc}", f"{name}: Final[dict[str, int]] = {{",
                *(f'    "{option.keyword}": {option.value},' for option in rows), "}"]

    lines = ["# SPDX-License-Identifier: MIT", *_marker("#"),
             '"""The numbers of libflickr\'s header: status codes (errors.py re-exports them) and option',
             'keywords (client.py\'s)."""', "from __future__ import annotations", "", "from typing import Final", "",
             "# enum flickr_status: the C names without FLICKR_."]
    lines += [f"{status.short}: Final = {status.value}" for status in statuses]
    lines += ["", *mapping("STRING_OPTIONS", "String options: the C name without FLICKR_OPT_, in lower case -> value.",
                           [option for option in options if option.is_string]),
              *mapping("NUMBER_OPTIONS", "Numeric options, named likewise.",
                       [option for option in options if not option.is_string])]
    return "\n".join(lines) + "\n"


def conventions(statuses: list[Status], current: str) -> str:
    """docs/conventions.md with the status table between the markers rewritten."""
    begin, end = current.find(TABLE_BEGIN), current.find(TABLE_END)
    if begin < 0 or end < begin:
        raise HeaderError(f"{CONVENTIONS}: no {TABLE_BEGIN!r} ... {TABLE_END!r} markers, in that order")

    def code(text: str) -> str:
        return re.sub(r"\b(FLICKR_\w+|http_status|api_code|stat=\"fail\")", r"`\1`", text)

    rows = ["| Code | Value | `flickr_strerror` | Meaning |", "|---|---|---|---|"]
    rows += [f"| `{s.name}` | {s.value} | {s.text} | {code(s.meaning)} |" for s in statuses]
    return current[:begin] + "\n".join([TABLE_BEGIN, *rows, ""]) + current[end:]


def expected() -> dict[str, str]:
    """Each generated file's path -> the text it should hold."""
    statuses, options = read_statuses(), read_options()
    return {SWIFT_OUT: swift(statuses, options), PYTHON_OUT: python(statuses, options),
            CONVENTIONS: conventions(statuses, (ROOT / CONVENTIONS).read_text(encoding="utf-8"))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 with a diff if a file is stale")
    check = parser.parse_args().check
    try:
        files = expected()
    except (HeaderError, OSError) as error:
        print(f"gen-header-tables: {error}", file=sys.stderr)
        return 2
    return generated_files.sync(files, ROOT, check, "gen-header-tables", "the header")


if __name__ == "__main__":
    sys.exit(main())
