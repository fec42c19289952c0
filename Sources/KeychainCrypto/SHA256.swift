/// SHA-256, for non-secret fingerprints.
package enum SHA256 {
    package static let outputSize = 32

    /// Returns the 32-byte digest of `data`.
    package static func hash(_ data: [UInt8]) throws -> [UInt8] {
        try OpenSSLDigest.sha256(data)
    }
}
