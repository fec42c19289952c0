/// What a TPM key may do, fixed when the TPM makes it (its object attributes) and written in its blob.
package enum TPMKeyUse: UInt8, Sendable {
    /// ECDSA only (CryptoKit's `SecureEnclave.P256.Signing` keys).
    case signing = 1
    /// ECDH only (CryptoKit's `SecureEnclave.P256.KeyAgreement` keys).
    case keyAgreement = 2
    /// Both, as Apple's enclave `SecKey`s sign and agree with one key.
    case general = 3

    /// Whether the key signs.
    package var signs: Bool { self != .keyAgreement }
    /// Whether the key does ECDH.
    package var agrees: Bool { self != .signing }
}
