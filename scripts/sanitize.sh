#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sanitizer builds of libflickr and its C tests, with their own build directories:
#
#   scripts/sanitize.sh asan   build-asan/: libflickr with AddressSanitizer (swiftc
#                              -sanitize=address; Swift itself traps on overflow, and swiftc has
#                              no UBSan on Linux), the C tests with ASan + UBSan
#                              (-fsanitize=address,undefined, no recovery), LeakSanitizer on;
#                              runs every C test of ctest but the install/export checks.
#   scripts/sanitize.sh tsan   build-tsan/: libflickr and the C tests with ThreadSanitizer; runs
#                              test_stress (8 threads x 500 calls plus async requests and cancels
#                              on one shared context), test_async, test_faults and
#                              test_concurrent_handles (8 threads on one harvest, walk, source...).
#   scripts/sanitize.sh        both.
#
# Uses the Swift toolchain's clang (it has the sanitizer runtimes). Prints ctest's counts and
# exits non-zero on any sanitizer report (halt_on_error) or test failure.
set -uo pipefail
cd "$(dirname "$0")/.."
modes=("$@")
((${#modes[@]})) || modes=(asan tsan)
swift_bin=$(dirname "$(readlink -f "$(command -v swiftc)")")
cc=${CLANG:-$swift_bin/clang}
failed=()

configure_and_build() {  # dir swift-sanitizer c-flags [link-flags]
    local dir=$1 swift_flag=$2 flags=$3 link=${4:-}
    mkdir -p "$dir"
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cc++" \
        "-DCMAKE_EXE_LINKER_FLAGS=$link" \
        "-DFLICKR_SANITIZER=$swift_flag" "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" \
        -DFLICKR_TEST_MESSAGE_LOG=OFF > "$dir/sanitize-configure.log" 2>&1 || { tail -40 "$dir/sanitize-configure.log"; return 1; }
    cmake --build "$dir" -j "$(nproc)" > "$dir/sanitize-build.log" 2>&1 || { tail -40 "$dir/sanitize-build.log"; return 1; }
}

for mode in "${modes[@]}"; do
    case $mode in
    asan)
        echo "== AddressSanitizer + UndefinedBehaviorSanitizer (build-asan)"
        if configure_and_build build-asan address \
            "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"; then
            ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1 \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
                ctest --test-dir build-asan --output-on-failure -E 'install_pkgconfig|library_exports' \
                || failed+=(asan)
        else
            failed+=("asan(build)")
        fi ;;
    tsan)
        echo "== ThreadSanitizer (build-tsan)"
        # The toolchain's TSan runtime intercepts libdispatch: link the toolchain's libdispatch and BlocksRuntime.
        swift_lib=$(dirname "$swift_bin")/lib/swift/linux
        if configure_and_build build-tsan thread "-fsanitize=thread -fno-omit-frame-pointer -g" \
            "-L$swift_lib -Wl,-rpath,$swift_lib -Wl,--no-as-needed -ldispatch -lBlocksRuntime"; then
            TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/Tests/c/tsan.supp" \
                ctest --test-dir build-tsan --output-on-failure -R '^(test_stress|test_async|test_faults|test_concurrent_handles)$' \
                || failed+=(tsan)
        else
            failed+=("tsan(build)")
        fi ;;
    *) echo "usage: $0 [asan] [tsan]" >&2; exit 2 ;;
    esac
done
if ((${#failed[@]})); then
    echo "sanitizers FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "sanitizers clean: ${modes[*]}"
