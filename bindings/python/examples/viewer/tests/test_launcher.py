# SPDX-License-Identifier: MIT
"""scripts/viewer.sh: what a start does again and what it does not (the project's venv, installed
only when the requirements change; libflickr built only when missing or stale), without building
Swift or reaching PyPI: ``--check`` in a copy of the layout, and two real starts on a venv that
sees this Python's Flask."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[5]
SCRIPT = REPO / "scripts" / "viewer.sh"
VENV_SCRIPT = REPO / "scripts" / "venv.sh"
REQUIREMENTS = "bindings/python/examples/viewer/requirements.txt"


def run(script: Path, *args: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(script), *args], env=env, capture_output=True, text=True, timeout=timeout)


def check(script: Path, env: dict[str, str]) -> dict[str, str]:
    """``viewer.sh --check``: {"venv": ..., "libflickr": ...}."""
    result = run(script, "--check", env=env)
    assert result.returncode == 0, result.stderr
    return dict(line.split(": ", 1) for line in result.stdout.splitlines())


def stamp(venv: Path, requirements: Path) -> str:
    """The hash scripts/venv.sh keeps: the requirements and the venv's Python."""
    version = subprocess.run([str(venv / "bin" / "python"), "-VV"], capture_output=True, text=True).stdout
    return hashlib.sha256(requirements.read_bytes() + version.encode()).hexdigest()


def stamp_path(venv: Path) -> Path:
    return venv / ".libflickr" / (REQUIREMENTS.replace("/", "_") + ".sha256")


def set_age(path: Path, seconds_ago: float) -> None:
    when = time.time() - seconds_ago
    os.utime(path, (when, when))


def test_check_says_what_a_start_would_do(tmp_path):
    root = tmp_path / "repo"  # the script works from its own checkout: a copy of the layout it reads
    (root / "scripts").mkdir(parents=True)
    shutil.copy(SCRIPT, root / "scripts")
    shutil.copy(VENV_SCRIPT, root / "scripts")
    script = root / "scripts" / "viewer.sh"
    requirements = root / "bindings/python/examples/viewer/requirements.txt"
    requirements.parent.mkdir(parents=True)
    requirements.write_text("flask>=2.2\n")
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if k != "FLICKR_LIBRARY"} | {"FLICKR_VENV": str(venv)}

    assert check(script, env) == {"venv": f"create (no venv at {venv})",
                                  "libflickr": "build (build/libflickr.so.0 is missing)"}

    for source in ("Sources/FlickrCore/Client.swift", "include/flickr/flickr.h", "CMakeLists.txt"):
        (root / source).parent.mkdir(parents=True, exist_ok=True)
        (root / source).write_text("")
        set_age(root / source, 120)
    library = root / "build" / "libflickr.so.0"
    library.parent.mkdir()
    library.write_bytes(b"")
    set_age(library, 60)
    assert check(script, env)["libflickr"] == "up to date (build/libflickr.so.0)"
    set_age(root / "include/flickr/flickr.h", 0)  # edited since the build
    assert check(script, env)["libflickr"] == "build (include/flickr/flickr.h is newer than build/libflickr.so.0)"
    env_given = env | {"FLICKR_LIBRARY": str(library)}
    assert check(script, env_given)["libflickr"] == f"given (FLICKR_LIBRARY={library})"  # used as is
    env_missing = env | {"FLICKR_LIBRARY": str(tmp_path / "nowhere.so")}
    assert check(script, env_missing)["libflickr"].startswith("missing")
    started = run(script, "--port", "0", env=env_missing)
    assert started.returncode == 1 and "error: libflickr: missing" in started.stderr and not started.stdout

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    assert check(script, env)["venv"] == "install (bindings/python/examples/viewer/requirements.txt " \
                                         "or the venv's Python changed)"
    stamp_path(venv).parent.mkdir()
    stamp_path(venv).write_text(stamp(venv, requirements) + "\n")
    assert check(script, env)["venv"] == f"reuse ({venv})"
    requirements.write_text("flask>=2.2\nblinker\n")  # a new requirement: installed on the next start
    assert check(script, env)["venv"].startswith("install")


def start(env: dict[str, str], data_dir: Path) -> tuple[float, str]:
    """Starts viewer.sh, waits for its URL, checks the viewer answers, stops it: (seconds, stderr)."""
    began = time.monotonic()
    process = subprocess.Popen(["bash", str(SCRIPT), "--port", "0", "--data-dir", str(data_dir)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = process.stdout.readline().strip()
        seconds = time.monotonic() - began
        assert url.startswith("http://127.0.0.1:"), process.stderr.read()
        with urllib.request.urlopen(url + "api/places", timeout=20) as response:
            assert response.status == 200
    finally:
        process.terminate()
        assert process.wait(timeout=20) == 0
    return seconds, process.stderr.read()


def test_a_second_start_installs_nothing(tmp_path):
    # A venv that sees this Python's packages: pip finds Flask installed and needs no index.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    library = os.environ.get("FLICKR_LIBRARY") or str(REPO / "build" / "libflickr.so.0")  # as conftest.py
    env = os.environ | {"FLICKR_VENV": str(venv), "PYTHONPATH": "", "FLICKR_LIBRARY": library}

    first, log = start(env, tmp_path / "data")
    assert f"== venv: installing {REQUIREMENTS}" in log and stamp_path(venv).is_file()
    second, log = start(env, tmp_path / "data")
    assert "==" not in log  # no step: no install, no build
    print(f"viewer.sh: first start {first:.2f} s (pip), second {second:.2f} s")
    assert second < 15  # a few seconds, even on a loaded machine
