# SPDX-License-Identifier: MIT
"""mypy over the sandbox package, so its type hints stay true rather than decorative.

The run is the one a reader types in bindings/python, `python3 -m mypy -p flickr.sandbox`, where
pyproject.toml makes it strict for the sandbox (every function annotated, every body checked).
mypy also reads the modules the sandbox imports through its parent package (flickr/__init__
loads the client); their own errors are theirs to fix, so --follow-imports=silent leaves them
out of this verdict while their types still inform the sandbox's check.
"""
import importlib.util
import subprocess
import sys

import pytest

from libtest import PACKAGE_DIR


def test_mypy_finds_no_error_in_the_sandbox(tmp_path):
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is not installed: pip install -r bindings/python/requirements-test.txt")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--cache-dir", str(tmp_path / "cache"),
         "-p", "flickr.sandbox"],
        cwd=PACKAGE_DIR, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found"), result.stdout
