#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds libflickr.so (release, self-contained), the C examples and the C tests into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
