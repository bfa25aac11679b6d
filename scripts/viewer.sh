#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Starts the example viewer (bindings/python/examples/viewer) on a sandbox of its own and prints
# its URL; Ctrl-C stops both. Installs dependencies and builds libflickr first, like demo.sh.
# Arguments go to `python -m viewer` (--port, --data-dir, --cache-max-bytes, --tile-url...).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

scripts/install-deps.sh >&2  # stdout is kept for the URL
scripts/build.sh >&2
export FLICKR_LIBRARY="$root/build/libflickr.so.0"
export PYTHONPATH="$root/bindings/python/examples/viewer:$root/bindings/python${PYTHONPATH:+:$PYTHONPATH}"
exec python3 -m viewer --sandbox "$@"
