#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The project's one Python environment: a venv in $FLICKR_VENV (default build/venv) that every
# script runs Python in (tests, demo, viewer, bench). Nothing is ever installed into the system's
# Python: Debian's own python3 refuses `pip install` (PEP 668, externally-managed-environment).
#
#   scripts/venv.sh [REQUIREMENTS...]          makes or reuses the venv, installs each requirements
#                                              file that changed since its last install; prints the
#                                              venv's path on stdout (everything else on stderr)
#   scripts/venv.sh --check [REQUIREMENTS...]  says what that would do ("venv: ..."), does nothing
#
# The venv is made from `${FLICKR_PYTHON:-python3}` (on Debian, apt's python3-venv provides venv).
# A requirements file is installed again only when it or the venv's Python changed: a hash of both
# is kept in the venv (.libflickr/<file>.sha256), so a second start costs no pip run at all.
#
# Never lost: the script clears or rebuilds a folder only if it made it (its marker file
# .libflickr/made-by sits in every venv it creates). A folder that is not empty and holds no venv
# of this script's is left alone with an error: FLICKR_VENV pointing at the wrong folder, a parent
# folder or a typo costs nothing. A working venv made elsewhere is used as it is, never cleared.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

check=false
if [ "${1:-}" = "--check" ]; then check=true; shift; fi
requirements=("$@")
venv=${FLICKR_VENV:-$root/build/venv}
case $venv in /*) ;; *) venv=$PWD/$venv ;; esac  # as the caller meant it, from the repository root
python=${FLICKR_PYTHON:-python3}
state=$venv/.libflickr
marker=$state/made-by

# The stamp of one requirements file: its bytes and the venv's Python.
wanted_stamp() {
    { cat "$1"; "$venv/bin/python" -VV; } | sha256sum | cut -d' ' -f1
}

stamp_file() {
    local name=${1#"$root/"}
    echo "$state/${name//\//_}.sha256"
}

# What the venv needs: create, recreate, refuse, install or reuse, and why.
venv_step() {
    if "$venv/bin/python" -c '' 2>/dev/null; then
        local file
        for file in "${requirements[@]}"; do
            [ -f "$file" ] || { echo "refuse (no requirements file $file)"; return; }
            if [ "$(cat "$(stamp_file "$file")" 2>/dev/null)" != "$(wanted_stamp "$file")" ]; then
                echo "install (${file#"$root/"} or the venv's Python changed)"
                return
            fi
        done
        echo "reuse ($venv)"
    elif [ ! -e "$venv" ] && [ ! -L "$venv" ]; then
        echo "create (no venv at $venv)"
    elif [ -d "$venv" ] && [ ! -L "$venv" ] && [ -z "$(ls -A "$venv")" ]; then
        echo "create (an empty folder at $venv)"
    elif [ -f "$marker" ] && [ ! -L "$venv" ] && [ ! -L "$state" ]; then
        echo "recreate (the venv this script made at $venv no longer works)"
    else
        echo "refuse ($venv is not empty and holds no venv made by scripts/venv.sh; nothing there" \
             "was touched: remove it or set FLICKR_VENV to another folder)"
    fi
}

step=$(venv_step)
if $check; then
    echo "venv: $step"
    exit 0
fi
case $step in
    refuse*)
        echo "error: venv: $step" >&2
        exit 2
        ;;
    create* | recreate*)
        echo "== venv: $step" >&2
        # The marker goes in first: a creation cut short is still this script's to redo.
        mkdir -p "$state"
        echo "scripts/venv.sh" >"$marker"
        clear=()
        [[ $step == recreate* ]] && clear=(--clear)
        if ! "$python" -m venv "${clear[@]}" "$venv" >&2; then
            echo "error: could not make a venv at $venv with $python" \
                 "(on Debian: apt-get install python3-venv, which scripts/install-deps.sh --system does)" >&2
            exit 1
        fi
        # venv --clear empties the folder, the marker with it.
        mkdir -p "$state"
        echo "scripts/venv.sh" >"$marker"
        ;;
esac

for file in "${requirements[@]}"; do
    stamp=$(stamp_file "$file")
    [ "$(cat "$stamp" 2>/dev/null)" = "$(wanted_stamp "$file")" ] && continue
    echo "== venv: installing ${file#"$root/"}" >&2
    mkdir -p "$state"
    rm -f "$stamp"  # written again only once the install succeeded
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$file" >&2
    wanted_stamp "$file" >"$stamp"
done
echo "$venv"
