# SPDX-License-Identifier: MIT
"""Reading an enum of libflickr's header with its doc comments, for the scripts that copy the
header's numbers (gen-header-tables.py, catalogue.py). Standard library only."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path


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


def read_enum(root: Path, header: str, enum: str, prefix: str) -> list[Enumerator]:
    """The enumerators of `typedef enum ENUM {...} ENUM;` in HEADER (below ROOT), each with its doc
    comment. Anything but `NAME = number` with a doc comment is refused, so nothing is silently skipped."""
    text = (root / header).read_text(encoding="utf-8")
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


def names_by_value(root: Path, header: str, enum: str, prefix: str) -> list[str]:
    """The enumerators of ENUM without PREFIX, in lower case, at the index of their value: an enum
    whose values are not 0, 1, 2... is refused (a list could not hold it)."""
    items = read_enum(root, header, enum, prefix)
    if sorted(item.value for item in items) != list(range(len(items))):
        raise HeaderError(f"{header}: enum {enum}: values are not 0 to {len(items) - 1}")
    return [item.name.removeprefix(prefix).lower() for item in sorted(items, key=lambda item: item.value)]
