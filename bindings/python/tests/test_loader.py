# SPDX-License-Identifier: MIT
"""Finding and loading libflickr.so: FLICKR_LIBRARY, then a bundled copy, then the Python
environment's lib/libflickr.so.0, then the system soname."""
import os
import re
import shutil
import subprocess
import sys
import venv

import pytest

from libtest import PACKAGE_DIR, REPO

PROBE = "import flickr, flickr._ffi as f; print(flickr.library_version()); print(f.loaded_path())"


# The probes run in the interpreter the tests' venv was made from: that venv may hold the
# checkout's library (scripts/install-cli.sh links it into build/venv/lib), which is a place the
# loader looks.
BASE_PYTHON = getattr(sys, "_base_executable", sys.executable)


def run_probe(env_updates, pythonpath=PACKAGE_DIR, python=BASE_PYTHON):
    env = {k: v for k, v in os.environ.items() if k not in ("FLICKR_LIBRARY", "LD_LIBRARY_PATH", "PYTHONPATH")}
    if pythonpath:
        env["PYTHONPATH"] = str(pythonpath)
    env.update(env_updates)
    return subprocess.run([python, "-c", PROBE], env=env, capture_output=True, text=True, cwd="/")


HEADER = (REPO / "include" / "flickr" / "version.h").read_text()
#: The version, written once: in the header (FLICKR_VERSION; the numbers are checked against it).
VERSION = re.search(r'^#define FLICKR_VERSION "(.+)"$', HEADER, re.M).group(1)


def test_versions_agree(library_path):
    """Everyone reads the header's version; nobody keeps a copy (issue 30: six files had one)."""
    import flickr
    from flickr import _ffi

    numbers = [re.search(rf"^#define FLICKR_VERSION_{part} (\d+)$", HEADER, re.M).group(1) for part in ("MAJOR", "MINOR", "PATCH")]
    assert ".".join(numbers) == VERSION
    assert flickr.__version__ == VERSION
    assert _ffi.BINDING_VERSION == tuple(int(n) for n in numbers)
    assert flickr.library_version() == VERSION
    for pyproject in (PACKAGE_DIR / "pyproject.toml", REPO / "sandbox" / "pyproject.toml"):
        text = pyproject.read_text()
        assert not re.search(r"^version *=", text, re.M), f"{pyproject} keeps its own version"
        assert re.search(r'^dynamic = \["version"\]$', text, re.M), pyproject


def test_table_declares_every_header_function(library_path):
    from flickr import _ffi

    headers = "\n".join(p.read_text() for p in (REPO / "include").rglob("*.h"))
    declared_in_header = set(re.findall(r"FLICKR_API\b[^;(]*?\b(flickr_\w+)\s*\(", headers))
    assert declared_in_header, "no declarations found"
    assert set(_ffi.declared_functions()) == declared_in_header


def test_import_does_not_load_the_library():
    result = subprocess.run(
        [sys.executable, "-c", "import flickr, flickr._ffi as f; print(f.loaded_path())"],
        env={"PYTHONPATH": str(PACKAGE_DIR), "FLICKR_LIBRARY": "/nonexistent/libflickr.so"},
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "None"


def test_flickr_library_variable_wins(library_path):
    result = run_probe({"FLICKR_LIBRARY": str(library_path)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [VERSION, str(library_path)]


def test_bad_flickr_library_fails_loudly_without_fallback(library_path):
    # The system soname would be found through LD_LIBRARY_PATH, but an explicit path must not be ignored.
    result = run_probe({"FLICKR_LIBRARY": "/nonexistent/libflickr.so", "LD_LIBRARY_PATH": str(library_path.parent)})
    assert result.returncode != 0
    assert "ImportError" in result.stderr
    assert "/nonexistent/libflickr.so" in result.stderr


def test_system_soname_is_the_last_resort(library_path):
    result = run_probe({"LD_LIBRARY_PATH": str(library_path.parent)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [VERSION, "libflickr.so.0"]


def test_nothing_found_names_every_place_tried():
    result = run_probe({})
    assert result.returncode != 0
    assert "libflickr could not be loaded; tried:" in result.stderr
    assert "libflickr.so.0" in result.stderr


def test_bundled_copy_is_used(library_path, tmp_path):
    # A copy of the checkout's layout: the package reads its version from the header two levels up.
    package = tmp_path / "bindings" / "python"
    shutil.copytree(PACKAGE_DIR / "flickr", package / "flickr", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "include" / "flickr").mkdir(parents=True)
    (tmp_path / "include" / "flickr" / "version.h").write_text(HEADER)
    shutil.copyfile(library_path, package / "flickr" / "libflickr.so.0")
    result = run_probe({}, pythonpath=package)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [VERSION, str(package / "flickr" / "libflickr.so.0")]


def test_the_environments_library_is_used(library_path, tmp_path):
    """lib/libflickr.so.0 in the running Python's prefix, where scripts/install-cli.sh links the
    build's: the `flickr` of the project's venv finds it with no FLICKR_LIBRARY (issue 41 §5)."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    (env_dir / "lib" / "libflickr.so.0").symlink_to(library_path)
    result = run_probe({}, python=str(env_dir / "bin" / "python"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [VERSION, str(env_dir / "lib" / "libflickr.so.0")]
    # Anywhere else it is not looked for: the same interpreter without the link finds none.
    (env_dir / "lib" / "libflickr.so.0").unlink()
    assert "libflickr could not be loaded" in run_probe({}, python=str(env_dir / "bin" / "python")).stderr


def test_pip_install_bundles_the_library(library_path, tmp_path):
    """`FLICKR_BUNDLE_LIBRARY=... pip install bindings/python` gives a self-sufficient package."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = str(env_dir / "bin" / "python")
    env = dict(os.environ, FLICKR_BUNDLE_LIBRARY=str(library_path), PIP_DISABLE_PIP_VERSION_CHECK="1")
    install = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", str(PACKAGE_DIR)], env=env, capture_output=True, text=True
    )
    assert install.returncode == 0, install.stdout + install.stderr
    result = run_probe({}, pythonpath=None, python=python)
    assert result.returncode == 0, result.stderr
    version, path = result.stdout.split()
    assert version == VERSION
    assert path.startswith(str(env_dir)) and path.endswith("flickr/libflickr.so.0")


_MAJOR, _MINOR = (int(re.search(rf"^#define FLICKR_VERSION_{part} (\d+)$", HEADER, re.M).group(1)) for part in ("MAJOR", "MINOR"))
_NUMBER = (_MAJOR << 16) | (_MINOR << 8)


# Another major version, or an older minor one (it may lack functions the binding declares:
# 0.3 has no method catalogue, 0.2 no interrupt hook).
@pytest.mark.parametrize("number", [_NUMBER + 0x010000, _NUMBER - 0x000100 + 5, 0x000000, 0x000200, _NUMBER + 0x020103])
def test_incompatible_versions_are_refused(number):
    from flickr import _ffi

    with pytest.raises(ImportError, match=f"this binding needs {_MAJOR}.{_MINOR}"):
        _ffi.check_version(number, "/somewhere/libflickr.so")


@pytest.mark.parametrize("number", [_NUMBER, _NUMBER + 5, _NUMBER + 0x000100])
def test_compatible_versions_are_accepted(number):
    from flickr import _ffi

    _ffi.check_version(number, "/somewhere/libflickr.so")
