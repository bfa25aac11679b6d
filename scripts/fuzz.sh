#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libFuzzer over FlickrCore: the response parser, key-path lookup, the OAuth callback
# parser, the photo URL helpers, whole HTTP answers through libcurl and the call path,
# size arithmetic, the Flickr URL reader and the harvest checkpoint reader (Tests/fuzz/*.swift,
# compiled with every Sources/FlickrCore file by swiftc -sanitize=fuzzer,address -D FLICKR_FUZZING
# into build-fuzz/flickr-fuzz).
#
#   scripts/fuzz.sh --smoke                    what scripts/test.sh runs: the regressions, then a
#                                              fixed-seed pass of a fixed number of inputs per target
#                                              from the committed seeds only (nothing carried over)
#   scripts/fuzz.sh [SECONDS] [TARGET...]     open-ended: default 60 s each, every target
#   scripts/fuzz.sh 3600 xml                  a long run of one target
#   FUZZ_JOBS=2 scripts/fuzz.sh ...            targets run this many at a time (default 2)
#
# Open-ended corpora live in build-fuzz/corpus/<target>, seeded at each run from
# Tests/Fixtures/xml (and Tests/fuzz/seeds/<target>); they grow across runs. Every file in
# Tests/fuzz/regressions/<target>/ (crashes found earlier) is replayed first and must pass.
# A crash leaves its input in build-fuzz/artifacts/<target>/: copy it into
# Tests/fuzz/regressions/<target>/ once the bug is fixed. Exits non-zero on any finding.
# Long runs and what they found are recorded in Tests/fuzz/RUNS.md.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
smoke=0
if [ "${1:-}" = "--smoke" ]; then smoke=1; shift; fi
seconds=${1:-60}
shift || true
targets=("$@")
# Smoke passes: inputs per target, with libFuzzer's seed fixed (a few seconds each).
smoke_runs=${FUZZ_SMOKE_RUNS:-20000}
((${#targets[@]})) || targets=(xml keypath callback photourl answer sizes link budget checkpoint)
jobs=${FUZZ_JOBS:-2}
out=$root/build-fuzz
bin=$out/flickr-fuzz
mkdir -p "$out"

# --- build (only when a source changed) ---
mapfile -t sources < <(find Sources/FlickrCore -name "*.swift" | sort; ls Tests/fuzz/*.swift)
newest=$(ls -t "${sources[@]}" Sources/CFlickrShims/shims.c scripts/fuzz.sh cmake/swift-flags.txt \
    cmake/swift-library-flags.txt | head -1)
if [ ! -x "$bin" ] || [ "$newest" -nt "$bin" ]; then
    echo "== building $bin"
    swiftc_dir=$(dirname "$(readlink -f "$(command -v swiftc)")")
    clang=${CLANG:-$swiftc_dir/clang}
    "$clang" -c -O1 -g -fsanitize=address,fuzzer-no-link -I Sources/CFlickrShims/include \
        Sources/CFlickrShims/shims.c -o "$out/shims.o" || exit 1
    # The flags every build shares (cmake/swift-flags.txt, swift-library-flags.txt).
    read -ra shared_flags < <(cat cmake/swift-flags.txt cmake/swift-library-flags.txt | sed 's/#.*//' | tr '\n' ' ')
    swiftc -O -g -sanitize=fuzzer,address -use-ld=lld -parse-as-library -module-name FlickrCore -package-name libflickr \
        -D FLICKR_FUZZING "${shared_flags[@]}" \
        -I Sources/CCurl -I Sources/CExpat -I Sources/COpenSSL -I Sources/CFlickrShims/include \
        "${sources[@]}" "$out/shims.o" -lcurl -lexpat -lcrypto -o "$bin" > "$out/build.log" 2>&1 \
        || { tail -40 "$out/build.log" >&2; exit 1; }
fi

# --- seeds and regressions ---
failed=()
for target in "${targets[@]}"; do
    corpus=$out/corpus/$target
    ((smoke)) && corpus=$out/smoke/$target && rm -rf "$corpus"
    mkdir -p "$corpus" "$out/artifacts/$target"
    case $target in
        xml) cp Tests/Fixtures/xml/*.xml Tests/Fixtures/xml/*/*.xml "$corpus/" 2>/dev/null ;;
        keypath | photourl)
            # "first line\nXML": a path (or size) over each fixture.
            for f in Tests/Fixtures/xml/*.xml; do
                base=$(basename "$f" .xml)
                { [ "$target" = keypath ] && echo "photos.photo.0.id" || echo "q"; cat "$f"; } > "$corpus/seed-$base"
            done ;;
        callback) ;;
    esac
    [ -d "Tests/fuzz/seeds/$target" ] && cp Tests/fuzz/seeds/"$target"/* "$corpus/" 2>/dev/null
    if [ -d "Tests/fuzz/regressions/$target" ] && ls Tests/fuzz/regressions/"$target"/* >/dev/null 2>&1; then
        if FLICKR_FUZZ_TARGET=$target "$bin" -rss_limit_mb=4096 Tests/fuzz/regressions/"$target"/* \
            > "$out/regressions-$target.log" 2>&1; then
            echo "fuzz $target: $(ls Tests/fuzz/regressions/"$target" | wc -l) regression inputs pass"
        else
            echo "fuzz $target: a regression input fails again:" >&2
            tail -30 "$out/regressions-$target.log" >&2
            failed+=("$target(regression)")
        fi
    fi
done

# --- fuzz, $jobs targets at a time ---
run() {
    local target=$1 limit=(-max_total_time="$seconds") corpus=$out/corpus/$target
    if ((smoke)); then
        limit=(-runs="$smoke_runs" -seed=1)
        corpus=$out/smoke/$target
    fi
    FLICKR_FUZZ_TARGET=$target "$bin" "${limit[@]}" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$out/artifacts/$target/" "$corpus" \
        > "$out/fuzz-$target.log" 2>&1
}
pids=()
names=()
for target in "${targets[@]}"; do
    run "$target" &
    pids+=($!)
    names+=("$target")
    while (($(jobs -rp | wc -l) >= jobs)); do sleep 1; done
done
for i in "${!pids[@]}"; do
    target=${names[$i]}
    if wait "${pids[$i]}"; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/fuzz-$target.log" | grep -o '[0-9]*$')
        cov=$(grep -o 'cov: [0-9]*' "$out/fuzz-$target.log" | tail -1)
        if ((smoke)); then
            echo "fuzz $target: smoke pass, ${runs:-?} inputs (seed 1), $cov, no crash"
        else
            echo "fuzz $target: ${seconds}s, ${runs:-?} inputs, $cov, corpus $(ls "$out/corpus/$target" | wc -l) files, no crash"
        fi
    else
        echo "fuzz $target: CRASH (see $out/fuzz-$target.log, input in $out/artifacts/$target/):" >&2
        grep -A25 -m1 "ERROR\|Fatal error\|==ERROR\|deadly signal" "$out/fuzz-$target.log" >&2
        failed+=("$target")
    fi
done
echo "fuzzing: $((${#targets[@]} - ${#failed[@]})) passed, ${#failed[@]} failed${failed:+: ${failed[*]}}"
((${#failed[@]} == 0))
