#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every test: Swift unit tests (swift test), C tests (ctest), Python tests (pytest), the
# sandbox's tests (pytest sandbox/tests), the example viewer's tests (pytest, in headless Chromium),
# then the quick reliability runs: valgrind memcheck, the ASan+UBSan and TSan builds, libFuzzer smoke runs.
# Installs what it needs first: system packages, then the Python test packages into the
# project's venv (scripts/venv.sh), whose python3 every suite below runs. Each runner prints its
# counts; the exit status is non-zero if any suite failed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

scripts/install-deps.sh --system || exit 1
venv=$(scripts/venv.sh bindings/python/requirements-test.txt) || exit 1
# Every python3 from here on is the venv's: pytest, ctest's drivers (CMake is given it by
# scripts/build.sh), valgrind.sh's and the tests' own subprocesses.
export PATH="$venv/bin:$PATH" VIRTUAL_ENV="$venv"
scripts/build.sh || exit 1

failed=()

echo "== Swift unit tests (swift test)"
# In CI ($CI set) a Swift warning is an error, here as in the CMake build (scripts/build.sh).
swift test ${CI:+-Xswiftc -warnings-as-errors} || failed+=("swift test")

echo "== C tests (ctest)"
ctest --test-dir build --output-on-failure || failed+=("ctest")

# The client (bindings/python), its applications (apps/: the command, the backup) and the sandbox,
# its tests' server (sandbox/), as a checkout has them.
pythonpath="$root/bindings/python:$root/apps:$root/sandbox"

echo "== Python tests (pytest bindings/python/tests)"
FLICKR_LIBRARY="$root/build/libflickr.so.0" PYTHONPATH="$pythonpath" \
    python -m pytest "$root/bindings/python/tests" -v -p no:cacheprovider || failed+=("pytest")

echo "== Sandbox tests (pytest sandbox/tests)"
PYTHONPATH="$root/sandbox" python -m pytest "$root/sandbox/tests" -v -p no:cacheprovider || failed+=("sandbox")

echo "== Viewer tests (pytest bindings/python/examples/viewer/tests: headless Chromium; screenshots in build/viewer-screenshots)"
FLICKR_LIBRARY="$root/build/libflickr.so.0" PYTHONPATH="$pythonpath" \
    python -m pytest "$root/bindings/python/examples/viewer/tests" -v -p no:cacheprovider || failed+=("viewer")

# Reliability (quick forms; README "Testing" has the long ones).
echo "== valgrind memcheck (scripts/valgrind.sh --quick)"
scripts/valgrind.sh --quick build || failed+=("valgrind")

echo "== AddressSanitizer + UBSan, ThreadSanitizer (scripts/sanitize.sh asan tsan)"
scripts/sanitize.sh asan tsan || failed+=("sanitizers")

echo "== libFuzzer: regression inputs, then fixed-seed smoke passes (scripts/fuzz.sh --smoke)"
scripts/fuzz.sh --smoke || failed+=("fuzz")

if ((${#failed[@]})); then
    echo "FAILED suites: ${failed[*]}" >&2
    exit 1
fi
echo "All suites passed: swift test, ctest, pytest, sandbox, viewer, valgrind, sanitizers, fuzz."
