#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job: installs dependencies, builds everything, installs the `flickr` command into the
# project's venv, then runs the C examples and a short Python session against a fresh sandbox (or
# against the real Flickr when FLICKR_API_KEY and FLICKR_API_SECRET are set).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --system
scripts/build.sh
# The binding, the applications (the command) and the sandbox, as this checkout, into the project's venv
# (scripts/venv.sh); --no-deps: the demo still proves they need only the standard library.
venv=$(scripts/install-cli.sh)
"$venv/bin/python" scripts/demo.py
shown=${venv#"$PWD/"}
echo
echo "The flickr CLI: $shown/bin/flickr (try: $shown/bin/flickr --help)"
