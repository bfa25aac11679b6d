# SPDX-License-Identifier: MIT
"""Finding and loading libflickr.so: FLICKR_LIBRARY, then a bundled copy, then the system soname."""
import os
import re
import shutil
import subprocess
import sys
import venv

import pytest

from libtest import PACKAGE_DIR, REPO

PROBE = "import flickr, flickr._ffi as f; print(flickr.library_version()); print(f.loaded_path())"


def run_probe(env_updates, pythonpath=PACKAGE_DIR, python=sys.executable):
    env = {k: v for k, v in os.environ.items() if k not in ("FLICKR_LIBRARY", "LD_LIBRARY_PATH", "PYTHONPATH")}
    if pythonpath:
        env["PYTHONPATH"] = str(pythonpath)
    env.update(env_updates)
    return subprocess.run([python, "-c", PROBE], env=env, capture_output=True, text=True, cwd="/")


def test_versions_agree(library_path):
    import flickr

    header = (REPO / "include" / "flickr" / "version.h").read_text()
    header_version = re.search(r'#define FLICKR_VERSION "(.+)"', header).group(1)
    pyproject = (PACKAGE_DIR / "pyproject.toml").read_text()
    assert flickr.__version__ == header_version
    assert flickr.library_version() == header_version
    assert re.search(r'^version = "(.+)"', pyproject, re.M).group(1) == header_version


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
    assert result.stdout.split() == ["0.4.0", str(library_path)]


def test_bad_flickr_library_fails_loudly_without_fallback(library_path):
    # The system soname would be found through LD_LIBRARY_PATH, but an explicit path must not be ignored.
    result = run_probe({"FLICKR_LIBRARY": "/nonexistent/libflickr.so", "LD_LIBRARY_PATH": str(library_path.parent)})
    assert result.returncode != 0
    assert "ImportError" in result.stderr
    assert "/nonexistent/libflickr.so" in result.stderr


def test_system_soname_is_the_last_resort(library_path):
    result = run_probe({"LD_LIBRARY_PATH": str(library_path.parent)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["0.4.0", "libflickr.so.0"]


def test_nothing_found_names_every_place_tried():
    result = run_probe({})
    assert result.returncode != 0
    assert "libflickr could not be loaded; tried:" in result.stderr
    assert "libflickr.so.0" in result.stderr


def test_bundled_copy_is_used(library_path, tmp_path):
    shutil.copytree(PACKAGE_DIR / "flickr", tmp_path / "flickr", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copyfile(library_path, tmp_path / "flickr" / "libflickr.so.0")
    result = run_probe({}, pythonpath=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["0.4.0", str(tmp_path / "flickr" / "libflickr.so.0")]


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
    assert version == "0.4.0"
    assert path.startswith(str(env_dir)) and path.endswith("flickr/libflickr.so.0")


# 0.3 lacks the method catalogue, 0.2 the interrupt hook.
@pytest.mark.parametrize("number", [0x010000, 0x000000, 0x000100, 0x000200, 0x000305, 0x020103])
def test_incompatible_versions_are_refused(number):
    from flickr import _ffi

    with pytest.raises(ImportError, match="this binding needs 0.4"):
        _ffi.check_version(number, "/somewhere/libflickr.so")


@pytest.mark.parametrize("number", [0x000400, 0x000405, 0x000500])
def test_compatible_versions_are_accepted(number):
    from flickr import _ffi

    _ffi.check_version(number, "/somewhere/libflickr.so")
