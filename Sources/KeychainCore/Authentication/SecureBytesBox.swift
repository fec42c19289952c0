import KeychainCrypto

/// Secret bytes that cross the public API without exposing `SecureBytes`.
public struct SecureBytesBox: Sendable, CustomStringConvertible {
    let secure: SecureBytes

    /// Copies `bytes` into wiped-on-free memory.
    public init(_ bytes: [UInt8]) {
        secure = SecureBytes(bytes)
    }

    public var description: String { "<redacted>" }
}
