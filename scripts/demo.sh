#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job: installs dependencies, builds everything, then runs the C
# examples and a short Python session against a fresh sandbox (or against the
# real Flickr when FLICKR_API_KEY and FLICKR_API_SECRET are set).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build.sh
exec python3 scripts/demo.py
