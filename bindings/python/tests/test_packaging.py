# SPDX-License-Identifier: MIT
"""Wheels of the binding: a wheel that bundles libflickr.so is a platform wheel for the
library's machine; a plain build never ships a library, however many copies lie about, nor the
sandbox, nor the applications. The sandbox's own wheel (flickr-sandbox, from sandbox/) holds it and
runs; the applications' (flickr-apps, from apps/) holds the `flickr` command, which runs beside the
binding's wheel, and the binding's forwarders say in one line what to install without it.

Each test builds from a copy of bindings/python, apps or sandbox (pip builds in the source tree, and the
tests plant stale copies there), with `pip wheel --no-deps --no-build-isolation`: no index is asked.
"""
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import zipfile

import pytest

import flickr

from libtest import APPS_DIR, PACKAGE_DIR, REPO, SANDBOX_DIR


def copy_source(directory, tmp_path):
    """A copy of `directory` without build output, in a copy of the checkout's layout with the
    header its setup.py reads the version from (include/flickr/version.h, the only copy)."""
    root = tmp_path / "src"
    copy = root / directory.relative_to(REPO)
    shutil.copytree(directory, copy, ignore=shutil.ignore_patterns(
        "__pycache__", "build", "*.egg-info", "tests", "examples", ".mypy_cache"))
    (root / "include" / "flickr").mkdir(parents=True, exist_ok=True)  # a second copy in the same tree
    shutil.copyfile(REPO / "include" / "flickr" / "version.h", root / "include" / "flickr" / "version.h")
    return copy


@pytest.fixture
def source(tmp_path):
    """A copy of bindings/python without build output."""
    return copy_source(PACKAGE_DIR, tmp_path)


def build_wheel(source, out, bundle=None, cwd=None, **environment):
    env = {k: v for k, v in os.environ.items() if k != "FLICKR_BUNDLE_LIBRARY"}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    if bundle is not None:
        env["FLICKR_BUNDLE_LIBRARY"] = str(bundle)
    env.update(environment)
    return subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "--no-index", "-w", str(out), str(source)],
                          env=env, cwd=cwd, capture_output=True, text=True, timeout=300)


def only_wheel(out):
    wheels = list(out.glob("*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def wheel_metadata(wheel) -> dict:
    with zipfile.ZipFile(wheel) as archive:
        text = archive.read(f"flickr-{flickr.__version__}.dist-info/WHEEL").decode()
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


def test_a_bundled_library_makes_a_platform_wheel(library_path, source, tmp_path):
    built = build_wheel(source, tmp_path / "dist", bundle=library_path)
    assert built.returncode == 0, built.stdout + built.stderr
    wheel = only_wheel(tmp_path / "dist")
    # The library built on this machine is for this machine (ctypes binds no Python ABI: py3-none).
    tag = f"py3-none-linux_{platform.machine()}"
    assert wheel.name == f"flickr-{flickr.__version__}-{tag}.whl"
    metadata = wheel_metadata(wheel)
    assert metadata["Tag"] == tag and metadata["Root-Is-Purelib"] == "false"
    with zipfile.ZipFile(wheel) as archive:
        shipped = archive.read("flickr/libflickr.so.0")
        names = archive.namelist()
    assert hashlib.sha256(shipped).digest() == hashlib.sha256(library_path.read_bytes()).digest()
    assert "flickr/client.py" in names and not any(".data/" in name for name in names)
    # Bundling left no copy in the tree it built from.
    assert not list(source.rglob("libflickr.so*"))


def test_a_plain_build_never_ships_a_stale_library(library_path, source, tmp_path):
    # Copies where earlier builds or hands could have left them: the package and the build tree.
    for place in (source / "flickr", source / "build" / "lib" / "flickr"):
        place.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(library_path, place / "libflickr.so.0")
    built = build_wheel(source, tmp_path / "dist")
    assert built.returncode == 0, built.stdout + built.stderr
    wheel = only_wheel(tmp_path / "dist")
    assert wheel.name == f"flickr-{flickr.__version__}-py3-none-any.whl"
    assert wheel_metadata(wheel)["Root-Is-Purelib"] == "true"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert not [name for name in names if "libflickr" in name]
    assert not (source / "build" / "lib" / "flickr" / "libflickr.so.0").exists()
    # The binding only: the sandbox and the applications are distributions of their own; the
    # binding keeps its forwarders of the applications' documented names, and no console script.
    assert {"flickr/backup.py", "flickr/__main__.py", "flickr/files.py"} <= set(names)
    assert not [name for name in names if name.startswith(("flickr/sandbox/", "flickr_sandbox/", "flickr/cli/",
                                                            "flickr_apps/", "flickr/backup/"))], names
    assert not [name for name in names if name.endswith("entry_points.txt")], names


def pure_wheel(directory, tmp_path, name):
    """The wheel of the distribution at `directory` (its files named `name`), built from a copy: its
    path, its file names and its dist-info files' text by name. Released with the binding: same version."""
    built = build_wheel(copy_source(directory, tmp_path), tmp_path / f"{name}-dist")
    assert built.returncode == 0, built.stdout + built.stderr
    wheel = only_wheel(tmp_path / f"{name}-dist")
    assert wheel.name == f"{name}-{flickr.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = {path.rpartition("/")[2]: archive.read(path).decode() for path in names
                if path.startswith(f"{name}-{flickr.__version__}.dist-info/")}
    return wheel, names, info


def test_the_sandbox_wheel_holds_the_sandbox_and_runs(tmp_path):
    wheel, names, info = pure_wheel(SANDBOX_DIR, tmp_path, "flickr_sandbox")
    metadata = info["METADATA"]
    expected = {"flickr_sandbox/__main__.py", "flickr_sandbox/py.typed", "flickr_sandbox/catalogue.py",
                "flickr_sandbox/methods/photos.py", "flickr_sandbox/pictures/__init__.py",
                "flickr_sandbox/pictures/jpeg.py", "flickr_sandbox/pictures/scenes.py"}
    assert expected <= names, sorted(expected - names)
    assert not [name for name in names if name.startswith(("flickr/", "tests/"))], sorted(names)
    assert "Name: flickr-sandbox" in metadata and "Provides-Extra: tls" in metadata
    # Installed alone, with no checkout on the path, it starts: `python -m flickr_sandbox --help`.
    site = tmp_path / "site"
    install_target([wheel], site)
    env = dict({k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, PYTHONPATH=str(site))
    where = subprocess.run([sys.executable, "-c", "import flickr_sandbox; print(flickr_sandbox.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=60, env=env)
    assert where.stdout.startswith(str(site / "flickr_sandbox")), where.stdout + where.stderr
    shown = subprocess.run([sys.executable, "-m", "flickr_sandbox", "--help"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=60, env=env)
    assert shown.returncode == 0 and "usage: python -m flickr_sandbox" in shown.stdout, shown.stdout + shown.stderr


def install_target(wheels, site):
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
                                "--target", str(site), *map(str, wheels)], capture_output=True, text=True, timeout=300,
                               env=dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1"))
    assert installed.returncode == 0, installed.stdout + installed.stderr


def test_the_apps_wheel_holds_the_command_and_runs_beside_the_binding(source, tmp_path):
    """flickr-apps: the command (`flickr = flickr_apps.cli:main`), needing the binding; installed
    beside the binding's wheel, `python -m flickr --help` runs, and `flickr.backup` is the backup;
    the binding's wheel alone says in one line what to install, exit 1, no traceback."""
    wheel, names, info = pure_wheel(APPS_DIR, tmp_path, "flickr_apps")
    metadata, entry_points = info["METADATA"], info["entry_points.txt"]
    expected = {"flickr_apps/__init__.py", "flickr_apps/py.typed", "flickr_apps/cli/__init__.py",
                "flickr_apps/backup/__init__.py", "flickr_apps/backup/export/reader.py", "flickr_apps/_media/sizes.py"}
    assert expected <= names, sorted(expected - names)
    assert not [name for name in names if name.startswith(("flickr/", "flickr_sandbox/", "tests/"))], sorted(names)
    assert "Name: flickr-apps" in metadata and "Requires-Dist: flickr" in metadata, metadata
    assert "flickr = flickr_apps.cli:main" in entry_points, entry_points
    binding = build_wheel(source, tmp_path / "dist")
    assert binding.returncode == 0, binding.stdout + binding.stderr
    alone, both = tmp_path / "alone", tmp_path / "both"
    install_target([only_wheel(tmp_path / "dist")], alone)
    install_target([only_wheel(tmp_path / "dist"), wheel], both)

    def python(site, *argv):
        env = dict({k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, PYTHONPATH=str(site))
        return subprocess.run([sys.executable, "-S", *argv], cwd=tmp_path, capture_output=True, text=True,
                              timeout=60, env=env)

    shown = python(both, "-m", "flickr", "--help")
    assert shown.returncode == 0 and shown.stdout.startswith("usage: flickr"), shown.stdout + shown.stderr
    forwarded = python(both, "-c", "import flickr.backup, flickr_apps.backup as b; "
                                   "print(flickr.backup.run is b.run, b.__file__)")
    assert forwarded.stdout.startswith(f"True {both / 'flickr_apps'}"), forwarded.stdout + forwarded.stderr
    for argv in (["-m", "flickr", "--help"], ["-c", "import flickr.backup"]):
        missing = python(alone, *argv)
        print(missing.stderr)
        assert missing.returncode == 1 and "flickr-apps distribution, which is not installed" in missing.stderr
        assert missing.stdout == "" and ("Traceback" in missing.stderr) == (argv[0] == "-c"), missing.stderr


def test_bundling_refuses_what_is_no_library(source, tmp_path):
    text = tmp_path / "libflickr.so.0"
    text.write_text("not a library\n")
    built = build_wheel(source, tmp_path / "dist", bundle=text)
    assert built.returncode != 0
    assert "not an ELF shared library" in built.stdout + built.stderr
    missing = build_wheel(source, tmp_path / "dist", bundle=tmp_path / "nowhere.so")
    assert missing.returncode != 0 and "no such file" in missing.stdout + missing.stderr
    assert not list((tmp_path / "dist").glob("*.whl"))


def test_a_relative_bundle_path_is_read_where_pip_was_started(library_path, source, tmp_path):
    """pip runs setup.py in the package's directory: build/libflickr.so.0 was looked for there
    ("no such file"). It is the caller's, pip's own working directory, even when the caller's
    PWD is stale (a program that changed directory): a decoy at the stale PWD is not taken."""
    work, stale = tmp_path / "work", tmp_path / "stale"
    for place, library in ((work, library_path.read_bytes()), (stale, b"decoy, not a library\n")):
        (place / "build").mkdir(parents=True)
        (place / "build" / "libflickr.so.0").write_bytes(library)
    built = build_wheel(source, tmp_path / "dist", bundle="build/libflickr.so.0", cwd=work, PWD=str(stale))
    assert built.returncode == 0, built.stdout + built.stderr
    with zipfile.ZipFile(only_wheel(tmp_path / "dist")) as archive:
        assert archive.read("flickr/libflickr.so.0") == library_path.read_bytes()
