#!/usr/bin/env bash
# Installs what the build needs, then builds and runs every test of the package. On 2 cores the first build takes
# about 4 minutes and the run about two (measured under load; README.md, "Two commands").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The three NIST curves of CryptoKit are one template, its hash functions another: the committed files must be what
# they give.
scripts/generate-nist-curves.sh --check
scripts/generate-hash-functions.sh --check
# The repository's own style (.swift-format; the toolchain's swift-format), for both packages.
echo "==> swift format lint --strict"
swift format lint --strict -r Sources Tests Package.swift
(cd keychain-lint && swift format lint --strict -r Sources Tests Package.swift)
echo "==> swift build --build-tests"
swift build --build-tests
# The fully static security (scripts/build-release.sh) is built without TSS2: its variant of TPMEnclave must
# still compile with the modules above it (a scratch path of its own, so the build above is left as it is).
echo "==> KEYCHAIN_WITHOUT_TPM=1 swift build --target EnclaveKeys"
KEYCHAIN_WITHOUT_TPM=1 swift build --target EnclaveKeys --scratch-path .build/without-tpm
# Serially: several suites start child processes and time them, and one suite at a time keeps a loaded machine
# from turning their timing into failures. Every test is a swift-testing test; XCTest is left out, as its own
# runner would only print "Executed 0 tests" first.
echo "==> swift test --no-parallel (swift-testing; the last line counts the tests that ran)"
swift test --skip-build --no-parallel --disable-xctest
# keychain-lint is a package of its own (keychain-lint/): built and tested the same way.
echo "==> keychain-lint: swift build --build-tests, swift test --no-parallel"
swift build --package-path keychain-lint --build-tests
swift test --package-path keychain-lint --skip-build --no-parallel --disable-xctest
# Each fuzz target for FUZZ_SECONDS (default 30) from its committed corpus, with a fixed seed (docs/reliability.md).
echo "==> scripts/fuzz.sh ci ${FUZZ_SECONDS:-30} (libFuzzer, each target from its committed corpus)"
scripts/fuzz.sh ci "${FUZZ_SECONDS:-30}"
