#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# valgrind memcheck over the C test suite: every C test program of ctest runs under
# memcheck (sandbox tests through with_sandbox.py, valgrind wrapping only the test program),
# and fails on any memory error or on any byte definitely or indirectly lost.
#
#   scripts/valgrind.sh [--quick] [BUILD_DIR]     (BUILD_DIR default: build)
#
# --quick (run by scripts/test.sh) covers the boundary, hostile-input, fault, value and
# basic tests; without it every C test runs (test_stress with 20 calls per thread, and
# test_resources with 200 cycles: valgrind is ~30x slower). Prints one line per test and a count.
set -uo pipefail
cd "$(dirname "$0")/.."
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
build=${1:-build}
command -v valgrind >/dev/null || { echo "valgrind is not installed (scripts/install-deps.sh)" >&2; exit 1; }
[ -d "$build/Tests/c" ] || { echo "no C tests in $build: build first (scripts/build.sh)" >&2; exit 1; }

ctest --test-dir "$build" --show-only=json-v1 > "$build/valgrind-tests.json" || exit 1
QUICK=$quick BUILD="$build" python3 - <<'PY'
import json, os, pathlib, subprocess, sys, time

build = pathlib.Path(os.environ["BUILD"]).resolve()
quick = os.environ["QUICK"] == "1"
QUICK_SET = {"test_boundary", "test_hostile", "test_faults", "test_values", "test_basics"}
ARGS = {"test_stress": ["20"], "test_resources": ["200"]}
# A forked child's memory that only the parent's other threads pointed to (from their stacks, gone
# in the child) counts as lost there: test_fork is checked for memory errors, not for leaks.
OPTIONS = {"test_fork": ["--leak-check=no"]}
valgrind = ["valgrind", "--quiet", "--leak-check=full", "--show-leak-kinds=definite,indirect",
            "--errors-for-leak-kinds=definite,indirect", "--error-exitcode=99", "--num-callers=30",
            f"--suppressions={pathlib.Path('Tests/c/valgrind.supp').resolve()}"]
tests = json.loads((build / "valgrind-tests.json").read_text())["tests"]
passed, failed = [], []
for test in tests:
    name, command = test["name"], test.get("command") or []
    if not command or (quick and name not in QUICK_SET):
        continue
    env = dict(os.environ)
    for prop in test.get("properties", []):
        if prop["name"] == "ENVIRONMENT":
            for item in prop["value"]:
                key, _, value = item.partition("=")
                if key != "LD_PRELOAD":  # the message log is not wanted under valgrind
                    env[key] = value
    program = None
    if len(command) > 1 and command[1].endswith("with_sandbox.py"):
        i = 2 + (command[2:3] == ["--tls"])
        program = command[i]
        wrapped = command[:i] + valgrind + OPTIONS.get(name, []) + command[i:]
    elif pathlib.Path(command[0]).is_file() and open(command[0], "rb").read(4) == b"\x7fELF":
        program = command[0]
        wrapped = valgrind + OPTIONS.get(name, []) + command
    if program is None or "examples" in program:
        continue
    wrapped += ARGS.get(name, [])
    start = time.monotonic()
    result = subprocess.run(wrapped, env=env, capture_output=True, text=True)
    took = time.monotonic() - start
    noise = ("DW_FORM", "dwarf2", "debug info", "get_Form")
    report = "\n".join(l for l in result.stderr.splitlines() if not any(n in l for n in noise))
    if result.returncode == 0:
        passed.append(name)
        print(f"valgrind: {name}: clean ({took:.0f} s)")
    else:
        failed.append(name)
        print(f"valgrind: {name}: FAILED (exit {result.returncode}, {took:.0f} s)\n{report}\n{result.stdout[-2000:]}")
print(f"valgrind memcheck: {len(passed)} passed, {len(failed)} failed" + (f": {' '.join(failed)}" if failed else ""))
sys.exit(1 if failed or not passed else 0)
PY
