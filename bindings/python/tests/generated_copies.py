# SPDX-License-Identifier: MIT
"""What the tests of the generators that copy one data file into Swift, the binding and the sandbox
share (test_size_tables.py, test_limit_tables.py): each check runs the script on a copy of the
files it reads and writes, so the tree is never touched."""
from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from libtest import REPO
from test_header_tables import assert_refused, copied, edit, run_script


@dataclass(frozen=True)
class Generator:
    script: str  # scripts/gen-....py
    data: str  # data/....json
    copies: list[str]  # what it writes

    def tree(self, tmp_path: Path) -> Path:
        return copied(tmp_path, [self.script, self.data, *self.copies])

    def run(self, tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return run_script(tree, self.script, "--root", str(tree), *args)

    def assert_tree_current(self) -> None:
        result = run_script(REPO, self.script, "--check")
        assert (result.returncode, result.stderr) == (0, ""), result.stdout + result.stderr
        print(result.stdout.strip())

    def assert_edited_copy_caught(self, tree: Path, copy: str, old: str, new: str) -> None:
        """COPY edited by hand (OLD to NEW) fails --check with a diff naming it; the script then
        writes it back as it was."""
        assert self.run(tree, "--check").returncode == 0, "the copy starts current"
        original = (tree / copy).read_text()
        edit(tree, copy, old, new)
        check = self.run(tree, "--check")
        print(check.stderr.strip())
        count = len(self.copies)
        assert check.returncode == 1 and f"{count} files, 1 stale ({copy})" in check.stderr, check.stderr
        assert f"--- {copy} (as it is)" in check.stdout and new in check.stdout, check.stdout
        written = self.run(tree)
        assert written.returncode == 0 and f"1 rewritten: {copy}" in written.stdout, written
        assert (tree / copy).read_text() == original
        assert self.run(tree, "--check").returncode == 0

    def assert_refused(self, tree: Path, old: str, new: str, message: str) -> None:
        """The data edited (OLD to NEW) is refused in one line naming MESSAGE; nothing is written."""
        edit(tree, self.data, old, new)
        assert_refused(lambda *args: self.run(tree, *args), tree, self.copies, message)
