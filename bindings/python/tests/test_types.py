# SPDX-License-Identifier: MIT
"""mypy over the whole package, as a user's type checker sees it (the package ships py.typed):
`python3 -m mypy -p flickr` in bindings/python finds no error with every function annotated
and every body checked (STRICT_FLICKR), nor `python3 -m mypy -p
flickr_sandbox` in sandbox/, whose pyproject.toml makes it strict (every function annotated,
every body checked); the generated flickr/api.pyi types the catalogue's attribute calls, checked
in test_catalogue.py."""
import importlib.util
import subprocess
import sys

import pytest

from libtest import PACKAGE_DIR, SANDBOX_DIR


#: The shipped package is checked as strictly as its test server's pyproject checks the sandbox
#: (issue 30): every function annotated, every body checked. Given here, not in
#: bindings/python/pyproject.toml, until that file takes it as a [tool.mypy] section; flickr._ffi
#: (two helper functions) is left out of the annotation rule until it is annotated.
STRICT_FLICKR = """[mypy]
disallow_untyped_defs = True
check_untyped_defs = True

[mypy-flickr._ffi]
disallow_untyped_defs = False
"""


@pytest.mark.parametrize("package, directory", [("flickr", PACKAGE_DIR), ("flickr_sandbox", SANDBOX_DIR)])
def test_mypy_finds_no_error_in_the_package(package, directory, tmp_path):
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is not installed: pip install -r bindings/python/requirements-test.txt")
    config: list[str] = []
    if package == "flickr":
        (tmp_path / "mypy.ini").write_text(STRICT_FLICKR)
        config = ["--config-file", str(tmp_path / "mypy.ini")]
    result = subprocess.run(
        [sys.executable, "-m", "mypy", *config, "--cache-dir", str(tmp_path / "cache"), "-p", package],
        cwd=directory, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found"), result.stdout


def test_type_hints_resolve_at_run_time():
    """typing.get_type_hints on the public API (once: NameError for Iterator on Flickr.walk)."""
    import typing

    import flickr

    for owner in (flickr.Flickr, flickr.AsyncFlickr):
        for name in dir(owner):
            member = getattr(owner, name, None)
            if callable(member) and not name.startswith("_"):
                typing.get_type_hints(member)
