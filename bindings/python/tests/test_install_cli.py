# SPDX-License-Identifier: MIT
"""scripts/install-cli.sh, the part of ./scripts/demo.sh that installs the `flickr` command (issue
41 §5): after the README's first command build/venv held only pip and setuptools, and no `flickr`
anywhere. Here the script installs into a temporary venv (FLICKR_VENV), and that venv's `flickr`
runs as a user runs it: from another folder, with no FLICKR_LIBRARY and no PYTHONPATH.

The install uses the venv's own setuptools (no build isolation) and asks an index only for a
setuptools able to build editable installs, when the fresh venv's is too old (Python 3.11's)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from libtest import REPO

SCRIPT = REPO / "scripts" / "install-cli.sh"
LIBRARY = REPO / "build" / "libflickr.so.0"


def user_env(venv: Path, **extra: str) -> dict[str, str]:
    """A user's environment: none of the variables the tests set to find the library or the code."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("FLICKR_") and k not in ("PYTHONPATH", "VIRTUAL_ENV", "LD_LIBRARY_PATH")}
    env.update(FLICKR_VENV=str(venv), **extra)
    return env


def install(venv: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT)], env=user_env(venv), capture_output=True, text=True,
                          timeout=600, cwd="/")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    if not LIBRARY.exists():
        pytest.fail(f"{LIBRARY} is missing: the script links the checkout's build (run scripts/build.sh)")
    venv = tmp_path_factory.mktemp("install-cli") / "venv"
    ran = install(venv)
    print(ran.stderr)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == f"{venv}\n"  # the venv's path, as scripts/venv.sh prints it
    return venv


def flickr(venv: Path, *argv: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(venv / "bin" / "flickr"), *argv], env=user_env(venv, **extra), cwd=cwd,
                          capture_output=True, text=True, timeout=60)


def test_the_installed_command_runs(installed, sandbox, tmp_path):
    helped = flickr(installed, "--help", cwd=tmp_path)
    assert helped.returncode == 0, helped.stderr
    assert helped.stdout.startswith("usage: flickr")
    # The install's first check: the binding's version, and the library it loads with no variable set.
    version = flickr(installed, "--version", cwd=tmp_path)
    assert (version.returncode, version.stderr) == (0, ""), version.stderr
    assert re.fullmatch(r"flickr (\S+)\nlibflickr \1\n", version.stdout), version.stdout
    settings = sandbox.settings
    echoed = flickr(installed, "call", "flickr.test.echo", "greeting=hello", cwd=tmp_path,
                    **settings.client_environment(token=False))
    assert echoed.returncode == 0, echoed.stderr
    answer = json.loads(echoed.stdout)
    print(f"flickr call flickr.test.echo: {answer}")
    assert answer["method"]["_text"] == "flickr.test.echo" and answer["greeting"]["_text"] == "hello"
    # `flickr sandbox` needs the sandbox package: installed too.
    served = flickr(installed, "sandbox", "--help", cwd=tmp_path)
    assert served.returncode == 0 and "--latency-ms" in served.stdout, served.stderr
    # The library as last built, through a link: a rebuild is what the command loads next.
    assert os.readlink(installed / "lib" / "libflickr.so.0") == str(LIBRARY)


def test_a_second_run_installs_nothing(installed):
    again = install(installed)
    assert again.returncode == 0, again.stderr
    assert again.stdout == f"{installed}\n"
    assert "installing" not in again.stderr, again.stderr
    assert re.search(r"== install-cli: flickr \S+ on libflickr \S+ \(" + re.escape(str(installed)), again.stderr)


def test_a_library_of_someone_elses_is_left_alone(installed, sandbox, tmp_path):
    link = installed / "lib" / "libflickr.so.0"
    os.remove(link)
    shutil.copyfile(LIBRARY, link)  # as `cmake --install build --prefix <venv>` could leave one
    try:
        ran = install(installed)
        assert ran.returncode == 0, ran.stderr
        assert "is not a link this script made: left as it is" in ran.stderr
        assert not link.is_symlink() and link.read_bytes() == LIBRARY.read_bytes()
    finally:
        os.remove(link)
    ran = install(installed)  # gone: the script's own link again
    assert ran.returncode == 0 and os.readlink(link) == str(LIBRARY), ran.stderr


def test_a_folder_that_is_no_venv_is_never_touched(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine\n")
    ran = install(mine)
    print(ran.stderr)
    assert ran.returncode == 2
    assert "holds no venv made by scripts/venv.sh" in ran.stderr
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]


def test_the_demo_installs_and_names_the_command():
    """demo.sh runs the script before the demo and names the command in its last line; the README
    says so in its set-up section, which keeps its two commands."""
    demo = (REPO / "scripts" / "demo.sh").read_text()
    assert "venv=$(scripts/install-cli.sh)" in demo
    assert demo.rstrip().splitlines()[-1] == \
        'echo "The flickr CLI: $shown/bin/flickr (try: $shown/bin/flickr --help)"'
    readme = (REPO / "README.md").read_text()
    setup = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    assert re.findall(r"```sh\n(.*?)```", setup, re.S) == ["./scripts/demo.sh\n", "./scripts/test.sh\n"]
    assert "`build/venv/bin/flickr`" in setup and "build/venv/bin/flickr --help" in setup
