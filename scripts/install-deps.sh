#!/usr/bin/env bash
# Installs the Debian packages the build needs (SQLite, OpenSSL, keyutils and PAM headers, pkg-config) when they
# are missing.
set -euo pipefail
needed=()
for package in libsqlite3-dev libssl-dev libkeyutils-dev libpam0g-dev pkg-config; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || needed+=("$package")
done
if [ ${#needed[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${needed[@]}"
fi
