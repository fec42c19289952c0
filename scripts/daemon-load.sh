#!/usr/bin/env bash
# keychaind under load (release build): CLIENTS client processes (16) at once, each doing OPS (10,000) mixed SecItem
# calls on items of its own through one daemon: 70 % lookups, 12 % adds, 10 % updates, 8 % deletes, each answer
# checked against what that client last wrote (the test client's `load` verb). Prints the answers that were wrong,
# those that were errSecNotAvailable (what a busy database would reach a caller as), "database is locked" in the
# daemon's log, throughput over the whole run, and p50/p99 latency of every call, of lookups and of writes.
# Exits 1 if any answer was wrong or busy. The daemon's directory is under /tmp (its socket path must be short).
# Figures, not a timed test: docs/benchmarks.md records them.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/daemon-lib.sh
CLIENTS="${CLIENTS:-16}"
OPS="${OPS:-10000}"

build_daemon_and_client
make_work_directory
cleanup() {
    kill "$DAEMON_PID" 2>/dev/null && wait "$DAEMON_PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
start_daemon

pids=()
for ((i = 0; i < CLIENTS; i++)); do
    client load "c$i" "$OPS" "$WORK/latency$i" "$WORK/go" >"$WORK/out$i" &
    pids+=($!)
done
# All clients connected (one untimed call each) before any starts.
for ((i = 0; i < CLIENTS; i++)); do
    until grep -q '^ready=1' "$WORK/out$i" 2>/dev/null; do sleep 0.02; done
done
touch "$WORK/go"
for pid in "${pids[@]}"; do wait "$pid"; done

field() { sed -n "s/^$1=\([0-9-]*\)$/\1/p" "$2" | tail -1; }
ops=0 wrong=0 busy=0 first="" last=""
for ((i = 0; i < CLIENTS; i++)); do
    out="$WORK/out$i"
    ops=$((ops + $(field ops "$out"))) wrong=$((wrong + $(field wrong "$out"))) busy=$((busy + $(field busy "$out")))
    start=$(field start-ns "$out") end=$(field end-ns "$out")
    if [ -z "$first" ] || [ "$start" -lt "$first" ]; then first=$start; fi
    if [ -z "$last" ] || [ "$end" -gt "$last" ]; then last=$end; fi
    grep '^wrong=[a-z]' "$out" | head -5 || true
done
locked=$(grep -c 'database is locked' "$WORK/log" || true)

percentiles() { # label, then latencies (µs) on standard input
    # Nearest rank: the smallest latency at least p of the calls did not exceed.
    sort -n | awk -v label="$1" 'function rank(p,  i) { i = int(NR * p); if (i < NR * p) i++; return v[i < 1 ? 1 : i] }
        { v[NR] = $1 } END {
        if (NR == 0) { printf "%-8s no calls\n", label; exit }
        printf "%-8s %7d calls  p50 %6d µs  p99 %6d µs  max %6d µs\n", label, NR, rank(0.5), rank(0.99), v[NR] }'
}

seconds=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
status=$("$BIN/keychaind" status --socket "$SOCKET" 2>/dev/null || true)
echo "keychaind load: $CLIENTS clients × $OPS calls (70 % lookups), $(nproc) cores, binaries in $BIN"
echo "calls: $ops in $seconds s = $(awk -v n="$ops" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }') calls/s"
echo "wrong answers: $wrong   errSecNotAvailable: $busy   'database is locked' in the log: $locked"
cat "$WORK"/latency* | awk '{ print $2 }' | percentiles all
grep -h '^r ' "$WORK"/latency* | awk '{ print $2 }' | percentiles lookups
grep -h '^w ' "$WORK"/latency* | awk '{ print $2 }' | percentiles writes
echo "$status" | grep -E '^(groups-committed|writes-committed):' || true
echo "keychaind VmRSS: $(awk '/^VmRSS/ { print $2, $3 }' "/proc/$DAEMON_PID/status")"
if [ "$wrong" -ne 0 ] || [ "$busy" -ne 0 ] || [ "$locked" -ne 0 ]; then exit 1; fi
