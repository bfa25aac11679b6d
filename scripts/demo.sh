#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job: installs dependencies, builds everything, and runs the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

scripts/install-deps.sh
scripts/build.sh

echo
echo "== C: bindings/c/examples/hello"
build/bindings/c/examples/hello

echo
echo "== Python: the flickr package"
FLICKR_LIBRARY="$root/build/libflickr.so.0" PYTHONPATH="$root/bindings/python" python3 - <<'PY'
import flickr
print(f"flickr package {flickr.__version__}, native libflickr {flickr.library_version()}")
with flickr.Flickr("demo-key", "demo-secret") as api:
    print("REST endpoint:", api.get_option("rest_endpoint"))
    try:
        api.set_option("rest_endpoint", "ftp://nowhere")
    except flickr.InvalidArgument as error:
        print("refused as expected:", error)
PY
