#!/usr/bin/env bash
# Installs what the build needs, then builds and runs every test of the package.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
swift test --skip-build
