#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the copies of the header's numbers from the header, the one place they are written.

The status codes (enum flickr_status, include/flickr/common.h), the options (enum
flickr_option, include/flickr/context.h), the verbs (enum flickr_http_method,
include/flickr/client.h) and the permissions (enum flickr_permission, include/flickr/methods.h) are
needed by the Swift core, the Python binding and docs/conventions.md. As curl generates
lib/easyoptions.c from its header, this script writes:

- Sources/FlickrCore/HeaderTables.swift: `ContextOption` and `FlickrError.Code`, with their C
  names and each code's flickr_strerror() text, and `MethodCatalogue.Permission`;
- bindings/python/flickr/_header.py: the status codes, the option keywords, the verbs (`GET`,
  `POST`, `METHOD_VERB`) and the permissions' names (`PERMISSIONS`);
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
from header_enums import Enumerator, HeaderError, names_by_value, read_enum

ROOT = Path(__file__).resolve().parents[1]
COMMON_H = "include/flickr/common.h"
CONTEXT_H = "include/flickr/context.h"
CLIENT_H = "include/flickr/client.h"
METHODS_H = "include/flickr/methods.h"
HEADERS = (COMMON_H, CONTEXT_H, CLIENT_H, METHODS_H)
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
    low: int = 0  # a numeric option's range and default, from its comment; 0 for a string option
    high: int = 0
    default: int = 0
    url: str | None = None  # a string option's default URL, from its comment: Default "https://..."

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
    for item in read_enum(ROOT, COMMON_H, "flickr_status", "FLICKR_"):
        found = re.fullmatch(r'"([^"\\]+)":\s*(\S.*)', item.doc)
        if found is None:
            raise HeaderError(f'{COMMON_H}: {item.name}: the comment must start with its flickr_strerror() '
                              f'text in quotes and a colon, as in /** "invalid argument": An argument... */')
        statuses.append(Status(item.name, item.value, found.group(1), found.group(2)))
    return statuses


# A numeric option's range and default, written once in its comment: "0 to 10; default 3." (a
# bound may be a power of two, 2^40; a note in brackets may follow the default).
_RANGE = re.compile(r"(?<![\w^.])(\d+|2\^\d+) to (\d+|2\^\d+); default (\d+)(?: \([^()]*\))?\.")
INT64_MAX = 2**63 - 1
# A string option's default, when it is a fixed URL (the user agent's and the cache directory's are made
# at run time): Default "https://...".
_DEFAULT_URL = re.compile(r'\bDefault "(https://[^"\s\\]+)"')


def _number(text: str) -> int:
    base, _, power = text.partition("^")
    return 2 ** int(power) if power else int(base)


def read_options() -> list[Option]:
    options = []
    for item in read_enum(ROOT, CONTEXT_H, "flickr_option", "FLICKR_OPT_"):
        if item.value < 1:
            raise HeaderError(f"{CONTEXT_H}: {item.name}: options are numbered from 1")
        found = _RANGE.findall(item.doc)
        if item.value < FIRST_NUMBER_OPTION:
            urls = _DEFAULT_URL.findall(item.doc)
            if found or len(urls) > 1:
                raise HeaderError(f"{CONTEXT_H}: {item.name}: a string option has no numeric range, "
                                  "and one default at most")
            options.append(Option(item.name, item.value, item.doc, url=urls[0] if urls else None))
            continue
        if len(found) != 1:
            raise HeaderError(f'{CONTEXT_H}: {item.name}: a numeric option\'s comment says its range and default '
                              f'once, as "0 to 10; default 3." ({len(found)} found)')
        low, high, default = (_number(text) for text in found[0])
        if not 0 <= low <= default <= high <= INT64_MAX:
            raise HeaderError(f"{CONTEXT_H}: {item.name}: the default is not within the range, "
                              "or the range not within 0 to 2^63 - 1")
        options.append(Option(item.name, item.value, item.doc, low, high, default))
    return options


# -- what each file holds --------------------------------------------------------------------------


def _marker(comment: str) -> list[str]:
    return [f"{comment} Generated by scripts/gen-header-tables.py from include/flickr/: "
            f"{', '.join(Path(name).name for name in HEADERS[:-1])} and {Path(HEADERS[-1]).name}.",
            f"{comment} Do not edit: edit the header, then run the script (ctest header_tables_are_current)."]


def _swift_doc(text: str, indent: str) -> list[str]:
    return [f"{indent}/// {line}" for line in textwrap.wrap(text, 100 - len(indent) - 4, break_on_hyphens=False)]


def _swift_string(text: str) -> str:
    if any(c in text for c in '"\\') or not text.isprintable():
        raise HeaderError(f"cannot write {text!r} as a Swift literal: no quotes or backslashes, please")
    return f'"{text}"'


@dataclass(frozen=True)
class Header:
    """What the script reads from the header."""
    statuses: list[Status]
    options: list[Option]
    verbs: list[Enumerator]  # flickr_http_method's, FLICKR_GET...
    permissions: list[str]  # flickr_permission's names ("none"...) at the index of their value


def read_header() -> Header:
    return Header(read_statuses(), read_options(), read_enum(ROOT, CLIENT_H, "flickr_http_method", "FLICKR_"),
                  names_by_value(ROOT, METHODS_H, "flickr_permission", "FLICKR_PERM_"))


def swift(header: Header) -> str:
    statuses, options = header.statuses, header.options
    lines = ["// SPDX-License-Identifier: MIT", *_marker("//"), "",
             "/// The options of `flickr_option`; raw values are the C values. Their kinds and slots are in",
             "/// ContextOption.swift.",
             "package enum ContextOption: Int32, Sendable, CaseIterable {"]
    for option in options:
        lines += [*_swift_doc(option.doc, "    "), f"    case {option.swift} = {option.value}"]
    lines += ["", "    /// The C enumerator's name, used in error messages.", "    package var name: String {",
              "        switch self {"]
    lines += [f"        case .{option.swift}: {_swift_string(option.name)}" for option in options]
    numbers = [option for option in options if not option.is_string]
    lines += ["        }", "    }", "",
              "    /// The values a numeric option accepts (0...0 for a string option): 64-bit, so that byte bounds",
              "    /// up to 2^40 hold where Int (C's long) has 32 bits (the i686 and armv7 wheels).",
              "    package var range: ClosedRange<Int64> {", "        switch self {"]
    lines += [f"        case .{option.swift}: {option.low:_}...{option.high:_}" for option in numbers]
    lines += ["        default: 0...0", "        }", "    }", "",
              "    /// A numeric option's value until one is set (0 for a string option).",
              "    package var defaultNumber: Int64 {", "        switch self {"]
    lines += [f"        case .{option.swift}: {option.default:_}" for option in numbers if option.default]
    lines += ["        default: 0", "        }", "    }", "",
              "    /// A string option's default when it is a fixed URL; nil for the others.",
              "    package var defaultURL: String? {", "        switch self {"]
    lines += [f"        case .{option.swift}: {_swift_string(option.url)}" for option in options if option.url]
    lines += ["        default: nil", "        }", "    }", "}", "",
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
    lines += ["    }", "}", "",
              "extension MethodCatalogue {",
              "    /// The permissions of `flickr_permission`, each including the ones before it; raw values are",
              "    /// the C values (and flickr.reflection's requiredperms); `name` is Flickr's.",
              "    package enum Permission: Int32, Sendable {",
              "        case " + ", ".join(f"{name} = {value}" for value, name in enumerate(header.permissions)), "",
              "        package var name: String {", "            switch self {"]
    lines += [f'            case .{name}: "{name}"' for name in header.permissions]
    lines += ["            }", "        }", "    }", "}"]
    return "\n".join(lines) + "\n"


def python(header: Header) -> str:
    statuses, options = header.statuses, header.options

    def mapping(name: str, doc: str, rows: list[Option]) -> list[str]:
        return [f"#: {doc}", f"{name}: Final[dict[str, int]] = {{",
                *(f'    "{option.keyword}": {option.value},' for option in rows), "}"]

    lines = ["# SPDX-License-Identifier: MIT", *_marker("#"),
             '"""The numbers of libflickr\'s header: status codes (errors.py re-exports them), option',
             'keywords, verbs (client.py\'s) and permissions (api.py\'s)."""', "from __future__ import annotations", "", "from typing import Final", "",
             "# enum flickr_status: the C names without FLICKR_."]
    lines += [f"{status.short}: Final = {status.value}" for status in statuses]
    lines += ["", *mapping("STRING_OPTIONS", "String options: the C name without FLICKR_OPT_, in lower case -> value.",
                           [option for option in options if option.is_string]),
              *mapping("NUMBER_OPTIONS", "Numeric options, named likewise.",
                       [option for option in options if not option.is_string]),
              "#: The values each numeric option accepts, lowest and highest (both included).",
              "NUMBER_OPTION_RANGES: Final[dict[str, tuple[int, int]]] = {",
              *(f'    "{option.keyword}": ({option.low}, {option.high}),' for option in options if not option.is_string),
              "}", "#: Each numeric option's value until one is set.",
              "NUMBER_OPTION_DEFAULTS: Final[dict[str, int]] = {",
              *(f'    "{option.keyword}": {option.default},' for option in options if not option.is_string), "}",
              "#: The string options whose default is a fixed URL, and that URL.",
              "STRING_OPTION_DEFAULTS: Final[dict[str, str]] = {",
              *(f'    "{option.keyword}": "{option.url}",' for option in options if option.url), "}",
              "", "# enum flickr_http_method: the C names without FLICKR_."]
    lines += [f"{verb.name.removeprefix('FLICKR_')}: Final = {verb.value}" for verb in header.verbs]
    lines += ["", "#: enum flickr_permission: each permission's name (Flickr's) at the index of its value.",
              f"PERMISSIONS: Final = ({', '.join(f'{name!r}' for name in header.permissions)})".replace("'", '"')]
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
    header = read_header()
    return {SWIFT_OUT: swift(header), PYTHON_OUT: python(header),
            CONVENTIONS: conventions(header.statuses, (ROOT / CONVENTIONS).read_text(encoding="utf-8"))}


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
