#!/usr/bin/env bash
# Builds every fuzzer (both archive forms, type declarations, the MIME database and its magic, the Codable coder, session frames,
# the X11 and Wayland wire decoders, the PNG decoder and its zlib inflater) with libFuzzer and ASan (the recipe in Fuzz/README.md) into .build-fuzz and replays
# each committed corpus once (-runs=0): no fuzzing, so it is cheap enough for CI. Exits non-zero if the build fails
# or any input crashes, hangs (-timeout), leaks memory past -rss_limit_mb or trips ASan or a harness invariant.
#
# Usage: Fuzz/replay.sh [--findings]    (--findings also replays Fuzz/findings/*, expected to fail until fixed)
set -euo pipefail
cd "$(dirname "$0")/.."

# A trap must reach libFuzzer's own handler; the Swift runtime's backtracer can hang under ASan instead.
export SWIFT_BACKTRACE=enable=no
# ASan's quarantine keeps freed chunks; over millions of runs it passed the 2 GB RSS limit (Fuzz/README.md).
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=0}
flags=(-c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address
    -Xswiftc -DTRANSFERKIT_FUZZING --build-path .build-fuzz)
fuzzers=(ArchiveCBORFuzzer ArchiveJSONFuzzer DeclarationsFuzzer MIMEDatabaseFuzzer MIMEMagicFuzzer CBORCodableFuzzer X11WireFuzzer WaylandWireFuzzer DBusWireFuzzer SessionFrameFuzzer PNGFuzzer)

artifacts=.build-fuzz/artifacts
mkdir -p "$artifacts"
for fuzzer in "${fuzzers[@]}"; do
    # ld.gold's one warning on every ASan link is noise; any other output is shown.
    if ! swift build "${flags[@]}" --product "$fuzzer" >"$artifacts/build.log" 2>&1; then
        cat "$artifacts/build.log" >&2
        exit 1
    fi
    grep -vE "Cannot export local symbol '__asan_extra_spill_area'|^\[[0-9]+/[0-9]+\]" "$artifacts/build.log" || true
done
bin=$(swift build "${flags[@]}" --show-bin-path)

status=0
for fuzzer in "${fuzzers[@]}"; do
    inputs=("Fuzz/$fuzzer/corpus")
    if [[ "${1:-}" == "--findings" && -d "Fuzz/findings/$fuzzer" ]]; then
        inputs+=("Fuzz/findings/$fuzzer")
    fi
    echo "== $fuzzer: replaying ${inputs[*]}"
    log="$artifacts/$fuzzer.log"
    # The image harness decodes at most 1 Mi pixels (4 MiB of RGBA) and inflates at most 4 MiB: a tighter memory
    # limit catches a decoder that holds several copies of an image or a bomb's output (issue 35).
    rss_limit=2048
    [[ "$fuzzer" == PNGFuzzer ]] && rss_limit=512
    if "$bin/$fuzzer" -runs=0 -timeout=10 -rss_limit_mb="$rss_limit" -artifact_prefix="$artifacts/$fuzzer-" \
        "${inputs[@]}" >"$log" 2>&1; then
        grep -E "seed corpus|INITED" "$log"
        # A fuzzer built without coverage still replays; catch it here, before anyone fuzzes blind with it.
        if ! grep -q "inline 8-bit counters" "$log"; then
            echo "== $fuzzer: FAILED: no coverage instrumentation (see Fuzz/README.md)" >&2
            status=1
        fi
    else
        cat "$log" >&2
        echo "== $fuzzer: FAILED (report above, log in $log, input under $artifacts)" >&2
        status=1
    fi
done
exit $status
