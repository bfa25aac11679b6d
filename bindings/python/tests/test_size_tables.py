# SPDX-License-Identifier: MIT
"""scripts/gen-sizes.py, which writes the copies of Flickr's size ladder from data/flickr-sizes.json
(issue 41, "every Flickr fact written once"): the Swift core's, the binding's and the sandbox's.
Run on a copy of the files it reads and writes, so the tree is never touched: a copy edited by
hand, or the data changed without running the script, makes --check fail with a diff naming the
file, and the script then writes it back; data it cannot read whole is refused. (ctest
size_tables_are_current and the CMake build run --check on the tree itself.)"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from generated_copies import Generator

from flickr_apps._media import size_table as binding_table
from flickr_apps._media import sizes
from flickr_sandbox.methods import photolist
from flickr_sandbox.methods import size_table as sandbox_table
from libtest import REPO
from test_header_tables import edit

SCRIPT = "scripts/gen-sizes.py"
DATA = "data/flickr-sizes.json"
SWIFT = "Sources/FlickrCore/Photos/SizeTable.swift"
BINDING = "apps/flickr_apps/_media/size_table.py"
SANDBOX = "sandbox/flickr_sandbox/methods/size_table.py"
COPIES = [SWIFT, BINDING, SANDBOX]
GENERATOR = Generator(SCRIPT, DATA, COPIES)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return GENERATOR.tree(tmp_path)


def run(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return GENERATOR.run(tree, *args)


def test_the_tree_s_copies_are_current():
    GENERATOR.assert_tree_current()


@pytest.mark.parametrize(("copy", "old", "new"), [
    (SWIFT, 'case "h": .own(extra: "url_h")', 'case "h": .shared'),
    (BINDING, 'Size("b", "l", "Large", 1024)', 'Size("b", "l", "Large", 1000)'),
    (SANDBOX, '("Large 1600", "h", "h", 1600, "h"),', '("Large 1600", "h", "h", 1600, "k"),'),
])
def test_a_copy_edited_by_hand_fails_the_check_then_is_written_back(tree, copy, old, new):
    GENERATOR.assert_edited_copy_caught(tree, copy, old, new)


def test_changed_data_fails_the_check_for_every_copy_until_written(tree):
    edit(tree, DATA, '"label": "Large 2048"', '"label": "Large 2049"')
    check = run(tree, "--check")
    assert check.returncode == 1 and "3 files, 2 stale" in check.stderr, check.stderr  # Swift has no labels
    assert '+          Size("h", "h", "Large 1600", 1600), Size("k", "k", "Large 2049", 2048),' in check.stdout
    assert '+    ("Large 2049", "k", "k", 2048, "k"),' in check.stdout
    assert run(tree).returncode == 0 and run(tree, "--check").returncode == 0
    edit(tree, DATA, '"suffix": "6k", "extra": "url_6k"', '"suffix": "8k", "extra": "url_8k"')
    check = run(tree, "--check")
    assert check.returncode == 1 and "3 files, 3 stale" in check.stderr, check.stderr
    assert '+        case "8k": .own(extra: "url_8k")' in check.stdout


@pytest.mark.parametrize(("old", "new", "message"), [
    ('"suffix": "k", "extra"', '"suffix": "h", "extra"', "suffix used twice: ['h']"),
    ('"longest": 1600,', '"longest": "1600",', "longest is a number of pixels"),
    ('"longest": null,', '"longest": 9000,', "longest is a number of pixels"),
    ('"label": "Medium",', '"label": "Medium \\"500\\"",', "strings of letters"),
    ('"secret": "own"}', '"secret": "private"}', "secret is one of"),
    ('"square": true, ', "", "has not exactly the fields"),
    ('"count": 17', '"count": 16', '"sizes" is not a non-empty list'),
])
def test_data_it_cannot_read_whole_is_refused(tree, old, new, message):
    GENERATOR.assert_refused(tree, old, new, message)


def test_the_python_copies_say_what_the_data_says():
    data = json.loads((REPO / DATA).read_text())["sizes"]
    assert len(data) == len(sizes.LADDER) == len(sandbox_table.SIZES) == 17
    for row, size, sandboxed in zip(data, sizes.LADDER, sandbox_table.SIZES):
        extra = row["extra"].removeprefix("url_")
        assert tuple(size) == (row["suffix"], extra, row["label"], row["longest"] or 0)
        assert sandboxed == (row["label"], row["suffix"], row["page"], row["longest"], extra)
    assert sandbox_table.OWN_SECRET == {row["suffix"] for row in data if row["secret"] == "own"} \
        == {"h", "k", "3k", "4k", "5k", "6k"}
    assert sandbox_table.SQUARES == {"s", "q"}
    # The sandbox answers the url_* extras in an order of its own (its fixture's): every one, once.
    assert sorted(photolist.URL_EXTRAS) == sorted(row["extra"].removeprefix("url_") for row in data)
    # The names other modules import from flickr_apps._media.sizes stay there.
    assert (sizes.Size, sizes.LADDER) == (binding_table.Size, binding_table.LADDER)
    assert sizes.EXTRAS.startswith("url_o,url_6k,url_5k,") and sizes.CODES[:3] == ("s", "q", "t")
