#!/usr/bin/env bash
# Writes Sources/CryptoKit/P256.swift, P384.swift and P521.swift from scripts/templates/NISTCurve.swift.in: the three
# curves have the same API with another name, curve and hash, so they are one template (as swift-crypto generates
# them), never edited one by one.
#
#   scripts/generate-nist-curves.sh           regenerate the three files
#   scripts/generate-nist-curves.sh --check   exit 1 if a committed file differs from what the template gives
set -euo pipefail
cd "$(dirname "$0")/.."
template=scripts/templates/NISTCurve.swift.in
status=0
# name, module-internal curve, display name, SECG name, hash, raw signature size
for curve in "P256 p256 P-256 secp256r1 SHA256 64" "P384 p384 P-384 secp384r1 SHA384 96" \
    "P521 p521 P-521 secp521r1 SHA512 132"; do
    read -r name lower display secg hash signature <<<"$curve"
    target=Sources/CryptoKit/$name.swift
    generated=$( {
        echo "// Generated from $template by scripts/generate-nist-curves.sh: edit the template."
        echo
        sed -e "s/{{CURVE}}/$name/g; s/{{curve}}/$lower/g; s/{{NAME}}/$display/g; s/{{SECG}}/$secg/g; s/{{HASH}}/$hash/g; s/{{SIGBYTES}}/$signature/g" \
            "$template"
    } )
    if [ "${1:-}" = "--check" ]; then
        if [ "$generated" != "$(cat "$target")" ]; then
            echo "generate-nist-curves: $target differs from $template; run scripts/generate-nist-curves.sh" >&2
            status=1
        fi
    else
        printf '%s\n' "$generated" > "$target"
    fi
done
exit $status
