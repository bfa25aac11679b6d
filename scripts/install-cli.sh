#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the `flickr` command into the project's venv (scripts/venv.sh, its rules: build/venv,
# FLICKR_VENV moves it, a folder it did not make is never cleared), from this checkout, after
# scripts/build.sh:
#   - the binding (bindings/python), the applications (apps/: the `flickr` command) and the sandbox
#     (sandbox/, for `flickr sandbox`) as editable installs: the command runs the tree's Python as it is now, nothing copied to go stale;
#   - <venv>/lib/libflickr.so.0, a link to build/libflickr.so.0: the binding loads the library
#     of its Python environment's prefix when FLICKR_LIBRARY names none (docs/python.md), so the
#     command runs with no variable set, and a rebuild is what it loads next.
# Prints the venv's path on stdout (everything else on stderr), as scripts/venv.sh does.
# scripts/demo.sh runs it; so can anyone, again and again: an install that is there is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
library=$root/build/libflickr.so.0
if [ ! -e "$library" ]; then
    echo "error: install-cli: no $library: build it first (scripts/build.sh)" >&2
    exit 1
fi
venv=$(scripts/venv.sh)
python=$venv/bin/python
stamp=$venv/.libflickr/install-cli.sha256

# What the editable installs depend on: their packaging files, this checkout's place, the venv's
# Python. The same stamp and a `flickr` in place: nothing to install.
wanted_stamp() {
    { echo "$root"; cat bindings/python/pyproject.toml bindings/python/setup.py apps/pyproject.toml \
        sandbox/pyproject.toml sandbox/setup.py; "$python" -VV; } | sha256sum | cut -d' ' -f1
}

if [ "$(cat "$stamp" 2>/dev/null)" != "$(wanted_stamp)" ] || [ ! -x "$venv/bin/flickr" ]; then
    # pip builds the editable installs with the venv's own setuptools (--no-build-isolation: no
    # index asked), which takes setuptools 70.1, or 64 with `wheel`. A fresh venv of Python 3.11
    # has 65 without wheel, one of 3.12 none at all: then a newer setuptools is fetched, once.
    if ! "$python" -c '
import importlib.util, setuptools
version = tuple(int(part) for part in setuptools.__version__.split(".")[:2])
raise SystemExit(0 if version >= (70, 1) or (version >= (64, 0) and importlib.util.find_spec("wheel")) else 1)
' 2>/dev/null; then
        echo "== install-cli: installing setuptools>=70.1 into the venv (to build the editable installs)" >&2
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "setuptools>=70.1" >&2
    fi
    echo "== install-cli: installing bindings/python, apps and sandbox (editable) into $venv" >&2
    mkdir -p "$(dirname "$stamp")"
    rm -f "$stamp"  # written again only once the install succeeded
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation \
        -e "$root/bindings/python" -e "$root/apps" -e "$root/sandbox" >&2
    wanted_stamp >"$stamp"
fi

# The link, replaced only when it is one of this script's (to some checkout's build/); a file
# or another link there is someone's own library, left as it is.
link=$venv/lib/libflickr.so.0
ours=false
if [ -L "$link" ]; then
    [[ $(readlink "$link") == */build/libflickr.so.0 ]] && ours=true
elif [ ! -e "$link" ]; then
    ours=true
fi
if $ours; then
    ln -sfn "$library" "$link.install-cli.$$"
    mv -fT "$link.install-cli.$$" "$link"
else
    echo "install-cli: $link is not a link this script made: left as it is (the command loads it)" >&2
fi

# The proof: the venv's Python loads the library with no variable set, from any folder.
(cd / && env -u FLICKR_LIBRARY -u PYTHONPATH "$python" -c \
    'import flickr, flickr._ffi as f; print(f"== install-cli: flickr {flickr.__version__} on libflickr {flickr.library_version()} ({f.loaded_path()})")' >&2)
echo "$venv"
