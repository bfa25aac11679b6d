#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the build into a temporary prefix and consumes it the two ways users
# do: a C program built with pkg-config, and a CMake project with find_package.
set -euo pipefail
build_dir=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
passed=0
failed=0
check() { # check DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $what" >&2; fi
}

cmake --install "$build_dir" --prefix "$prefix" >/dev/null
version=$(sed -n 's/^#define FLICKR_VERSION "\(.*\)"/\1/p' "$source_dir/include/flickr/version.h")
# The library directory GNUInstallDirs chose (lib, lib64, lib/x86_64-linux-gnu...).
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
lib=$prefix/${libdir:?no CMAKE_INSTALL_LIBDIR in $build_dir/CMakeCache.txt}
echo "library directory: $libdir"

check "real library file" test -f "$lib/libflickr.so.$version"
check "soname link" test "$(readlink "$lib/libflickr.so.0")" = "libflickr.so.$version"
check "dev link" test "$(readlink "$lib/libflickr.so")" = "libflickr.so.0"
check "umbrella header" test -f "$prefix/include/flickr.h"
check "module headers" test -f "$prefix/include/flickr/context.h"
check "pkg-config file" test -f "$lib/pkgconfig/flickr.pc"
check "CMake config" test -f "$lib/cmake/Flickr/FlickrConfig.cmake"
check "CMake version file" test -f "$lib/cmake/Flickr/FlickrConfigVersion.cmake"

cat >"$work/app.c" <<'C'
#include <flickr.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    flickr_context *ctx = NULL;
    if (flickr_context_new(&ctx, "key", "secret") != FLICKR_OK) return 1;
    flickr_context_free(ctx);
    printf("libflickr %s\n", flickr_version());
    return strcmp(flickr_version(), FLICKR_VERSION) == 0 ? 0 : 1;
}
C

# 1. pkg-config, with the README's own line: the program it builds starts without any
# LD_LIBRARY_PATH (its rpath), from a prefix the loader does not search.
export PKG_CONFIG_PATH=$lib/pkgconfig
check "pkg-config libdir is the library directory" test "$(realpath "$(pkg-config --variable=libdir flickr)")" = "$(realpath "$lib")"
check "pkg-config knows the version" test "$(pkg-config --modversion flickr)" = "$version"
readme_line=$(grep -m1 '^cc app.c ' "$source_dir/README.md" || true)
check "README gives a cc line" test -n "$readme_line"
check "C app builds with the README's line" \
    env -C "$work" CFLAGS= bash -e -c "$readme_line -std=c99 -Wall -Werror -o app"
check "pkg-config app runs" env -u LD_LIBRARY_PATH "$work/app"
check "app needs the soname" sh -c "readelf -d '$work/app' | grep -q 'NEEDED.*libflickr.so.0'"

# 2. CMake find_package.
mkdir -p "$work/cmake-app"
cp "$work/app.c" "$work/cmake-app/app.c"
cat >"$work/cmake-app/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(flickr_consumer C)
find_package(Flickr 0.1 REQUIRED)
add_executable(app app.c)
target_link_libraries(app PRIVATE Flickr::flickr)
CMAKE
check "CMake consumer configures" cmake -S "$work/cmake-app" -B "$work/cmake-app/build" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release
check "CMake consumer builds" cmake --build "$work/cmake-app/build"
check "CMake app runs" "$work/cmake-app/build/app"
mkdir -p "$work/cmake-too-new"
sed 's/find_package(Flickr 0.1 REQUIRED)/find_package(Flickr 1.0 REQUIRED)/' \
    "$work/cmake-app/CMakeLists.txt" >"$work/cmake-too-new/CMakeLists.txt"
cp "$work/app.c" "$work/cmake-too-new/app.c"
check "find_package refuses another major version" sh -c \
    "! cmake -S '$work/cmake-too-new' -B '$work/cmake-too-new/build' -DCMAKE_PREFIX_PATH='$prefix' >/dev/null 2>&1"

echo "$passed passed, $failed failed"
test "$failed" -eq 0
