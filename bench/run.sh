#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmarks libflickr against its peers and physical limits; writes bench/RESULTS.md.
#
#   bench/run.sh            full run (about 15 minutes on 2 cores)
#   bench/run.sh --quick    fewer calls, a 128 MiB upload, 3 runs (a few minutes), for iterating
#   (other options: --runs N, --workloads 1,2,3,4,5,6,7,8, --output PATH, --peers-seed-photos N,
#   --peers-latency-ms L; see bench/run.py)
#
# Installs what it needs (apt: libxml2-dev, libflickcurl0 and curl; pip: flickrapi, xmltodict),
# builds libflickr in release into build-bench/ and the C bench programs into build-bench/bench/.
# flickcurl's header comes from Debian's libflickcurl-dev package, unpacked into build-bench/
# rather than installed: that package depends on libcurl4-gnutls-dev, which would replace the
# libcurl4-openssl-dev that libflickr builds against.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=build-bench/bench
mkdir -p "$out"

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
packages=(build-essential cmake pkg-config libcurl4-openssl-dev libssl-dev libexpat1-dev libxml2-dev
          libflickcurl0 curl binutils)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "== installing system packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ ! -f build-bench/peers/usr/include/flickcurl.h ]; then
    echo "== unpacking flickcurl's header (libflickcurl-dev, not installed)"
    rm -rf build-bench/peers && mkdir -p build-bench/peers/deb
    (cd build-bench/peers/deb && apt-get download libflickcurl-dev >/dev/null 2>&1 ||
        (chmod 777 . && apt-get download libflickcurl-dev >/dev/null))
    dpkg -x build-bench/peers/deb/libflickcurl-dev_*.deb build-bench/peers
fi
venv=$(scripts/venv.sh bench/requirements.txt)
export PATH="$venv/bin:$PATH" VIRTUAL_ENV="$venv"

echo "== building libflickr (release) into build-bench/"
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DFLICKR_BUILD_TESTS=OFF >/dev/null
cmake --build build-bench -j "$(nproc)" >/dev/null

echo "== building the bench programs into $out/"
cflags=(-O2 -g -Wall -Wextra -Wno-unused-parameter)
lib=(-Iinclude -Lbuild-bench -l:libflickr.so.0 -Wl,-rpath,"$root/build-bench")
cc "${cflags[@]}" -o "$out/benchserver" bench/server.c
cc "${cflags[@]}" -shared -fPIC -o "$out/libbenchalloc.so" bench/alloccount.c
cc "${cflags[@]}" -o "$out/parse_bench" bench/parse_bench.c "${lib[@]}" $(pkg-config --cflags libxml-2.0) \
    -L"$out" -lbenchalloc -Wl,-rpath,"$root/$out" -lexpat $(pkg-config --libs libxml-2.0)
cc "${cflags[@]}" -o "$out/calls_flickr" bench/calls_flickr.c "${lib[@]}" -lpthread
cc "${cflags[@]}" -o "$out/calls_curl" bench/calls_curl.c $(pkg-config --cflags --libs libcurl libcrypto)
cc "${cflags[@]}" -o "$out/calls_flickcurl" bench/calls_flickcurl.c -Ibuild-bench/peers/usr/include \
    $(pkg-config --cflags libxml-2.0) -l:libflickcurl.so.0
cc "${cflags[@]}" -o "$out/footprint" bench/footprint.c -ldl
cc "${cflags[@]}" -o "$out/rsswrap" bench/rsswrap.c

exec python3 bench/run.py "$@"
