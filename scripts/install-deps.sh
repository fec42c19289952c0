#!/usr/bin/env bash
# Installs the Debian packages the build needs (SQLite, OpenSSL, keyutils, PAM, D-Bus, TPM 2.0 TSS and libsystemd
# headers, pkg-config) and the tests need (dbus-daemon, for a private bus; openssl, the command CryptoKit's tests check
# against; swtpm, the software TPM SecureEnclave's tests start; acl, whose setfacl the daemon's tests use) when they are
# missing.
set -euo pipefail
needed=()
for package in libsqlite3-dev libssl-dev libkeyutils-dev libpam0g-dev libdbus-1-dev libtss2-dev libsystemd-dev \
    dbus-daemon openssl swtpm acl pkg-config; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || needed+=("$package")
done
if [ ${#needed[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${needed[@]}"
fi
