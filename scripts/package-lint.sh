#!/usr/bin/env bash
# Packages keychain-lint as a self-contained directory that runs on a Linux machine without a Swift toolchain
# (a CI runner, a container): the release binary, and beside it every shared library it loads from the
# toolchain (SwiftSyntax and SwiftParser from usr/lib/swift/host, the Swift runtime and Foundation from
# usr/lib/swift/linux), with a run path of $ORIGIN alone. The system's own libraries (glibc, libstdc++, libgcc)
# are not copied: the target needs a glibc at least as new as the build machine's.
#
#   scripts/package-lint.sh [OUTPUT_DIR]     default: .build/keychain-lint-<version>-linux-<arch>
#
# The last line printed is the directory; `OUTPUT_DIR/keychain-lint --version` runs from anywhere, and a
# tarball of the directory (printed on the line before) is what a workflow downloads.
# Environment: SCRATCH_PATH (default .build/portable), its own so that the portable link flags never mix
# with the debug or release builds'.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
scratch=${SCRATCH_PATH:-$repo/keychain-lint/.build/portable}
command -v readelf >/dev/null || { echo "package-lint: readelf (binutils) is needed" >&2; exit 69; }

# KEYCHAIN_LINT_PORTABLE=1 leaves the toolchain's host directory out of the run path (keychain-lint/Package.swift), and
# -no-toolchain-stdlib-rpath leaves out the runtime's; SwiftPM adds $ORIGIN.
echo "building keychain-lint (release, portable)" >&2
KEYCHAIN_LINT_PORTABLE=1 swift build -c release --product keychain-lint --package-path "$repo/keychain-lint" \
    --scratch-path "$scratch" --manifest-cache none -Xswiftc -no-toolchain-stdlib-rpath >&2
binary=$scratch/release/keychain-lint

# The binary finds its libraries only beside itself; to list them, point the loader at the toolchain's.
toolchain_lib=$(cd "$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift" && pwd)
toolchain_path=$toolchain_lib/host:$toolchain_lib/linux
libraries=$(LD_LIBRARY_PATH=$toolchain_path ldd "$binary")
if grep -q "not found" <<<"$libraries"; then
    echo "package-lint: the binary has unresolved libraries:" >&2
    grep "not found" <<<"$libraries" >&2
    exit 70
fi

version=$(LD_LIBRARY_PATH=$toolchain_path "$binary" --version | awk '{print $2}')
arch=$(uname -m)
out=${1:-$repo/.build/keychain-lint-$version-linux-$arch}
rm -rf "$out"
mkdir -p "$out"
cp "$binary" "$out/keychain-lint"

# Everything outside the system's library directories comes along. The libraries' own run paths are $ORIGIN (or
# $ORIGIN:$ORIGIN/../linux), so beside the binary they find one another.
system_dirs='^/(lib|lib64|usr/lib|usr/lib64)/'
awk '$2 == "=>" && $3 ~ /^\// {print $3}' <<<"$libraries" | while read -r library; do
    if [[ ! $library =~ $system_dirs ]]; then cp -L "$library" "$out/"; fi
done

runpath=$(readelf -d "$out/keychain-lint" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
if [ "$runpath" != '$ORIGIN' ]; then
    echo "package-lint: expected a run path of \$ORIGIN, found: $runpath" >&2
    exit 70
fi
cat > "$out/README" <<TEXT
keychain-lint $version for Linux ($arch), with the Swift libraries it needs beside it (run path \$ORIGIN).
Run ./keychain-lint --help. Documentation: docs/keychain-lint.md in the KeychainServices repository.
TEXT

# Prove it: run the copy with an empty environment, from another directory, with no path into the toolchain.
if ! (cd / && env -i "$out/keychain-lint" --version) >/dev/null; then
    echo "package-lint: the packaged binary does not start on its own" >&2
    exit 70
fi
tarball="$out.tar.gz"
tar -C "$(dirname "$out")" -czf "$tarball" "$(basename "$out")"
echo "$tarball"
echo "$out"
