#!/usr/bin/env bash
# Writes CryptoKit's hash functions (SHA-2, SHA-3 and the Insecure ones) from scripts/templates/HashFunction.swift.in:
# each is the same API over another OpenSSL state, so they are one template, never edited one by one.
#
#   scripts/generate-hash-functions.sh           regenerate the files
#   scripts/generate-hash-functions.sh --check   exit 1 if a committed file differs from what the template gives
set -euo pipefail
cd "$(dirname "$0")/.."
template=scripts/templates/HashFunction.swift.in
# file @ namespace @ type @ algorithm @ summary @ block bytes @ block note @ digest bytes @ state
functions=(
    "SHA256.swift@@SHA256@SHA-256@SHA-256 (FIPS 180-4), producing 32-byte digests.@64@@32@SHA256State"
    "SHA384.swift@@SHA384@SHA-384@SHA-384 (FIPS 180-4), producing 48-byte digests.@128@@48@SHA384State"
    "SHA512.swift@@SHA512@SHA-512@SHA-512 (FIPS 180-4), producing 64-byte digests.@128@@64@SHA512State"
    "SHA3.swift@@SHA3_256@SHA3-256@SHA3-256 (FIPS 202), producing 32-byte digests.@136@ (its rate)@32@SHA3State<SHA3Size256>"
    "SHA3.swift@@SHA3_384@SHA3-384@SHA3-384 (FIPS 202), producing 48-byte digests.@104@ (its rate)@48@SHA3State<SHA3Size384>"
    "SHA3.swift@@SHA3_512@SHA3-512@SHA3-512 (FIPS 202), producing 64-byte digests.@72@ (its rate)@64@SHA3State<SHA3Size512>"
    "Insecure+MD5.swift@Insecure@MD5@MD5@MD5 (RFC 1321), which no longer resists collisions: for compatibility only, producing 16-byte digests.@64@@16@MD5State"
    "Insecure+SHA1.swift@Insecure@SHA1@SHA-1@SHA-1 (FIPS 180-4), which no longer resists collisions: for compatibility only, producing 20-byte digests.@64@@20@SHA1State"
)

# The body of one hash function and its digest, nested in its namespace's extension when it has one.
body() {
    local namespace=$1 name=$2 title=$3 summary=$4 block=$5 note=$6 bytes=$7 state=$8
    local text
    text=$(sed -e "s#{{SUMMARY}}#$summary#g; s#{{NAME}}#$name#g; s#{{TITLE}}#$title#g; s#{{BLOCK}}#$block#g" \
        -e "s#{{BLOCKNOTE}}#$note#g; s#{{BYTES}}#$bytes#g; s#{{STATE}}#$state#g" "$template")
    if [ -n "$namespace" ]; then
        echo "extension $namespace {"
        sed -e 's/^\(.\)/    \1/' <<<"$text"
        echo "}"
    else
        printf '%s\n' "$text"
    fi
}

declare -A contents=()
files=()
for function in "${functions[@]}"; do
    IFS=@ read -r file namespace name title summary block note bytes state <<<"$function"
    if [ -z "${contents[$file]+set}" ]; then
        files+=("$file")
        contents[$file]="// Generated from $template by scripts/generate-hash-functions.sh: edit the template.

internal import CryptoKitOpenSSL
"
    fi
    contents[$file]+="
$(body "$namespace" "$name" "$title" "$summary" "$block" "$note" "$bytes" "$state")
"
done

status=0
for file in "${files[@]}"; do
    target=Sources/CryptoKit/$file
    if [ "${1:-}" = "--check" ]; then
        if [ "${contents[$file]}" != "$(cat "$target")
" ]; then
            echo "generate-hash-functions: $target differs from $template; run scripts/generate-hash-functions.sh" >&2
            status=1
        fi
    else
        printf '%s' "${contents[$file]}" > "$target"
    fi
done
exit $status
