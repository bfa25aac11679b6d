#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Starts the example viewer (bindings/python/examples/viewer) on a sandbox of its own and prints
# its URL; Ctrl-C stops both. Arguments go to `python -m viewer` (--port, --data-dir,
# --cache-max-bytes, --tile-url...).
#
# A second start takes a few seconds, because nothing is done again that was done before:
# - Python: the project's venv (scripts/venv.sh: $FLICKR_VENV, default build/venv), made once.
#   The viewer's requirements (bindings/python/examples/viewer/requirements.txt) are installed
#   only when that file or the venv's Python changed. Nothing is installed into the system's
#   Python, and no folder that is not a venv scripts/venv.sh made is ever cleared.
# - libflickr: built only when build/libflickr.so.0 is missing or older than a file it is built
#   from (Sources/, include/, cmake/, CMakeLists.txt, flickr.map), after the system packages
#   the build needs (scripts/install-deps.sh --system). FLICKR_LIBRARY naming a file is used as is.
#
# `scripts/viewer.sh --check` says what a start would do, one line per step, and does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

requirements=bindings/python/examples/viewer/requirements.txt
library=${FLICKR_LIBRARY:-$root/build/libflickr.so.0}
library_sources=(Sources include cmake CMakeLists.txt flickr.map)

# What libflickr needs: "given", "build" or "up to date", and why.
library_step() {
    if [ -n "${FLICKR_LIBRARY:-}" ]; then
        [ -f "$library" ] && echo "given (FLICKR_LIBRARY=$library)" || echo "missing (FLICKR_LIBRARY=$library)"
        return
    fi
    if [ ! -f "$library" ]; then
        echo "build (${library#"$root/"} is missing)"
        return
    fi
    local newer
    newer=$(find "${library_sources[@]}" -newer "$library" -type f -print -quit 2>/dev/null || true)
    if [ -n "$newer" ]; then
        echo "build ($newer is newer than ${library#"$root/"})"
    else
        echo "up to date (${library#"$root/"})"
    fi
}

if [ "${1:-}" = "--check" ]; then
    scripts/venv.sh --check "$requirements"
    echo "libflickr: $(library_step)"
    exit 0
fi

# Everything but the URL goes to stderr: stdout's first line is the URL.
step=$(library_step)
case $step in
    build*)
        echo "== libflickr: $step" >&2
        scripts/install-deps.sh --system >&2
        scripts/build.sh >&2
        # Up to date now, even where cmake found nothing to redo (a file touched, a branch checked
        # out and back): without this, every later start would run the build again.
        touch "$library"
        ;;
    missing*)
        echo "error: libflickr: $step" >&2
        exit 1
        ;;
esac

venv=$(scripts/venv.sh "$requirements")

[ -d /usr/share/javascript/leaflet ] ||
    echo "note: maps need Debian's libjs-leaflet (scripts/install-deps.sh --system installs it)" >&2
export FLICKR_LIBRARY="$library"
export PYTHONPATH="$root/bindings/python/examples/viewer:$root/bindings/python:$root/apps:$root/sandbox${PYTHONPATH:+:$PYTHONPATH}"
exec "$venv/bin/python" -m viewer --sandbox "$@"
