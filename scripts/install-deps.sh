#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what building and testing libflickr needs on Debian/Ubuntu:
# system packages through apt (only when missing), then the Python test packages into the
# project's venv (scripts/venv.sh: build/venv; never into the system's Python, which Debian's
# own python3 refuses, PEP 668). The Swift toolchain (6.3 or later) must already be on PATH.
# --system: the system packages and the toolchain check only.
set -euo pipefail
cd "$(dirname "$0")/.."
system_only=false
[ "${1:-}" = "--system" ] && system_only=true

packages=(build-essential cmake pkg-config libcurl4-openssl-dev libssl-dev libexpat1-dev openssl
          zlib1g-dev  # test_hostile_server gzips its 32 MB comment
          binutils file valgrind
          libimage-exiftool-perl  # flickr backup's tests read its XMP sidecars back with exiftool
          exiv2  # and with exiv2, the library digiKam and darktable read XMP through
          chromium libjs-leaflet  # the viewers' browser tests; maps offline (the backup copies Leaflet in)
          firefox-esr  # the viewer's tests in Firefox too (WebDriver BiDi: test_backup_viewer_firefox.py)
          fonts-droid-fallback  # CJK glyphs in headless Chromium, so the viewer's screenshots show titles
          fonts-noto-color-emoji  # emoji in the archive viewer's screenshots (test_backup_viewer.py)
          python3-venv  # scripts/venv.sh's environment (Debian's python3 has no venv without it)
          libjpeg-turbo-progs  # djpeg: tests decode the sandbox's JPEG pictures with it
          fish)  # test_cli_methods.py runs the fish completion in fish
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "== installing system packages: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null; then
    echo "error: the Swift toolchain (6.3 or later) is not on PATH; see https://swift.org/install" >&2
    exit 1
fi

$system_only || scripts/venv.sh bindings/python/requirements-test.txt >/dev/null
