import KeychainCrypto

/// Secret bytes that cross the public API without exposing `SecureBytes`.
package struct SecureBytesBox: Sendable, CustomStringConvertible {
    package let secure: SecureBytes

    /// Copies `bytes` into wiped-on-free memory.
    /// Takes `secure` as it is (no copy).
    package init(secure: SecureBytes) { self.secure = secure }

    package init(_ bytes: [UInt8]) {
        secure = SecureBytes(bytes)
    }

    package var description: String { "<redacted>" }
}
