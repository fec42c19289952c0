internal import TPMEnclave

/// What an enclave key may do, fixed when it is made and written in its stored form, so that a key made for one
/// face's type is refused by another's (Apple has no bridge between CryptoKit's enclave keys and `SecKey`'s).
package enum SecureEnclaveKeyUse: UInt8, Sendable {
    /// ECDSA only: CryptoKit's `SecureEnclave.P256.Signing` keys.
    case signing = 1
    /// ECDH only: CryptoKit's `SecureEnclave.P256.KeyAgreement` keys.
    case keyAgreement = 2
    /// Both: a `SecKey` made with `kSecAttrTokenIDSecureEnclave`, which signs and agrees with one key as Apple's do.
    case general = 3

    /// Whether the key signs.
    package var signs: Bool { self != .keyAgreement }
    /// Whether the key does ECDH.
    package var agrees: Bool { self != .signing }

    /// The TPM's name for the same use.
    var tpm: TPMKeyUse {
        switch self {
        case .signing: .signing
        case .keyAgreement: .keyAgreement
        case .general: .general
        }
    }
}
