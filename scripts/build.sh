#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds libflickr.so (release, self-contained), the C examples and the C tests into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
# In CI ($CI set) a Swift warning is an error.
# ctest's Python drivers run in the python3 on PATH (the project's venv under scripts/test.sh),
# not in whichever one CMake found first on an earlier run.
python=()
command -v python3 >/dev/null && python=(-DPython3_EXECUTABLE="$(command -v python3)")
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFLICKR_WARNINGS_AS_ERRORS="${CI:+ON}" "${python[@]}" >/dev/null
cmake --build build -j "$(nproc)"
