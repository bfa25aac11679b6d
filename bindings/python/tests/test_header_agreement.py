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
