import KeychainCrypto

/// A secret read from the keychain, in memory that is wiped when the last reference goes away.
/// Its `description` never shows the bytes.
public struct Secret: Sendable, CustomStringConvertible {
    package let storage: SecureBytes

    package init(_ storage: SecureBytes) { self.storage = storage }

    /// Copies `bytes` into wiped-on-free memory.
    public init(_ bytes: [UInt8]) { storage = SecureBytes(bytes) }

    /// The number of bytes.
    public var count: Int { storage.count }

    /// Read access to the bytes for the duration of `body`.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes(body)
    }

    /// A copy the caller owns (and should wipe when done).
    public var bytes: [UInt8] { storage.bytes }

    public var description: String { "Secret(\(count) bytes, redacted)" }
}
