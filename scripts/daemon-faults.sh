#!/usr/bin/env bash
# keychaind killed with SIGKILL in the middle of a write storm, ROUNDS times (20), release build. CLIENTS client
# processes (16) add items without pause for the whole run (the test client's `storm-until` verb), through one
# `Security` client each that is never restarted. Each round lets every client be served, kills the daemon at a
# moment that varies, leaves it down for DOWN seconds (0.5), starts it again on the same state, and checks:
#   - while it was down, every client was answered errSecNotAvailable (-25291) (`down=` lines);
#   - every add acknowledged before the kill is in the keychain after the restart (`acked=` against `list`);
#   - `PRAGMA integrity_check` of the database as the kill left it (a copy) is ok;
#   - every client is served again by the new daemon without restarting (`back=` lines), and no add failed with
#     any other status.
# The clients pause while a round is checked (a pause file), so the keychain grows only during the storms.
# Prints a line per round and a summary; exits 1 at the first round that fails.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/daemon-lib.sh
CLIENTS="${CLIENTS:-16}"
ROUNDS="${ROUNDS:-20}"
DOWN="${DOWN:-0.5}"

build_daemon_and_client
make_work_directory
pids=()
cleanup() {
    touch "$WORK/stop"
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    kill "$DAEMON_PID" 2>/dev/null && wait "$DAEMON_PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
start_daemon
for ((i = 0; i < CLIENTS; i++)); do
    client storm-until "s$i" "$WORK/stop" "$WORK/pause" >"$WORK/out$i" &
    pids+=($!)
done

# Waits up to $1 seconds until every client's output has at least $3 lines beginning with $2.
every_client_has() {
    local deadline=$((SECONDS + $1)) i
    for ((i = 0; i < CLIENTS; i++)); do
        while [ "$(count_lines "$WORK/out$i" "$2=")" -lt "$3" ]; do
            if [ "$SECONDS" -ge "$deadline" ]; then
                echo "client $i: fewer than $3 '$2=' lines after $1 s" >&2
                return 1
            fi
            sleep 0.02
        done
    done
}

fail() { echo "round $round: FAILED: $*" >&2; exit 1; }
total_checked=0
for ((round = 1; round <= ROUNDS; round++)); do
    # Every client served by this daemon (more acks than before), then a kill at a varying moment of the storm.
    for ((i = 0; i < CLIENTS; i++)); do served[i]=$(count_lines "$WORK/out$i" acked=); done
    for ((i = 0; i < CLIENTS; i++)); do
        deadline=$((SECONDS + 30))
        until [ "$(count_lines "$WORK/out$i" acked=)" -gt "${served[i]}" ]; do
            [ "$SECONDS" -lt "$deadline" ] || fail "client $i was not served before the kill"
            sleep 0.02
        done
    done
    sleep "$(awk -v r="$round" 'BEGIN { srand(r); printf "%.2f", 0.1 + rand() * 0.9 }')"
    kill -9 "$DAEMON_PID"
    wait "$DAEMON_PID" 2>/dev/null || true
    # The database as the crash left it, checked on a copy: a running daemon holds its databases alone, and the
    # next one must recover the original itself.
    rm -rf "$WORK/check" && mkdir "$WORK/check"
    cp "$DATABASE" "$WORK/check/keychain.db"
    [ ! -f "$DATABASE-wal" ] || cp "$DATABASE-wal" "$WORK/check/keychain.db-wal"
    integrity=$(sqlite3 "$WORK/check/keychain.db" 'PRAGMA integrity_check;')
    [ "$integrity" = "ok" ] || fail "integrity_check after the kill: $integrity"
    sleep "$DOWN"
    # What was promised before the kill: complete lines only.
    for ((i = 0; i < CLIENTS; i++)); do
        grep '^acked=' "$WORK/out$i" | sed 's/^acked=//' | sort -u >"$WORK/acked$i"
    done
    every_client_has 10 down "$round" || fail "a client was not answered errSecNotAvailable while the daemon was down"
    start_daemon
    every_client_has 30 back "$round" || fail "a client was not served again after the restart"
    touch "$WORK/pause"
    acked=0
    for ((i = 0; i < CLIENTS; i++)); do
        # Each client's items are of its own service: one listing per client keeps each answer small.
        client list-service "s$i" >"$WORK/list"
        grep -q '^status=0$' "$WORK/list" || fail "listing client $i's items: $(grep '^status=' "$WORK/list")"
        sed -n 's/^account=//p' "$WORK/list" | sort -u >"$WORK/stored"
        acked=$((acked + $(wc -l <"$WORK/acked$i")))
        missing=$(comm -23 "$WORK/acked$i" "$WORK/stored" | wc -l)
        [ "$missing" -eq 0 ] || fail "client $i: $missing acknowledged adds missing," \
            "e.g. $(comm -23 "$WORK/acked$i" "$WORK/stored" | head -3 | tr '\n' ' ')"
    done
    others=$(cat "$WORK"/out* | grep -c '^status=' || true)
    [ "$others" -eq 0 ] ||
        fail "adds failed with other statuses: $(cat "$WORK"/out* | grep '^status=' | head -3 | tr '\n' ' ')"
    total_checked=$acked
    rm -f "$WORK/pause"
    echo "round $round: acknowledged before the kill $acked, missing 0, integrity ok," \
        "$CLIENTS/$CLIENTS clients saw -25291 and were served again"
done
echo "keychaind faults: $ROUNDS rounds of kill -9 under $CLIENTS writing clients passed;" \
    "$total_checked acknowledged adds checked after the last restart, none lost"
