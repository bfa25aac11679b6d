# SPDX-License-Identifier: MIT
"""The binding's numbers are the header's: status codes and option values are copied into
Python by hand, so every one is compared with include/flickr/*.h here (issue 21: only Swift's
copy was checked). A new code or option in the header without its Python twin fails too."""

from __future__ import annotations

import pathlib
import re

from flickr import client, errors

INCLUDE = pathlib.Path(__file__).resolve().parents[3] / "include" / "flickr"


def _enumerators(header: str, prefix: str) -> dict[str, int]:
    """NAME -> value for every `PREFIX_NAME = value` enumerator in the header (comments dropped)."""
    text = re.sub(r"/\*.*?\*/", "", (INCLUDE / header).read_text(), flags=re.S)
    return {name: int(value) for name, value in re.findall(rf"\b{prefix}_(\w+)\s*=\s*(-?\d+)", text)}


def test_status_codes_match_common_h():
    header = _enumerators("common.h", "FLICKR")
    assert header, "no FLICKR_* status codes found in common.h"
    python = {name: value for name, value in vars(errors).items() if re.fullmatch(r"E[A-Z]+|OK|ERROR", name)}
    assert python == header
    # Every error code has its exception class.
    assert set(errors._CLASSES) == {value for name, value in header.items() if name.startswith("E") and name != "ERROR"}


def test_options_match_context_h():
    header = {name.lower(): value for name, value in _enumerators("context.h", "FLICKR_OPT").items()}
    assert header, "no FLICKR_OPT_* options found in context.h"
    assert client.STRING_OPTIONS == {name: value for name, value in header.items() if value < 100}
    assert client.NUMBER_OPTIONS == {name: value for name, value in header.items() if value >= 100}


def test_verbs_match_client_h():
    header = _enumerators("client.h", "FLICKR")
    assert (client.GET, client.POST) == (header["GET"], header["POST"])


# -- docs/conventions.md describes the same header ------------------------------------------------

CONVENTIONS = INCLUDE.parents[1] / "docs" / "conventions.md"


def _section(title: str) -> str:
    """The text of one `## title` section of docs/conventions.md."""
    text = CONVENTIONS.read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    assert found, f"docs/conventions.md has no section {title!r}"
    return found.group(1)


def test_conventions_status_table_lists_every_code():
    """The table of codes is a copy of common.h's enum (it once stopped at -14 when -15 came)."""
    header = {f"FLICKR_{name}": value for name, value in _enumerators("common.h", "FLICKR").items()}
    rows = re.findall(r"^\| `(FLICKR_\w+)` \| (-?\d+) \|", _section("Status codes and errors"), flags=re.M)
    table = {name: int(value) for name, value in rows}
    print(f"{len(header)} codes in common.h, {len(table)} rows in docs/conventions.md")
    assert len(rows) == len(table), "a code listed twice"
    assert table == header


def test_conventions_name_every_header():
    headers = sorted(path.name for path in INCLUDE.glob("*.h"))
    section = _section("Names and headers")
    missing = [name for name in headers if f"`{name}`" not in section and f"`flickr/{name}`" not in section]
    print(f"{len(headers)} headers in include/flickr")
    assert not missing, f"docs/conventions.md does not list {missing}"


def test_conventions_name_every_exposed_struct():
    """A struct whose fields the header shows is part of the ABI: the ABI section says how each may
    change (it once called flickr_error the only one when flickr_method_info came)."""
    text = "\n".join(path.read_text() for path in sorted(INCLUDE.glob("*.h")))
    exposed = sorted(set(re.findall(r"\btypedef struct (\w+)\s*\{", text)))
    assert exposed, "no struct with fields found in the headers"
    section = _section("What may change between releases (ABI)")
    print(f"structs with a layout: {exposed}")
    assert [name for name in exposed if f"`{name}`" not in section] == []
