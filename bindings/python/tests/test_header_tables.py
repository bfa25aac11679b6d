# SPDX-License-Identifier: MIT
"""scripts/gen-header-tables.py, which writes the copies of the header's status codes and options
(issue 30, "facts written once"). Run on a copy of the files it reads and writes, so the tree is
never touched: a number changed in the header makes --check fail with a diff and the script write
every copy; an enum it cannot read whole is refused, never half-read. (ctest
header_tables_are_current runs --check on the tree itself.)"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from libtest import REPO

SCRIPT = "scripts/gen-header-tables.py"
#: What the script reads and writes, relative to the repository.
FILES = [SCRIPT, "include/flickr/common.h", "include/flickr/context.h", "Sources/FlickrCore/HeaderTables.swift",
         "bindings/python/flickr/_header.py", "docs/conventions.md"]


#: What every generator imports, beside it.
SHARED = "scripts/generated_files.py"


def copied(tmp_path: Path, names: list[str]) -> Path:
    """A tree of the repository's NAMES (and the generators' shared module) below TMP_PATH."""
    for name in [*names, SHARED]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, tmp_path / name)
    return tmp_path


def run_script(tree: Path, script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(tree / script), *args], capture_output=True, text=True, timeout=60)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return copied(tmp_path, FILES)


def run(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_script(tree, SCRIPT, *args)


def edit(tree: Path, name: str, old: str, new: str) -> None:
    path = tree / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_changed_number_is_caught_then_written_everywhere(tree):
    assert run(tree, "--check").returncode == 0, "the copy starts current"
    # Numbers no other enumerator has (codes and options are appended after these).
    edit(tree, "include/flickr/common.h", "FLICKR_ENOTFOUND = -15", "FLICKR_ENOTFOUND = -40")
    edit(tree, "include/flickr/context.h", "FLICKR_OPT_CHECK_ARGUMENTS = 113", "FLICKR_OPT_CHECK_ARGUMENTS = 140")
    check = run(tree, "--check")
    print(check.stderr.strip())
    assert check.returncode == 1 and "3 files, 3 stale" in check.stderr
    for line in ("+        case notFound = -40", "+ENOTFOUND: Final = -40", '+    "check_arguments": 140,',
                 "+    case checkArguments = 140", "+| `FLICKR_ENOTFOUND` | -40 |"):
        assert line in check.stdout, f"the diff lacks {line!r}"
    before = {name: (tree / name).read_text() for name in FILES[3:]}
    assert run(tree).returncode == 0
    assert run(tree, "--check").returncode == 0
    changed = [name for name in FILES[3:] if (tree / name).read_text() != before[name]]
    assert changed == FILES[3:]
    assert "ENOTFOUND: Final = -40\n" in (tree / "bindings/python/flickr/_header.py").read_text()


@pytest.mark.parametrize(("header", "old", "new", "message"), [
    ("include/flickr/context.h", "FLICKR_OPT_CHECK_ARGUMENTS = 113", "FLICKR_OPT_CHECK_ARGUMENTS = 100 + 13",
     "cannot read '+ 13"),
    ("include/flickr/common.h", "FLICKR_ESTATE = -14", "FLICKR_ESTATE = -13", "value used twice: -13"),
    ("include/flickr/common.h", '/** "not found": No such', "/** No such",
     "FLICKR_ENOTFOUND: the comment must start with its flickr_strerror() text"),
    ("include/flickr/context.h", "    /** REST endpoint URL (http or https).", "    /* REST endpoint URL.",
     "cannot read"),
])
def test_an_enum_it_cannot_read_whole_is_refused(tree, header, old, new, message):
    edit(tree, header, old, new)
    assert_refused(lambda *args: run(tree, *args), tree, FILES[3:], message)


def assert_refused(script: Callable[..., subprocess.CompletedProcess[str]], tree: Path, generated: list[str],
                   message: str) -> None:
    """SCRIPT (run with the arguments given) refuses what it reads, with and without --check: exit
    status 2, one line naming MESSAGE, and none of the GENERATED files below TREE written."""
    before = {name: (tree / name).read_text() for name in generated}
    for args in ((), ("--check",)):
        result = script(*args)
        assert (result.returncode, result.stdout) == (2, ""), result
        assert message in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
    assert {name: (tree / name).read_text() for name in generated} == before, "what was half-read was written"
    print(result.stderr.strip())
