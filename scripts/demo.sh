#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job: installs dependencies, builds everything, then runs the C
# examples and a short Python session against a fresh sandbox (or against the
# real Flickr when FLICKR_API_KEY and FLICKR_API_SECRET are set).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --system
scripts/build.sh
# The demo needs only the standard library: it runs in the project's venv (scripts/venv.sh) with
# nothing installed, which proves that too.
venv=$(scripts/venv.sh)
exec "$venv/bin/python" scripts/demo.py
