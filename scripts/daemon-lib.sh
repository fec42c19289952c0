# Shared by daemon-load.sh and daemon-faults.sh (sourced): a release keychaind in a temporary directory of its own,
# and the test client, KeychainDaemonTestClient, as the client processes.

# Builds keychaind and the test client (release); sets BIN. KEYCHAIND_BIN=DIR uses the ones already in DIR.
build_daemon_and_client() {
    if [ -n "${KEYCHAIND_BIN:-}" ]; then
        BIN="$KEYCHAIND_BIN"
        return
    fi
    swift build -c release --product keychaind >/dev/null
    swift build -c release --product KeychainDaemonTestClient >/dev/null
    BIN="$(swift build -c release --show-bin-path)"
}

# Makes WORK (short: a socket path must fit in 108 bytes) with its policy directory, empty: every client is an
# unknown caller with the private group of the test client's path.
make_work_directory() {
    WORK="$(mktemp -d /tmp/kd-run.XXXXXX)"
    mkdir -p "$WORK/apps.d"
    chmod 0755 "$WORK" "$WORK/apps.d"
    SOCKET="$WORK/socket"
    DATABASE="$WORK/state/$(id -u)/keychain.db"
}

# Starts keychaind on WORK (again, after a kill: its state is kept) and waits until it answers; sets DAEMON_PID.
start_daemon() {
    env -u LD_PRELOAD "$BIN/keychaind" --foreground --state "$WORK/state" --socket "$SOCKET" \
        --policy "$WORK/apps.d" --policy-owner "$(id -u)" 2>>"$WORK/log" &
    DAEMON_PID=$!
    local tries=0
    until "$BIN/keychaind" status --socket "$SOCKET" >/dev/null 2>&1; do
        tries=$((tries + 1))
        if [ "$tries" -gt 1000 ] || ! kill -0 "$DAEMON_PID" 2>/dev/null; then
            echo "keychaind did not start; its log:" >&2
            tail -20 "$WORK/log" >&2
            exit 1
        fi
        sleep 0.02
    done
}

# Runs the test client against the daemon, never an embedded keychain.
client() {
    env -u LD_PRELOAD KEYCHAIN_SOCKET="$SOCKET" KEYCHAIN_HOME=/nonexistent/embedded-must-not-be-used \
        "$BIN/KeychainDaemonTestClient" "$@"
}

# Number of lines of FILE that begin with PREFIX.
count_lines() { grep -c "^$2" "$1" || true; }
