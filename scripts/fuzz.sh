#!/usr/bin/env bash
# Fuzzes the decoders of untrusted bytes with libFuzzer (docs/reliability.md).
#
#   scripts/fuzz.sh TARGET SECONDS     fuzz one target (scripts/fuzz.sh list names them), e.g. a long run:
#                                      scripts/fuzz.sh backup-reader 3600
#   scripts/fuzz.sh all SECONDS        fuzz every target for SECONDS each
#   scripts/fuzz.sh corpus [TARGET]    run the committed corpus only (no mutation)
#   scripts/fuzz.sh ci SECONDS         what scripts/test.sh runs: every target for SECONDS, except that a
#                                      target named in Fuzz/open-findings runs its corpus only, so a known
#                                      crash waiting for its fix does not fail every test run
#   scripts/fuzz.sh list
#
# Builds KeychainFuzz with -sanitize=fuzzer,address into .build/fuzz (apart from the normal build). Each target
# starts from Fuzz/Corpus/<target> and writes what it learns to .build/fuzz/corpus/<target> (not committed);
# a crash is saved as .build/fuzz/findings/<target>/crash-* and fails the run. FUZZ_SEED fixes libFuzzer's seed
# (default 1, so a short run is repeatable); FUZZ_JOBS runs that many fuzzing processes per target; FUZZ_FLAGS
# adds libFuzzer options (e.g. "-fork=1 -ignore_crashes=1" to go on past a known crash in a long run).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 64
}

[ $# -ge 1 ] || usage
mode=$1
build_path=.build/fuzz
binary=$build_path/debug/KeychainFuzz

build() {
    # -DFUZZING drops the replayer's @main: libFuzzer's driver is the entry point. The log goes to a file so
    # that a test run shows one line instead of the whole build.
    local log=$build_path/build.log
    mkdir -p "$build_path"
    if ! swift build --product KeychainFuzz --build-path "$build_path" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING >"$log" 2>&1; then
        grep -v "Cannot export local symbol" "$log" | tail -40 >&2
        echo "fuzz.sh: the fuzz build failed (log: $log)" >&2
        exit 1
    fi
}

targets() {
    echo secitem-dictionary attribute-codec constraint-envelope keybag persistent-reference backup-reader \
        entitlements command-parser frame-decoder request-decoder certificate pkcs12 key-data
}

# Runs one target: fuzzing for $2 seconds, or over the committed corpus only when $2 is "corpus".
run_target() {
    local target=$1 seconds=$2
    [ -d "Fuzz/Corpus/$target" ] || { echo "fuzz.sh: unknown target $target (try: scripts/fuzz.sh list)" >&2; exit 64; }
    local work learned findings log
    work=$(mktemp -d)
    learned=$build_path/corpus/$target
    findings=$build_path/findings/$target
    log=$build_path/$target.log
    mkdir -p "$learned" "$findings"
    # Leaks are not findings here: Foundation keeps caches for the life of the process. Swift's own crash
    # handler is off, so that libFuzzer reports a trap with its stack and keeps the input.
    local options=(-artifact_prefix="$findings/" -print_final_stats=1 -timeout=20 -rss_limit_mb=4096
        -seed="${FUZZ_SEED:-1}")
    # shellcheck disable=SC2206  # FUZZ_FLAGS is a list of options
    options+=(${FUZZ_FLAGS:-})
    local status=0 started
    started=$(mktemp)
    if [ "$seconds" = corpus ]; then
        KEYCHAIN_FUZZ_TARGET=$target KEYCHAIN_FUZZ_WORK=$work ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no \
            "$binary" "${options[@]}" -runs=0 "Fuzz/Corpus/$target" >"$log" 2>&1 || status=$?
    else
        local jobs=()
        [ -n "${FUZZ_JOBS:-}" ] && jobs=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS")
        KEYCHAIN_FUZZ_TARGET=$target KEYCHAIN_FUZZ_WORK=$work ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no \
            "$binary" "${options[@]}" "${jobs[@]}" -max_total_time="$seconds" "$learned" "Fuzz/Corpus/$target" \
            >"$log" 2>&1 || status=$?
    fi
    rm -rf "$work"
    local runs speed
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
    # In -fork mode only the progress lines ("#N: … exec/s: S …") count the executions.
    [ -n "$runs" ] || runs=$(grep -o '^#[0-9]*:' "$log" | tail -1 | tr -d '#:' || true)
    [ -n "$speed" ] || speed=$(grep -o 'exec/s: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    local crashes
    crashes=$(find "$findings" -name 'crash-*' -newer "$started" 2>/dev/null | wc -l)
    rm -f "$started"
    if [ "$status" -ne 0 ]; then
        grep -E "ERROR|Fatal error|fuzz invariant|SUMMARY|Test unit written|^ *#[0-9]+ " "$log" | head -30 >&2
        echo "fuzz.sh: $target FOUND A CRASH (exit $status; log: $log; input saved in $findings/)" >&2
        return 1
    fi
    rmdir "$findings" 2>/dev/null || true
    if [ "$crashes" -gt 0 ]; then
        echo "$target: ${runs:-?} executions (${speed:-?}/s), $crashes crashing inputs in $findings/" >&2
        return 1
    fi
    echo "$target: ${runs:-?} executions (${speed:-?}/s), no finding"
}

case $mode in
list)
    targets | tr ' ' '\n'
    ;;
all)
    [ $# -eq 2 ] || usage
    build
    failed=0
    for target in $(targets); do run_target "$target" "$2" || failed=1; done
    exit $failed
    ;;
ci)
    [ $# -eq 2 ] || usage
    build
    failed=0
    for target in $(targets); do
        if grep -q "^$target\b" Fuzz/open-findings 2>/dev/null; then
            echo "$target: open finding (Fuzz/open-findings), corpus only"
            run_target "$target" corpus || failed=1
        else
            run_target "$target" "$2" || failed=1
        fi
    done
    exit $failed
    ;;
corpus)
    build
    failed=0
    for target in ${2:-$(targets)}; do run_target "$target" corpus || failed=1; done
    exit $failed
    ;;
-h | --help)
    usage
    ;;
*)
    [ $# -eq 2 ] || usage
    [ -d "Fuzz/Corpus/$mode" ] || { echo "fuzz.sh: unknown target $mode (try: scripts/fuzz.sh list)" >&2; exit 64; }
    build
    run_target "$mode" "$2"
    ;;
esac
