#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Starts the example viewer (bindings/python/examples/viewer) on a sandbox of its own and prints
# its URL; Ctrl-C stops both. Arguments go to `python -m viewer` (--port, --data-dir,
# --cache-max-bytes, --tile-url...).
#
# A second start takes a few seconds, because nothing is done again that was done before:
# - Python: the viewer's own environment, a venv in $VIEWER_VENV (default build/viewer-venv),
#   created once. Its requirements (bindings/python/examples/viewer/requirements.txt) are
#   installed only when that file or the venv's Python changed: their hash is kept in the venv
#   (.requirements.sha256). Nothing is installed into the system's Python.
# - libflickr: built only when build/libflickr.so.0 is missing or older than a file it is built
#   from (Sources/, include/, cmake/, CMakeLists.txt, flickr.map), after the system packages
#   the build needs (scripts/install-deps.sh --system). FLICKR_LIBRARY naming a file is used as is.
#
# `scripts/viewer.sh --check` says what a start would do, one line per step, and does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

venv=${VIEWER_VENV:-$root/build/viewer-venv}
requirements=$root/bindings/python/examples/viewer/requirements.txt
library=${FLICKR_LIBRARY:-$root/build/libflickr.so.0}
library_sources=(Sources include cmake CMakeLists.txt flickr.map)

# The hash of what the venv was made with: the requirements and the venv's Python.
wanted_stamp() {
    { cat "$requirements"; "$venv/bin/python" -VV; } | sha256sum | cut -d' ' -f1
}

# What the environment needs: "create", "install" or "reuse", and why.
venv_step() {
    if ! "$venv/bin/python" -c '' 2>/dev/null; then
        echo "create (no working venv at $venv)"
    elif [ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" != "$(wanted_stamp)" ]; then
        echo "install (${requirements#"$root/"} or the venv's Python changed)"
    else
        echo "reuse ($venv)"
    fi
}

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
    echo "venv: $(venv_step)"
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

step=$(venv_step)
if [[ $step != reuse* ]]; then
    echo "== viewer venv: $step" >&2
    if [[ $step == create* ]] && ! python3 -m venv --clear "$venv" >&2; then
        echo "error: could not create a venv at $venv (on Debian: apt-get install python3-venv)" >&2
        exit 1
    fi
    rm -f "$venv/.requirements.sha256"  # written again only once the install succeeded
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
    wanted_stamp >"$venv/.requirements.sha256"
fi

[ -d /usr/share/javascript/leaflet ] ||
    echo "note: maps need Debian's libjs-leaflet (scripts/install-deps.sh --system installs it)" >&2
export FLICKR_LIBRARY="$library"
export PYTHONPATH="$root/bindings/python/examples/viewer:$root/bindings/python${PYTHONPATH:+:$PYTHONPATH}"
exec "$venv/bin/python" -m viewer --sandbox "$@"
