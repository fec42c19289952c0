/// HMAC-SHA-256 (RFC 2104) under one fixed key, from SHA-256 states prepared once (``OpenSSLHMAC``).
///
/// The key is set once: the hashed inner and outer pads are kept, and each MAC starts from a copy of them, so
/// the key schedule is not recomputed per call. Keychain lookups compute several MACs per call.
package final class HMACSHA256: Sendable {
    package static let outputSize = 32
    private let mac: OpenSSLHMAC

    /// Prepares HMAC-SHA-256 with `key`.
    package init(key: SecureBytes) throws {
        mac = try key.withUnsafeBytes { try OpenSSLHMAC(key: $0) }
    }

    private init(mac: OpenSSLHMAC) { self.mac = mac }

    /// A MAC under the same key whose input always starts with `prefix`: the prefix is absorbed once here,
    /// not on every call.
    package func prefixed(with prefix: [UInt8]) throws -> HMACSHA256 {
        try HMACSHA256(mac: mac.absorbing(prefix))
    }

    /// Returns the first `count` bytes of the MAC of `message`.
    package func authenticate(message: [UInt8], truncatedTo count: Int = outputSize) throws -> [UInt8] {
        try message.withUnsafeBytes { try authenticate(bytes: $0, truncatedTo: count) }
    }

    /// Returns the first `count` bytes of the MAC of `message`, from bytes the caller holds (no array needed).
    package func authenticate(bytes message: UnsafeRawBufferPointer, truncatedTo count: Int) throws -> [UInt8] {
        guard count >= 0, count <= Self.outputSize else {
            throw CryptoError.invalidLength(operation: "HMAC output", length: count)
        }
        return try mac.authenticate(message, truncatedTo: count)
    }

    /// Returns the 32-byte MAC of `message` in wiped memory, written there directly: for a MAC that is a key (the
    /// plain-array variants leave the array to the caller to wipe).
    package func authenticateIntoSecureBytes(message: [UInt8]) throws -> SecureBytes {
        try message.withUnsafeBytes { try authenticateIntoSecureBytes(bytes: $0) }
    }

    /// Returns the 32-byte MAC of `message` in wiped memory, from bytes the caller holds (a secret input need not
    /// be copied into an array).
    package func authenticateIntoSecureBytes(bytes message: UnsafeRawBufferPointer) throws -> SecureBytes {
        try SecureBytes(count: Self.outputSize) { output in try mac.authenticate(message, into: output) }
    }

    /// Returns the 32-byte MAC of the concatenation of `parts`.
    package func authenticate(_ parts: [UInt8]...) throws -> [UInt8] {
        try authenticate(parts: parts)
    }

    /// Returns the 32-byte MAC of the concatenation of `parts`.
    package func authenticate(parts: [[UInt8]]) throws -> [UInt8] {
        try authenticate(message: parts.flatMap { $0 })
    }
}
