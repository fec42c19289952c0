#!/usr/bin/env bash
# Installs what the build needs, then builds and runs every test of the package.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
# Serially: several suites start child processes, and concurrent spawning has shown rare cross-test
# interference (a child's pipe seen closed); one suite at a time keeps the run deterministic (~15 s).
swift test --skip-build --no-parallel
