# SPDX-License-Identifier: MIT
"""mypy over the whole package, as a user's type checker sees it (the package ships py.typed):
`python3 -m mypy -p flickr` in bindings/python finds no error under `mypy --strict`
(bindings/python/pyproject.toml's [tool.mypy]), nor `python3 -m mypy -p flickr_apps -p flickr` in
apps/ (the applications with the binding they use, so the binding's forwarders are checked against
what they forward), nor `python3 -m mypy -p flickr_sandbox` in sandbox/, whose pyproject.toml makes it strict (every function annotated, every body checked);
the generated flickr/api.pyi types the catalogue's attribute calls, checked in test_catalogue.py."""
import importlib.util
import shutil
import subprocess
import sys

import pytest

from libtest import APPS_DIR, PACKAGE_DIR, SANDBOX_DIR


@pytest.mark.parametrize("packages, directory", [(["flickr"], PACKAGE_DIR), (["flickr_apps", "flickr"], APPS_DIR),
                                                 (["flickr_sandbox"], SANDBOX_DIR)])
def test_mypy_finds_no_error_in_the_package(packages, directory, tmp_path):
    """Each distribution's pyproject.toml holds its mypy settings ([tool.mypy]: strict)."""
    assert_mypy_passes([argument for package in packages for argument in ("-p", package)], directory, tmp_path)


def test_mypy_finds_no_error_in_api_py_behind_its_stub(tmp_path):
    """flickr/api.pyi hides flickr/api.py from a check of the package: this checks the code too,
    on a copy of the package without the stub, under the same settings."""
    copy = tmp_path / "copy"
    shutil.copytree(PACKAGE_DIR / "flickr", copy / "flickr", ignore=shutil.ignore_patterns("api.pyi", "__pycache__"))
    shutil.copy(PACKAGE_DIR / "pyproject.toml", copy / "pyproject.toml")
    assert_mypy_passes(["-p", "flickr"], copy, tmp_path)


def assert_mypy_passes(arguments: list[str], directory, tmp_path) -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is not installed: pip install -r bindings/python/requirements-test.txt")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), *arguments],
        cwd=directory, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found"), result.stdout
    print(result.stdout.strip())


def test_type_hints_resolve_at_run_time():
    """typing.get_type_hints on the public API (once: NameError for Iterator on Flickr.walk)."""
    import typing

    import flickr

    for owner in (flickr.Flickr, flickr.AsyncFlickr):
        for name in dir(owner):
            member = getattr(owner, name, None)
            if callable(member) and not name.startswith("_"):
                typing.get_type_hints(member)
