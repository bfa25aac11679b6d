# SPDX-License-Identifier: MIT
"""scripts/venv.sh, the one Python environment every script runs in: it works with Debian's own
python3 (which refuses `pip install` into itself, PEP 668), installs a requirements file once, and
never clears or rebuilds a folder it did not make. Offline: the requirement is a wheel the test
writes."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SCRIPT = REPO / "scripts" / "venv.sh"
# The README's promise: the commands work with nothing but the system's directories (and Swift's)
# on PATH, so with Debian's own python3 where the machine is Debian.
SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
SYSTEM_PYTHON = Path("/usr/bin/python3")


def tiny_wheel(folder: Path) -> Path:
    """A pure-Python wheel of one module, `tinypkg`, that pip installs without an index."""
    wheel = folder / "tinypkg-1.0-py3-none-any.whl"
    files = {
        "tinypkg/__init__.py": "VALUE = 42\n",
        "tinypkg-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: tinypkg\nVersion: 1.0\n",
        "tinypkg-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                                       "Tag: py3-none-any\n",
    }
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
        archive.writestr("tinypkg-1.0.dist-info/RECORD", "".join(f"{name},,\n" for name in files)
                         + "tinypkg-1.0.dist-info/RECORD,,\n")
    return wheel


def run(venv: Path, *args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "FLICKR_PYTHON")}
    env["FLICKR_VENV"] = str(venv)
    if path is not None:
        env["PATH"] = path
    if not SYSTEM_PYTHON.exists():  # not Debian: the interpreter running the tests stands in
        env["FLICKR_PYTHON"] = getattr(sys, "_base_executable", sys.executable)
    return subprocess.run(["bash", str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=120)


def test_the_system_python_makes_the_venv_and_installs_once(tmp_path):
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(f"{tiny_wheel(tmp_path)}\n")
    venv = tmp_path / "venv"
    managed = list(Path("/usr/lib").glob("python3*/EXTERNALLY-MANAGED"))
    print(f"system python: {SYSTEM_PYTHON} (externally managed: {bool(managed)})")

    first = run(venv, str(requirements), path=SYSTEM_PATH)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == str(venv)
    assert "== venv: create" in first.stderr and "== venv: installing" in first.stderr
    shown = subprocess.run([str(venv / "bin" / "python"), "-c", "import sys, tinypkg; print(tinypkg.VALUE, sys.prefix)"],
                           capture_output=True, text=True, check=True).stdout.split()
    assert shown == ["42", str(venv)]
    if SYSTEM_PYTHON.exists():  # nothing went into the system's Python
        system = subprocess.run([str(SYSTEM_PYTHON), "-c", "import tinypkg"], capture_output=True)
        assert system.returncode != 0

    second = run(venv, str(requirements), path=SYSTEM_PATH)
    assert second.returncode == 0 and second.stdout.strip() == str(venv)
    assert second.stderr == ""  # no pip run, no step: the stamp says it is installed
    assert run(venv, "--check", str(requirements)).stdout == f"venv: reuse ({venv})\n"
    requirements.write_text(requirements.read_text() + "# changed\n")
    assert run(venv, "--check", str(requirements)).stdout.startswith("venv: install (")


def test_a_folder_it_did_not_make_is_never_cleared(tmp_path):
    # A parent folder, or a typo for one: files of someone else's, no venv.
    parent = tmp_path / "projects"
    (parent / "thesis").mkdir(parents=True)
    (parent / "thesis" / "chapter1.tex").write_text("precious")
    for venv in (parent, tmp_path / "link-to-projects"):
        if venv.name.startswith("link"):
            venv.symlink_to(parent)
        refused = run(venv)
        assert refused.returncode == 2, refused
        assert "holds no venv made by scripts/venv.sh; nothing there was touched" in refused.stderr
        assert refused.stdout == ""
        assert sorted(p.name for p in parent.rglob("*")) == ["chapter1.tex", "thesis"]
        assert (parent / "thesis" / "chapter1.tex").read_text() == "precious"

    # A working venv made elsewhere is used as it is: nothing in it is cleared.
    theirs = tmp_path / "theirs"
    subprocess.run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", "--without-pip", str(theirs)],
                   check=True)
    (theirs / "notes.txt").write_text("mine")
    used = run(theirs)
    assert used.returncode == 0 and used.stdout.strip() == str(theirs), used.stderr
    assert (theirs / "notes.txt").read_text() == "mine"
    # ...but once broken, it is not this script's to rebuild.
    (theirs / "bin" / "python").unlink()
    assert run(theirs).returncode == 2 and (theirs / "notes.txt").read_text() == "mine"

    # An empty folder is made into a venv; one this script made and that broke is made again.
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(empty).returncode == 0 and (empty / ".libflickr" / "made-by").is_file()
    (empty / "bin" / "python").unlink()
    assert run(empty, "--check").stdout.startswith("venv: recreate (")
    again = run(empty)
    assert again.returncode == 0 and "== venv: recreate" in again.stderr
    assert (empty / "bin" / "python").exists() and (empty / ".libflickr" / "made-by").is_file()


def test_no_script_installs_into_a_python_of_its_own_choosing():
    """Every `pip install` of the project's scripts goes through scripts/venv.sh's venv: in venv.sh,
    or in a script whose `venv` is the one venv.sh printed (scripts/install-cli.sh)."""
    scripts = sorted((REPO / "scripts").glob("*.sh")) + sorted((REPO / "bench").glob("*.sh")) + [REPO / ".ci" / "run"]
    pip = re.compile(r"\bpip3?\b[^\n]*\binstall\b")
    offenders = []
    for script in scripts:
        text = script.read_text()
        into_the_venv = script == SCRIPT or re.search(r"^venv=\$\(scripts/venv\.sh\)$", text, re.M)
        for number, line in enumerate(text.splitlines(), 1):
            code = line.split("#", 1)[0]
            if pip.search(code) and not (into_the_venv and '"$venv/bin/python" -m pip install' in code):
                offenders.append(f"{script.relative_to(REPO)}:{number}: {line.strip()}")
    print(f"{len(scripts)} scripts read, {len(offenders)} pip installs outside scripts/venv.sh")
    assert offenders == []
