#!/usr/bin/env bash
# Durable adds through keychaind: one client process, then CLIENTS client processes at once, each adding ADDS
# generic passwords through SecItemAdd (the test client), against a daemon started in a temporary directory.
# Prints adds per second for each. Environment: CLIENTS (default 16), ADDS (per client, default 200), BUILD
# (default .build/debug). Not a timed test: figures to compare, on the same disk, in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-.build/debug}
clients=${CLIENTS:-16}
adds=${ADDS:-200}
swift build --product keychaind >/dev/null
swift build --product KeychainDaemonTestClient >/dev/null
work=$(mktemp -d /tmp/kd-bench-XXXXXX)
mkdir -p "$work/apps.d"
"$build/keychaind" --foreground --state "$work/state" --socket "$work/socket" --policy "$work/apps.d" \
    --policy-owner "$(id -u)" 2>"$work/log" &
daemon=$!
trap 'kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -S "$work/socket" ] && break; sleep 0.05; done
export KEYCHAIN_SOCKET=$work/socket
run() {  # $1 = clients, $2 = prefix; prints seconds
    local start end
    start=$(date +%s.%N)
    for c in $(seq "$1"); do "$build/KeychainDaemonTestClient" storm "$2-$c" "$adds" >/dev/null & done
    wait $(jobs -p | grep -v "^$daemon$") 2>/dev/null || true
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}
one=$(run 1 single)
many=$(run "$clients" many)
printf 'one client:   %d adds in %.2f s: %.0f adds/s\n' "$adds" "$one" "$(echo "$adds / $one" | bc -l)"
printf '%d clients: %d adds in %.2f s: %.0f adds/s\n' "$clients" "$((clients * adds))" "$many" \
    "$(echo "$clients * $adds / $many" | bc -l)"
printf 'daemon RSS:   %s kB\n' "$(awk '/VmRSS/ {print $2}' "/proc/$daemon/status")"
