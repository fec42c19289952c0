#!/usr/bin/env bash
# Builds the release `security` command as one fully static executable, with `keychain-authenticate` (the PAM
# helper for device-owner prompts, which `security` looks for beside itself) next to it, and prints its path.
#
#   scripts/build-release.sh                 build; the path of the binary is the last line printed
#   scripts/build-release.sh --install DIR   also copy both to DIR (e.g. ~/.local/bin)
#
# Static because a command is judged by its start-up: linked statically (Swift runtime, Foundation, OpenSSL,
# SQLite, keyutils and glibc) `security find-generic-password -w` runs in about 5 ms; the same code linked
# against 22 shared libraries takes about 16 ms, most of it in the dynamic loader (docs/benchmarks.md).
# The binary uses the build machine's glibc for user lookups (NSS), so run it on the system it was built on.
#
# The shipped binary is stripped: 78 MB as linked, 62 MB without symbols and debug information, which are kept
# aside in `security.debug` beside it (a GNU debuglink lets gdb and lldb find them). Most of what is left is
# Foundation's ICU data (38 MB of .rodata), linked in with Foundation.
#
# Environment: SCRATCH_PATH (default .build/static), its own so that flags never mix with the debug build's.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
install_dir=""
case "${1:-}" in
    "") ;;
    --install)
        [ -n "${2:-}" ] || { echo "usage: $0 [--install DIR]" >&2; exit 64; }
        install_dir=$2 ;;
    *) echo "usage: $0 [--install DIR]" >&2; exit 64 ;;
esac
"$repo/scripts/install-deps.sh"

scratch=${SCRATCH_PATH:-$repo/.build/static}
# Debian has no static TSS2 libraries: the static build leaves the TPM back end out (Package.swift), and
# SecureEnclave keys in this binary answer errSecUnimplemented unless the software enclave is opted in.
export KEYCHAIN_WITHOUT_TPM=1
build=(swift build -c release --product security --package-path "$repo" --scratch-path "$scratch"
       -Xswiftc -static-executable)
echo "building: ${build[*]}" >&2
# glibc's linker notes about getpwnam and friends in a static binary are expected; keep the log readable.
"${build[@]}" 2>&1 | grep -v -e "in statically linked applications requires at runtime" -e "is dangerous, better use" >&2
built="$("${build[@]}" --show-bin-path)/security"
[ -x "$built" ] || { echo "no security binary at $built" >&2; exit 1; }

# Ship it stripped, with the debug information aside (security.debug), in a directory of its own so that the
# build's unstripped binary stays as SwiftPM left it.
release_dir="$scratch/stripped"
mkdir -p "$release_dir"
binary="$release_dir/security"
objcopy --only-keep-debug "$built" "$release_dir/security.debug"
objcopy --strip-all --add-gnu-debuglink="$release_dir/security.debug" "$built" "$binary"
chmod 0755 "$binary"
echo "security: $(du -h "$built" | cut -f1) as built, $(du -h "$binary" | cut -f1) stripped" \
    "(debug information in $release_dir/security.debug)" >&2

# The helper links PAM, whose modules are shared libraries: dynamic glibc and PAM, the Swift runtime linked in.
helper_build=(swift build -c release --product keychain-authenticate --package-path "$repo" --scratch-path "$scratch-helper"
              --static-swift-stdlib)
echo "building: ${helper_build[*]}" >&2
"${helper_build[@]}" >&2
install -m 0755 "$("${helper_build[@]}" --show-bin-path)/keychain-authenticate" "$(dirname "$binary")/keychain-authenticate"

if [ -n "$install_dir" ]; then
    mkdir -p "$install_dir"
    install -m 0755 "$binary" "$install_dir/security"
    install -m 0755 "$(dirname "$binary")/keychain-authenticate" "$install_dir/keychain-authenticate"
    binary="$install_dir/security"
fi
echo "$binary"
