/// How an RSA signature encodes what it signs (RFC 8017 section 9).
package enum RSASignaturePadding: Sendable {
    /// The raw RSA operation on an input shorter than the modulus, left-padded with zeros.
    case none
    /// EMSA-PKCS1-v1_5; with a digest algorithm the input is wrapped in its DigestInfo, without one it is signed
    /// as given.
    case pkcs1v15(DigestAlgorithm?)
    /// EMSA-PSS with MGF1 over the same digest and a salt as long as the digest.
    case pss(DigestAlgorithm)
}

/// How RSA encryption pads the plaintext (RFC 8017 section 7).
package enum RSAEncryptionPadding: Sendable {
    /// The raw RSA operation on an input no longer than the modulus, left-padded with zeros.
    case none
    /// RSAES-PKCS1-v1_5.
    case pkcs1v15
    /// RSAES-OAEP with MGF1 over the same digest and an empty label.
    case oaep(DigestAlgorithm)

    /// The longest plaintext the padding leaves room for in a modulus of `byteCount` bytes.
    package func maximumPlaintextByteCount(modulusByteCount byteCount: Int) -> Int {
        switch self {
        case .none: byteCount
        case .pkcs1v15: byteCount - 11
        case .oaep(let digest): byteCount - 2 * digest.outputByteCount - 2
        }
    }
}
