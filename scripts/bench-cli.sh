#!/usr/bin/env bash
# Benchmark: `security find-generic-password -w` as a whole process against `secret-tool lookup` on a headless
# gnome-keyring, both reading the same secret. Prints the median and p90 wall time of each and their ratio;
# the target is ours ≤ half of secret-tool's median.
#
#   scripts/bench-cli.sh [RUNS]          RUNS lookups of each (default 200), interleaved one of each per round
#
# Environment:
#   LINK           how `security` is linked: static (default; scripts/build-release.sh, the release build),
#                  static-stdlib (--static-swift-stdlib) or dynamic (plain `swift build -c release`)
#   SCRATCH_PATH   swift build's scratch path for the static-stdlib and dynamic builds (default: .build)
#   SECURITY_BIN   a `security` binary to use as it is; skips the build
#   WARMUP         unmeasured lookups of each before measuring (default 10)
#
# Everything runs in a temporary directory: the keychain (KEYCHAIN_HOME), and HOME/XDG_* for gnome-keyring, which
# is started with its own private session bus. The user's keychain, keyring and session bus are never touched.
# All daemons and the directory are removed on exit.
set -euo pipefail

runs=${1:-200}
warmup=${WARMUP:-10}
if ! [[ $runs =~ ^[1-9][0-9]*$ && $warmup =~ ^[0-9]+$ ]]; then
    echo "usage: $0 [RUNS]   (RUNS and WARMUP are positive integers)" >&2
    exit 64
fi
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
secret='bench-s3cret-Pässword'
keyring_password='bench-keyring-password'

# --- Packages -------------------------------------------------------------------------------------------------
needed=()
for package in gnome-keyring libsecret-tools dbus dbus-x11; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || needed+=("$package")
done
if [ ${#needed[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing ${needed[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${needed[@]}" >&2
fi

# --- The security command -------------------------------------------------------------------------------------
link=${LINK:-static}
if [ -n "${SECURITY_BIN:-}" ]; then
    security=$SECURITY_BIN
    link="given"
elif [ "$link" = static ]; then
    security=$("$repo/scripts/build-release.sh" | tail -n 1)
else
    build=(swift build -c release --product security --package-path "$repo")
    [ -n "${SCRATCH_PATH:-}" ] && build+=(--scratch-path "$SCRATCH_PATH")
    case "$link" in
        static-stdlib) build+=(--static-swift-stdlib) ;;
        dynamic) ;;
        *) echo "LINK is static, static-stdlib or dynamic, not $link" >&2; exit 64 ;;
    esac
    echo "building: ${build[*]}" >&2
    "${build[@]}" >&2
    security="$("${build[@]}" --show-bin-path)/security"
fi
[ -x "$security" ] || { echo "no security binary at $security" >&2; exit 1; }

# --- A private world, removed on exit -------------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-cli.XXXXXX")
dbus_pid=""
keyring_pid=""
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    for pid in "$keyring_pid" "$dbus_pid"; do
        [ -n "$pid" ] || continue
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.02; done
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

export HOME=$work/home
export XDG_DATA_HOME=$HOME/.local/share XDG_CONFIG_HOME=$HOME/.config XDG_CACHE_HOME=$HOME/.cache
export XDG_RUNTIME_DIR=$work/run
export KEYCHAIN_HOME=$work/keychain
unset DISPLAY WAYLAND_DISPLAY GNOME_KEYRING_CONTROL SSH_AUTH_SOCK KEYCHAIN_ENTITLEMENTS KEYCHAIN_DEBUG
mkdir -p "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"
mkdir -m 700 -p "$XDG_RUNTIME_DIR"
cd "$work"

# --- Our keychain ---------------------------------------------------------------------------------------------
printf '%s\n' "$secret" | "$security" add-generic-password -a bench -s bench.example -w

# --- A private session bus and a headless gnome-keyring on it -------------------------------------------------
# The bus runs in the foreground of a background job so its pid is ours to stop; it writes its address to fd 3.
dbus-daemon --session --address="unix:path=$work/bus" --nofork --nopidfile --print-address=3 3>"$work/bus-address" 2>"$work/dbus.log" &
dbus_pid=$!
for _ in $(seq 250); do [ -s "$work/bus-address" ] && break; sleep 0.02; done
[ -s "$work/bus-address" ] || { echo "dbus-daemon did not start:" >&2; cat "$work/dbus.log" >&2; exit 1; }
DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$work/bus-address")
export DBUS_SESSION_BUS_ADDRESS

# --unlock reads the login keyring's password from stdin (and creates that keyring, as the default one, when there
# is none). --foreground keeps it our child, so no stray daemon outlives the benchmark.
printf '%s' "$keyring_password" |
    gnome-keyring-daemon --foreground --unlock --components=secrets >"$work/keyring.log" 2>&1 &
keyring_pid=$!
secrets_owned() {
    dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'
}
for _ in $(seq 250); do secrets_owned && break; sleep 0.02; done
secrets_owned || { echo "gnome-keyring-daemon did not start:" >&2; cat "$work/keyring.log" >&2; exit 1; }

printf '%s' "$secret" | secret-tool store --label=bench service bench.example account bench

# --- Measure --------------------------------------------------------------------------------------------------
ours=("$security" find-generic-password -a bench -s bench.example -w)
theirs=(secret-tool lookup service bench.example account bench)

# Runs a command with stdout to a file and checks it printed the secret (with or without a final newline).
check() {
    local name=$1; shift
    "$@" >"$work/out" 2>"$work/err" || {
        echo "$name failed ($?): $(cat "$work/err")" >&2; exit 1; }
    local line=""
    IFS= read -r line <"$work/out" || true
    if [ "$line" != "$secret" ]; then
        echo "$name printed \"$line\", not the secret" >&2; exit 1
    fi
}
for _ in $(seq "$warmup"); do check security "${ours[@]}"; check secret-tool "${theirs[@]}"; done

# One of each per round, so both meet the same machine load. Times are microseconds from bash's EPOCHREALTIME
# (no fork to read the clock): fork + exec + run + exit + wait of one whole process.
ours_times=()
theirs_times=()
microseconds() { local t=${1/[.,]/}; echo $((10#$t)); }
for ((i = 0; i < runs; i++)); do
    t0=$EPOCHREALTIME
    "${ours[@]}" >"$work/out" 2>"$work/err" || { echo "security failed: $(cat "$work/err")" >&2; exit 1; }
    t1=$EPOCHREALTIME
    IFS= read -r line <"$work/out" || true
    [ "$line" = "$secret" ] || { echo "security printed \"$line\", not the secret" >&2; exit 1; }
    ours_times+=($(($(microseconds "$t1") - $(microseconds "$t0"))))

    t0=$EPOCHREALTIME
    "${theirs[@]}" >"$work/out" 2>"$work/err" || { echo "secret-tool failed: $(cat "$work/err")" >&2; exit 1; }
    t1=$EPOCHREALTIME
    IFS= read -r line <"$work/out" || true
    [ "$line" = "$secret" ] || { echo "secret-tool printed \"$line\", not the secret" >&2; exit 1; }
    theirs_times+=($(($(microseconds "$t1") - $(microseconds "$t0"))))
done

# Prints "median p90 min" in microseconds: median of the sorted times, p90 by nearest rank.
summary() {
    printf '%s\n' "$@" | sort -n | awk '
        { t[NR] = $1 }
        END {
            median = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
            rank = int(0.9 * NR); if (rank < 0.9 * NR) rank++
            printf "%d %d %d\n", median, t[rank], t[1]
        }'
}
read -r ours_median ours_p90 ours_min < <(summary "${ours_times[@]}")
read -r theirs_median theirs_p90 theirs_min < <(summary "${theirs_times[@]}")

awk -v runs="$runs" -v bin="$security" -v link="$link" -v om="$ours_median" -v op="$ours_p90" -v on="$ours_min" \
    -v tm="$theirs_median" -v tp="$theirs_p90" -v tn="$theirs_min" '
    BEGIN {
        printf "whole-process lookup of one generic password, %d runs each (interleaved), wall time in ms\n", runs
        printf "security: %s (link: %s)\n", bin, link
        printf "%-44s %8s %8s %8s\n", "", "median", "p90", "min"
        printf "%-44s %8.2f %8.2f %8.2f\n", "security find-generic-password -w", om / 1000, op / 1000, on / 1000
        printf "%-44s %8.2f %8.2f %8.2f\n", "secret-tool lookup (gnome-keyring, D-Bus)", tm / 1000, tp / 1000, tn / 1000
        ratio = om / tm
        printf "ratio (security / secret-tool), median: %.2f; p90: %.2f\n", ratio, op / tp
        printf "target: security median <= 0.50 x secret-tool median: %s\n", (ratio <= 0.5) ? "MET" : "NOT MET"
    }'
