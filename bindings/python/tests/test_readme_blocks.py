# SPDX-License-Identifier: MIT
"""Every code block of the READMEs runs here against a sandbox, so an example cannot drift from
the code. Each test is named after its block's file and line (`README.md:44-c`).

The READMEs: README.md and bindings/python/README.md. The blocks: ```c, ```python and ```sh; a
fence without a language is a listing, not code. A block right after `<!-- not run: REASON -->`
is not run, and the README says why where the block stands; test_blocks_not_run counts them.

The conventions, also stated in README.md ("Testing"):
- Every block sees the environment the CLI and the C examples read: FLICKR_API_KEY,
  FLICKR_API_SECRET and FLICKR_ENDPOINT (the sandbox's URL); C and Python blocks also
  FLICKR_OAUTH_TOKEN and FLICKR_OAUTH_TOKEN_SECRET (the sandbox's pre-authorised user), while a
  shell block logs in itself (`flickr auth login`), as the README's does.
- http://127.0.0.1:8080, where `flickr sandbox --port 8080` serves, stands for that URL.
- Blocks run in a directory of their own holding cat.jpg, cat2.jpg and new.jpg, which is also
  their HOME, XDG config and cache directory and token store; `flickr` (python -m flickr) is on
  PATH and BROWSER is `true`, a browser that opens nothing.
- The Python blocks of one README run in order in one interpreter, as one session.
- A C block without main() is the body of main() in a program that includes <flickr.h>,
  <stdio.h>, <stdlib.h> and <string.h>, with `ctx` made from that environment by
  bindings/c/examples/example_env.h and `api_key`, `api_secret` from it; it fails when a libflickr
  call in it failed (flickr_error_last()).
- A shell block runs under bash -e -o pipefail: every command must succeed.
- The test plays the person at the keyboard: when a block prints a sandbox authorize URL, it
  opens it (the sandbox approves at once) and follows the redirect to the block's loopback
  callback, as a browser would, or types the code the page shows.
"""
from __future__ import annotations

import json
import os
import pathlib
import re
import select
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass

import pytest

from libtest import PACKAGE_DIR, PYTHONPATH, REPO, running_sandbox

READMES = [REPO / "README.md", PACKAGE_DIR / "README.md"]
PLACEHOLDER_URL = "http://127.0.0.1:8080"
LANGUAGES = {"c": "c", "python": "python", "sh": "sh", "bash": "sh", "shell": "sh"}
BLOCK_TIMEOUT = 180  # seconds for one block, compiling included
# Blocks marked `not run`, and why, by file. A change here is a change a reviewer sees.
EXPECTED_NOT_RUN = {"README.md": 7, "bindings/python/README.md": 0}

_FENCE = re.compile(r"^```\s*([\w+-]*)\s*$")
_NOT_RUN = re.compile(r"^<!--\s*not run:\s*(.+?)\s*-->$")


@dataclass(frozen=True)
class Block:
    file: str  # relative to the repository
    line: int  # of the opening fence
    language: str  # c, python, sh, or "" for a listing
    code: str
    not_run: str | None  # the reason given in the README

    @property
    def name(self) -> str:
        return f"{self.file}:{self.line}-{self.language or 'listing'}"


def extract(path: pathlib.Path) -> list[Block]:
    """The fenced blocks of a Markdown file, with the `not run` reason that precedes any."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), None)
        assert end is not None, f"{path}:{i + 1}: a fence that never closes"
        before = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marked = _NOT_RUN.match(before)
        language = opening.group(1).lower()
        assert not language or language in LANGUAGES, f"{path}:{i + 1}: no runner for ```{language}"
        found.append(Block(str(path.relative_to(REPO)), i + 1, LANGUAGES.get(language, ""),
                           "\n".join(lines[i + 1:end]) + "\n", marked.group(1) if marked else None))
        i = end + 1
    return found


ALL_BLOCKS = [block for readme in READMES for block in extract(readme)]
RUNNABLE = [b for b in ALL_BLOCKS if b.language and b.not_run is None]


def test_blocks_not_run():
    """Each block left out says why, and their number is the one this file expects."""
    left_out = [b for b in ALL_BLOCKS if b.not_run is not None]
    assert all(b.language for b in left_out), "a listing needs no `not run` mark"
    counts = {name: sum(b.file == name for b in left_out) for name in EXPECTED_NOT_RUN}
    assert counts == EXPECTED_NOT_RUN, "\n".join(f"{b.name}: {b.not_run}" for b in left_out)
    assert len(RUNNABLE) >= len(left_out), "most blocks run"


# -- the place blocks run in -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def readme_sandbox():
    """A sandbox of this module's own: the blocks upload, tag and replace."""
    with running_sandbox() as server:
        yield server


@pytest.fixture(scope="module")
def workplace(library_path, readme_sandbox, tmp_path_factory):
    """The directory and environment every block runs in."""
    home = tmp_path_factory.mktemp("readme")
    photo = (REPO / "bindings" / "c" / "examples" / "photo.jpg").read_bytes()
    for name in ("cat.jpg", "cat2.jpg", "new.jpg"):
        (home / name).write_bytes(photo)
    bin_dir = home / ".bin"
    bin_dir.mkdir()
    (bin_dir / "flickr").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m flickr "$@"\n')
    (bin_dir / "flickr").chmod(0o755)
    lib_dir = home / ".lib"  # the linker wants libflickr.so, the loader libflickr.so.0
    lib_dir.mkdir()
    for name in ("libflickr.so", "libflickr.so.0"):
        (lib_dir / name).symlink_to(library_path)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("FLICKR_", "XDG_")) and k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(
        FLICKR_LIBRARY=str(library_path), PYTHONPATH=PYTHONPATH, PYTHONUNBUFFERED="1",
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", HOME=str(home), BROWSER="true",
        XDG_CONFIG_HOME=str(home / ".config"), XDG_CACHE_HOME=str(home / ".cache"),
        FLICKR_TOKEN_STORE=str(home / ".config" / "tokens.json"),
        FLICKR_API_KEY=readme_sandbox.api_key, FLICKR_API_SECRET=readme_sandbox.api_secret,
        FLICKR_OAUTH_TOKEN=readme_sandbox.oauth_token,
        FLICKR_OAUTH_TOKEN_SECRET=readme_sandbox.oauth_token_secret, FLICKR_ENDPOINT=readme_sandbox.url)
    return home, env, lib_dir, readme_sandbox.url


def substitute(code: str, url: str) -> str:
    return code.replace(PLACEHOLDER_URL, url)


class Person:
    """Reads what a block prints (kept in `lines`) and plays its user: an authorize URL of the
    sandbox is opened without following the redirect; a redirect is then followed to the
    loopback callback, as the browser would; a page that shows a code has it typed in."""

    def __init__(self, base: str, output, keyboard):
        self._authorize = re.compile(re.escape(base) + r"/services/oauth/authorize\?\S+")
        self._keyboard = keyboard
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(output,), daemon=True)
        self._thread.start()

    def _read(self, output) -> None:
        for line in output:
            self.lines.append(line)
            found = self._authorize.search(line)
            if found:
                try:
                    self._approve(found.group(0))
                except Exception as error:  # the block then waits in vain: say why in its output
                    self.lines.append(f"[person] could not approve: {error!r}\n")

    def _approve(self, url: str) -> None:
        class Stay(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None  # the 302 comes back as an HTTPError that carries Location

        try:
            with urllib.request.build_opener(Stay).open(url, timeout=30) as page:
                body = page.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as answer:
            if answer.code not in (301, 302, 303, 307):
                raise
            with urllib.request.urlopen(answer.headers["Location"], timeout=30):
                self.lines.append("[person] approved; the browser went back to the callback\n")
            return
        code = re.search(r'id="verifier"[^>]*>([^<]+)<', body)
        if code is None:
            raise RuntimeError("the authorize page shows neither a redirect nor a code")
        self.lines.append(f"[person] typed the code {code.group(1)}\n")
        self._keyboard.write(code.group(1) + "\n")
        self._keyboard.flush()

    def join(self) -> None:
        self._thread.join(timeout=10)


# -- Python: one interpreter per README --------------------------------------------------------------

_DRIVER = r"""
import json, os, sys, traceback
commands, results = os.fdopen(int(sys.argv[1]), "r"), os.fdopen(int(sys.argv[2]), "w")
namespace = {"__name__": "__main__"}
for request in commands:
    block = json.loads(request)
    try:  # blank lines first, so a traceback gives the README's own line numbers
        exec(compile("\n" * block["line"] + block["code"], block["file"], "exec"), namespace)
        outcome = None
    except BaseException:
        outcome = traceback.format_exc()
    sys.stdout.flush()
    sys.stderr.flush()
    results.write(json.dumps(outcome) + "\n")
    results.flush()
"""


class PythonSession:
    """One interpreter that runs a README's Python blocks in order, each when asked."""

    def __init__(self, home: pathlib.Path, env: dict, base: str):
        self.base = base
        command_read, self._command_write = os.pipe()
        self._result_read, result_write = os.pipe()
        self.process = subprocess.Popen(
            [sys.executable, "-c", _DRIVER, str(command_read), str(result_write)],
            pass_fds=(command_read, result_write), cwd=home, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        os.close(command_read)
        os.close(result_write)
        self.person = Person(base, self.process.stdout, self.process.stdin)
        self.ran: dict[int, str | None] = {}  # block line -> its traceback, None when it passed

    def run(self, block: Block) -> str | None:
        request = {"file": str(REPO / block.file), "line": block.line, "code": substitute(block.code, self.base)}
        os.write(self._command_write, (json.dumps(request) + "\n").encode())
        ready, _, _ = select.select([self._result_read], [], [], BLOCK_TIMEOUT)
        if not ready:
            self.close()
            return f"no end within {BLOCK_TIMEOUT} s"
        answer = b""
        while not answer.endswith(b"\n"):
            chunk = os.read(self._result_read, 65536)
            if not chunk:
                return "the interpreter died"
            answer += chunk
        self.ran[block.line] = json.loads(answer)
        return self.ran[block.line]

    def close(self) -> None:
        os.close(self._command_write)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.person.join()
        os.close(self._result_read)


@pytest.fixture(scope="module")
def python_sessions(workplace):
    home, env, _, base = workplace
    sessions: dict[str, PythonSession] = {}

    def session(file: str) -> PythonSession:
        if file not in sessions:
            sessions[file] = PythonSession(home, env, base)
        return sessions[file]

    yield session
    for each in sessions.values():
        each.close()


# -- C: compiled with cc against include/ and the library ------------------------------------------

_HARNESS = """#include <flickr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "example_env.h"

int main(void) {{
    const char *api_key = getenv("FLICKR_API_KEY"), *api_secret = getenv("FLICKR_API_SECRET");
    flickr_context *ctx = example_context(0);
    (void)api_key;
    (void)api_secret;
    {{
#line {line} "{file}"
{code}
    }}
    flickr_context_free(ctx);
    if (flickr_error_last()->code != FLICKR_OK) {{
        fprintf(stderr, "a libflickr call failed: %s\\n", flickr_error_last()->message);
        return 1;
    }}
    return 0;
}}
"""


def c_program(block: Block, base: str) -> str:
    code = substitute(block.code, base)
    if re.search(r"\bint\s+main\s*\(", code):
        return f'#line {block.line + 1} "{block.file}"\n{code}'
    return _HARNESS.format(line=block.line + 1, file=block.file, code=code)


def run_c(block: Block, workplace) -> tuple[int, str]:
    home, env, lib_dir, base = workplace
    source = home / f"block_{block.line}.c"
    source.write_text(c_program(block, base))
    binary = home / f"block_{block.line}"
    compiler = shutil.which("cc")
    assert compiler, "no C compiler (cc) on PATH"
    built = subprocess.run(
        [compiler, "-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-function",
         "-I", str(REPO / "include"), "-I", str(REPO / "bindings" / "c" / "examples"),
         str(source), "-o", str(binary), "-L", str(lib_dir), "-lflickr", f"-Wl,-rpath,{lib_dir}"],
        capture_output=True, text=True, timeout=BLOCK_TIMEOUT)
    if built.returncode != 0:
        return built.returncode, "compiling:\n" + built.stdout + built.stderr
    return run_with_person([str(binary)], home, env, base)


def run_with_person(argv: list[str], home: pathlib.Path, env: dict, base: str) -> tuple[int, str]:
    process = subprocess.Popen(argv, cwd=home, env=env, text=True, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    person = Person(base, process.stdout, process.stdin)
    try:
        status = process.wait(timeout=BLOCK_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        status = process.wait()
        person.lines.append(f"[test] no end within {BLOCK_TIMEOUT} s\n")
    person.join()
    return status, "".join(person.lines)


# -- every runnable block ---------------------------------------------------------------------------


@pytest.mark.parametrize("block", RUNNABLE, ids=[b.name for b in RUNNABLE])
def test_block_runs(block, workplace, python_sessions):
    home, env, _, base = workplace
    if block.language == "python":
        session = python_sessions(block.file)
        # Earlier blocks of the session first, when this one was picked alone (-k).
        for earlier in RUNNABLE:
            if earlier.file == block.file and earlier.language == "python" and earlier.line < block.line \
                    and earlier.line not in session.ran and session.run(earlier) is not None:
                pytest.fail(f"{earlier.name}, which this block follows, failed:\n{session.ran[earlier.line]}")
        start = len(session.person.lines)
        failure = session.run(block)
        output = "".join(session.person.lines[start:])
        assert failure is None, f"{block.name} failed:\n{failure}\noutput:\n{output}"
    elif block.language == "c":
        status, output = run_c(block, workplace)
        assert status == 0, f"{block.name} exited {status}:\n{output}"
    else:
        script = "set -euo pipefail\n" + substitute(block.code, base)
        without_token = {k: v for k, v in env.items() if not k.startswith("FLICKR_OAUTH_TOKEN")}
        status, output = run_with_person(["bash", "-c", script], home, without_token, base)
        assert status == 0, f"{block.name} exited {status}:\n{output}"
    print(output)  # what the block printed, for `pytest -rP`


# -- commands the prose gives -----------------------------------------------------------------------

_BUNDLE_INSTALL = re.compile(r"`(FLICKR_BUNDLE_LIBRARY=\S+ pip install \S+)`")


def test_bundle_install_command_runs_as_written(library_path, tmp_path):
    """README's `FLICKR_BUNDLE_LIBRARY=build/libflickr.so.0 pip install ./bindings/python`, typed
    at the repository's root (a copy of its build/, bindings/python and version.h), installs the package
    with the library in it. pip installs into a target folder (PIP_TARGET) and asks no index."""
    commands = sorted(set(_BUNDLE_INSTALL.findall((REPO / "README.md").read_text(encoding="utf-8"))))
    assert commands, "README.md gives no FLICKR_BUNDLE_LIBRARY=... pip install command"
    root = tmp_path / "libflickr"
    shutil.copytree(PACKAGE_DIR, root / "bindings" / "python", ignore=shutil.ignore_patterns(
        "__pycache__", "build", "*.egg-info", "tests", "examples", ".mypy_cache"))
    (root / "build").mkdir()
    shutil.copyfile(library_path, root / "build" / "libflickr.so.0")
    (root / "include" / "flickr").mkdir(parents=True)  # the version's one home, read by setup.py
    shutil.copyfile(REPO / "include" / "flickr" / "version.h", root / "include" / "flickr" / "version.h")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "pip").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pip "$@"\n')
    (bin_dir / "pip").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLICKR_", "PIP_"))}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", PIP_NO_INDEX="1",
               PIP_NO_BUILD_ISOLATION="0", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_ROOT_USER_ACTION="ignore")
    for number, command in enumerate(commands):
        target = tmp_path / f"installed{number}"
        ran = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", command], cwd=root,
                             env=dict(env, PIP_TARGET=str(target)), capture_output=True, text=True, timeout=300)
        print(f"{command}: exit {ran.returncode}")
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert (target / "flickr" / "libflickr.so.0").read_bytes() == library_path.read_bytes()
