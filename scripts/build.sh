#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds libflickr.so (release, self-contained), the C examples and the C tests into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
# In CI ($CI set) a Swift warning is an error.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFLICKR_WARNINGS_AS_ERRORS="${CI:+ON}" >/dev/null
cmake --build build -j "$(nproc)"
