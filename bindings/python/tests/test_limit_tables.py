# SPDX-License-Identifier: MIT
"""scripts/gen-limits.py, which writes the copies of Flickr's limits (4,000 results a search, 500 a
page, 3,600 calls an hour) from data/flickr-limits.json (issue 41, "every Flickr fact once"): the
Swift core's, the binding's public `flickr.limits` and the sandbox's. Run on a copy of the files it
reads and writes, so the tree is never touched: a copy edited by hand, or the data changed without
running the script, makes --check fail with a diff naming the file, and the script then writes it
back; data it cannot read whole is refused. The programs take the numbers from `flickr.limits`.
(ctest limit_tables_are_current and the CMake build run --check on the tree itself.)"""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from generated_copies import Generator

import flickr
from flickr import limits
from flickr_apps.backup import calls, options
from flickr_apps.cli import common
from flickr_sandbox.methods import criteria, limit_table, registry
from libtest import REPO
from test_header_tables import edit

SWIFT = "Sources/FlickrCore/Calls/FlickrLimits.swift"
BINDING = "bindings/python/flickr/limits.py"
SANDBOX = "sandbox/flickr_sandbox/methods/limit_table.py"
GENERATOR = Generator("scripts/gen-limits.py", "data/flickr-limits.json", [SWIFT, BINDING, SANDBOX])
DATA = GENERATOR.data


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return GENERATOR.tree(tmp_path)


def test_the_tree_s_copies_are_current_and_the_data_says_where_each_fact_is_from():
    GENERATOR.assert_tree_current()
    for row in json.loads((REPO / DATA).read_text())["limits"]:
        assert "https://www.flickr.com/services/" in row["source"], row


@pytest.mark.parametrize(("copy", "old", "new"), [
    (SWIFT, "static let searchResultCap = 4_000", "static let searchResultCap = 5_000"),
    (BINDING, "MAX_PER_PAGE: Final[int] = 500", "MAX_PER_PAGE: Final[int] = 250"),
    (SANDBOX, "CALLS_PER_HOUR: Final[int] = 3600", "CALLS_PER_HOUR: Final[int] = 3000"),
])
def test_a_copy_edited_by_hand_fails_the_check_then_is_written_back(tree, copy, old, new):
    GENERATOR.assert_edited_copy_caught(tree, copy, old, new)


def test_changed_data_fails_the_check_for_every_copy_until_written(tree):
    edit(tree, DATA, '"value": 500,', '"value": 400,')
    check = GENERATOR.run(tree, "--check")
    assert check.returncode == 1 and "3 files, 3 stale" in check.stderr, check.stderr
    assert "+    static let maxPerPage = 400" in check.stdout
    assert check.stdout.count("+MAX_PER_PAGE: Final[int] = 400") == 2, check.stdout  # binding, sandbox
    assert GENERATOR.run(tree).returncode == 0 and GENERATOR.run(tree, "--check").returncode == 0


@pytest.mark.parametrize(("old", "new", "message"), [
    ('"name": "max_per_page"', '"name": "search_result_cap"', "name used twice: ['search_result_cap']"),
    ('"name": "max_per_page"', '"name": "Max-Per-Page"', "lower-case words joined by _"),
    ('"value": 500,', '"value": "500",', "value is a whole number"),
    ('"value": 500,', '"value": true,', "value is a whole number"),
    ('"value": 500,', '"value": 4294967296,', "value is a whole number"),
    ('"value": 500,', '"value": 0,', "value is a whole number"),
    ('"doc": "Most items', '"doc": "\\"\\"\\" Most items', "one line of printable text"),
    ('"doc": "Most items', '"doc": "\\nMost items', "one line of printable text"),
    (', "source": "the per_page', ', "sauce": "the per_page', "has not exactly the fields"),
    ('"count": 3', '"count": 2', '"limits" is not a non-empty list'),
])
def test_data_it_cannot_read_whole_is_refused(tree, old, new, message):
    GENERATOR.assert_refused(tree, old, new, message)


def test_the_copies_say_what_the_data_says_and_the_programs_use_them():
    data = {row["name"]: row["value"] for row in json.loads((REPO / DATA).read_text())["limits"]}
    assert data == {"search_result_cap": 4000, "max_per_page": 500, "calls_per_hour": 3600}
    for module in (limits, limit_table):
        assert {name.lower(): getattr(module, name) for name in module.__all__} == data
    assert flickr.limits is limits and "limits" in flickr.__all__
    # What the programs and the sandbox use is the module's number, not one of their own.
    assert calls.PER_PAGE == limits.MAX_PER_PAGE and common.DEFAULT_BUDGET == limits.CALLS_PER_HOUR
    assert options.Options().budget == limits.CALLS_PER_HOUR
    assert criteria.SEARCH_CAP == limit_table.SEARCH_RESULT_CAP
    assert registry.Call.page_args.__defaults__ == (100, limit_table.MAX_PER_PAGE)


#: Where each of the numbers was once written by hand; none may come back as a literal. A file
#: that needs the number no more (None) is only held to that.
USERS = {
    "apps/flickr_apps/backup/calls.py": "MAX_PER_PAGE",
    "apps/flickr_apps/backup/options.py": "CALLS_PER_HOUR",
    "apps/flickr_apps/cli/common.py": "CALLS_PER_HOUR",
    "apps/flickr_apps/cli/checksums.py": None,  # lists through a harvest, which pages itself
    "apps/flickr_apps/cli/download.py": "MAX_PER_PAGE",
    "sandbox/flickr_sandbox/methods/criteria.py": "SEARCH_RESULT_CAP",
    "sandbox/flickr_sandbox/methods/registry.py": "MAX_PER_PAGE",
    "sandbox/flickr_sandbox/methods/photosets.py": "MAX_PER_PAGE",
}


def literals(source: str) -> list[int]:
    """The limits' numbers written as literals in SOURCE's code (comments and docstrings aside)."""
    numbers = {4000, 500, 3600}
    return [node.value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and type(node.value) is int and node.value in numbers]


def test_no_program_writes_a_limit_again():
    for path, name in USERS.items():
        source = (REPO / path).read_text()
        assert (name is None or name in source) and not literals(source), (path, literals(source))
    assert sorted(literals("x = min(n, 500)\ny = 3600\n# 4000\n")) == [500, 3600], "the finder sees literals"
    for path in ("Sources/FlickrCore/Calls/Pager.swift", "Sources/FlickrCore/Harvest/HarvestQuery.swift"):
        source = (REPO / path).read_text()
        assert "FlickrLimits." in source and "4_000" not in source and "= 500" not in source, path
