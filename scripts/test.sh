#!/usr/bin/env bash
# Installs what the build needs, then builds and runs every test of the package.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
# Serially (~20 s): several suites start child processes and time them, and one suite at a time keeps a loaded
# machine from turning their timing into failures.
swift test --skip-build --no-parallel
# Each fuzz target for FUZZ_SECONDS (default 30) from its committed corpus, with a fixed seed (docs/reliability.md).
scripts/fuzz.sh ci "${FUZZ_SECONDS:-30}"
