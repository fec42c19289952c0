/// The 32 bytes an ECDSA signature on P-256 is computed over for a digest of any size: the digest's leftmost 256
/// bits when it is longer (SHA-384, SHA-512), its value left-padded with zeros when shorter (SHA-1), as ECDSA
/// itself reads a digest (`bits2int`, FIPS 186-5). A standard verifier given the full digest accepts the result,
/// so a key that signs 32-byte digests only (a TPM's P-256 scheme, the enclave's) signs every digest.
package enum ECDSADigest {
    package static func p256(_ digest: [UInt8]) -> [UInt8] {
        if digest.count >= 32 { return Array(digest.prefix(32)) }
        return [UInt8](repeating: 0, count: 32 - digest.count) + digest
    }
}
