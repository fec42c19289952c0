#!/usr/bin/env bash
# The main job: store, find, update and delete a secret with the `security` command, in a keychain home under
# .build/ so that nothing outside the checkout is touched. Prints every step; fails if any step misbehaves.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

echo "==> swift build --product security"
swift build --product security
security="$(swift build --show-bin-path)/security"

export KEYCHAIN_HOME="$PWD/.build/demo-keychain"
unset KEYCHAIN_ENTITLEMENTS
rm -rf "$KEYCHAIN_HOME"
echo "==> keychain home: $KEYCHAIN_HOME"

step() { printf '\n==> %s\n' "$1"; }
show() { printf '$ security %s\n' "$*"; }
fail() { echo "demo failed: $1" >&2; exit 1; }

step "Store a secret; the password comes on standard input, so it is never on the command line"
show "add-generic-password -a alice -s demo.example.com -l 'Demo secret' -w   (stdin: first-password)"
printf 'first-password\n' | "$security" add-generic-password -a alice -s demo.example.com -l "Demo secret" -w

step "Find it; -w prints only the password"
show "find-generic-password -a alice -s demo.example.com -w"
found="$("$security" find-generic-password -a alice -s demo.example.com -w)"
echo "$found"
[ "$found" = "first-password" ] || fail "expected first-password, got $found"

step "Update it in place with -U (update if it exists, else add)"
show "add-generic-password -a alice -s demo.example.com -j 'rotated' -U -w   (stdin: second-password)"
printf 'second-password\n' | "$security" add-generic-password -a alice -s demo.example.com -j rotated -U -w

step "Show it: attributes on standard output, the password (-g) on standard error"
show "find-generic-password -a alice -s demo.example.com -g"
"$security" find-generic-password -a alice -s demo.example.com -g 2>&1
[ "$("$security" find-generic-password -a alice -s demo.example.com -w)" = "second-password" ] \
    || fail "the update did not change the password"

step "Delete it"
show "delete-generic-password -a alice -s demo.example.com"
"$security" delete-generic-password -a alice -s demo.example.com

step "Find it again: not found, exit code 44 as on macOS"
show "find-generic-password -a alice -s demo.example.com"
status=0
"$security" find-generic-password -a alice -s demo.example.com || status=$?
echo "exit code: $status"
[ "$status" -eq 44 ] || fail "expected exit code 44, got $status"

printf '\n==> demo passed\n'
