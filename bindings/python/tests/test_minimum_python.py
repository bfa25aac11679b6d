# SPDX-License-Identifier: MIT
"""The Python stated as the minimum (requires-python in bindings/python/pyproject.toml,
apps/pyproject.toml and sandbox/pyproject.toml) is the one checked (issue 30: 3.9 was stated while
3.11's Exception.add_note was called unguarded). Every module of flickr, flickr_apps and flickr_sandbox parses with
that version's grammar; an API newer than it is used only where the module checks for it
(hasattr/getattr with its name); and where that interpreter is installed (pyenv, or pythonX.Y on
PATH), the package imports whole and does a call and an upload on it against the sandbox."""
from __future__ import annotations

import ast
import os
import pathlib
import re
import shutil
import subprocess

import pytest

from libtest import APPS_DIR, PACKAGE_DIR, PYTHONPATH, SANDBOX_DIR, endpoints

#: Names of APIs added after 3.9 (the version that added them), looked for as attributes and names.
NEWER = {
    "add_note": (3, 11), "ExceptionGroup": (3, 11), "BaseExceptionGroup": (3, 11), "TaskGroup": (3, 11),
    "tomllib": (3, 11), "StrEnum": (3, 11), "file_digest": (3, 11), "Self": (3, 11), "LiteralString": (3, 11),
    "pairwise": (3, 10), "bit_count": (3, 10), "aclosing": (3, 10), "ParamSpec": (3, 10),
    "TypeAlias": (3, 10), "TypeGuard": (3, 10), "anext": (3, 10), "aiter": (3, 10), "orig_argv": (3, 10),
    "batched": (3, 12), "override": (3, 12),
}


def _minimum() -> tuple[int, int]:
    stated = set()
    for directory in (PACKAGE_DIR, APPS_DIR, SANDBOX_DIR):
        text = (directory / "pyproject.toml").read_text()
        found = re.search(r'^requires-python\s*=\s*">=\s*(\d+)\.(\d+)"', text, re.M)
        assert found, f"no requires-python in {directory / 'pyproject.toml'}"
        stated.add((int(found[1]), int(found[2])))
    assert len(stated) == 1, f"the client, the applications and the sandbox state different minimums: {stated}"
    return stated.pop()


MINIMUM = _minimum()
MODULES = sorted([*(PACKAGE_DIR / "flickr").rglob("*.py"), *(APPS_DIR / "flickr_apps").rglob("*.py"),
                  *(SANDBOX_DIR / "flickr_sandbox").rglob("*.py")])


def test_every_module_parses_with_the_minimums_grammar():
    failures = []
    for path in MODULES:
        try:
            ast.parse(path.read_text(), str(path), feature_version=MINIMUM)
        except SyntaxError as error:
            failures.append(f"{path.relative_to(PACKAGE_DIR.parents[1])}:{error.lineno}: {error.msg}")
    print(f"{len(MODULES)} modules parsed as Python {MINIMUM[0]}.{MINIMUM[1]}")
    assert len(MODULES) > 90 and not failures, failures


def _newer_uses(source: str) -> set[str]:
    """Newer API names the module uses without checking for them by name (hasattr(x, "add_note"))."""
    tree = ast.parse(source)
    used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    used |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    used |= {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
             for alias in node.names}
    checked = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    return {name for name in used & set(NEWER) if NEWER[name] > MINIMUM and name not in checked}


def test_the_api_finder_finds_unchecked_uses():
    assert _newer_uses("def f(e):\n    e.add_note('x')\n") == {"add_note"}
    assert _newer_uses("def f(e):\n    if hasattr(e, 'add_note'):\n        e.add_note('x')\n") == set()
    assert _newer_uses("import tomllib\n") == {"tomllib"}


def test_no_api_newer_than_the_minimum_unchecked():
    found = {str(path.relative_to(PACKAGE_DIR.parents[1])): uses for path in MODULES
             if (uses := _newer_uses(path.read_text()))}
    assert not found, f"APIs newer than Python {MINIMUM[0]}.{MINIMUM[1]}, used unchecked: {found}"


def _interpreter(version: tuple[int, int]) -> str | None:
    name = f"python{version[0]}.{version[1]}"
    root = pathlib.Path(os.environ.get("PYENV_ROOT", pathlib.Path.home() / ".pyenv")) / "versions"
    pyenv = sorted(root.glob(f"{version[0]}.{version[1]}.*/bin/{name}")) if root.is_dir() else []
    return str(pyenv[-1]) if pyenv else shutil.which(name)


RUN_ON_MINIMUM = """
import importlib, pkgutil, sys
import flickr, flickr_apps, flickr_sandbox
names = [m.name for package in (flickr, flickr_apps, flickr_sandbox)
         for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".") if not m.name.endswith("__main__")]
for name in names:
    importlib.import_module(name)
key, secret, token, token_secret, base = sys.argv[1:]
class Late(Exception):
    pass
def progress(sent, total):
    if sent == total:
        raise Late("after the last byte")
with flickr.Flickr(key, secret, oauth_token=token, oauth_token_secret=token_secret, base_url=base) as api:
    assert "39" in str(api.call("flickr.test.echo", n="39"))
    try:
        api.upload(b"\\xff\\xd8\\xff\\xe0" + bytes(5000), progress)
    except Late as error:
        photo_id = error.flickr_response["photoid"]["_text"]
print(sys.version_info[:2], len(names), "modules", "photo", photo_id)
"""


def test_the_package_runs_on_the_minimum(library_path, sandbox):
    python = _interpreter(MINIMUM)
    if python is None:
        pytest.skip(f"no Python {MINIMUM[0]}.{MINIMUM[1]} installed (pyenv or python{MINIMUM[0]}.{MINIMUM[1]})")
    result = subprocess.run(
        [python, "-c", RUN_ON_MINIMUM, sandbox.api_key, sandbox.api_secret, sandbox.oauth_token,
         sandbox.oauth_token_secret, endpoints(sandbox)["base_url"]],
        env={**os.environ, "PYTHONPATH": PYTHONPATH, "FLICKR_LIBRARY": str(library_path)},
        capture_output=True, text=True, timeout=120)
    print(result.stdout)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"({MINIMUM[0]}, {MINIMUM[1]})") and "photo " in result.stdout
