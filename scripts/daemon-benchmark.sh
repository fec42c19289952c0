#!/usr/bin/env bash
# keychaind's benchmark, in one run on one disk (the temporary directory; set TMPDIR to choose another), release
# build. The driver, keychaind-benchmark, starts keychaind in a temporary directory and copies of itself as
# client processes (SecItem through the daemon, or in process), and prints a table:
#   (a) durable adds from CLIENTS processes at once through the daemon (group commit) against the single-writer
#       durable floor of SQLite + OpenSSL (`keychain-benchmarks floor`), run before and after on the same disk;
#   (b) one lookup round trip through the daemon against SecItemCopyMatching in process, of the same item, each
#       process timed from its start and again after a warm-up of untimed lookups;
#   (c) aggregate lookups per second from CLIENTS processes;
#   (d) the daemon's resident size with ITEMS items (added through the daemon, for at most FILL_SECONDS) and
#       CLIENTS clients connected.
# Environment: CLIENTS (16), ADDS per client (200), LOOKUPS per client (5000), ROUND_TRIPS (5000, in
# ROUND_TRIP_ROUNDS (5) rounds that alternate in-process and daemon lookups), ROUND_TRIP_WARM_UP (2000 untimed
# lookups before the second, warmed-up, rounds; 0 leaves them out), ITEMS
# (100000), FILL_SECONDS (600), FLOOR_OPS (300). Figures, not a timed test: docs/benchmarks.md records them.
set -euo pipefail
cd "$(dirname "$0")/.."
for product in keychaind keychain-benchmarks keychaind-benchmark; do
    swift build -c release --product "$product" >/dev/null
done
exec "$(swift build -c release --show-bin-path)/keychaind-benchmark"
