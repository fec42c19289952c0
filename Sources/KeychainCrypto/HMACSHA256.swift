internal import COpenSSL

/// HMAC-SHA-256 (RFC 2104) under one fixed key.
///
/// The key's inner and outer padded blocks are hashed once, here; each MAC then starts from copies of those
/// two SHA-256 states. Keychain lookups compute several MACs per call, and OpenSSL's EVP_MAC path costs
/// about five times as much per MAC (context duplication and provider dispatch) for the same result, which
/// the RFC 4231 test vectors check.
package final class HMACSHA256: @unchecked Sendable {  // safe: both states are immutable after init
    package static let outputSize = 32
    private static let blockSize = 64

    private let inner: SHA256_CTX
    private let outer: SHA256_CTX

    /// Prepares HMAC-SHA-256 with `key`.
    package init(key: SecureBytes) throws {
        var block = [UInt8](repeating: 0, count: Self.blockSize)
        defer { wipe(&block) }
        if key.count > Self.blockSize {
            let digest = try key.withUnsafeBytes { try Self.hash($0) }
            block.replaceSubrange(0..<digest.count, with: digest)
        } else {
            key.withUnsafeBytes { bytes in block.replaceSubrange(0..<bytes.count, with: bytes) }
        }
        inner = try Self.state(absorbing: block.map { $0 ^ 0x36 })
        outer = try Self.state(absorbing: block.map { $0 ^ 0x5C })
    }

    private init(inner: SHA256_CTX, outer: SHA256_CTX) {
        self.inner = inner
        self.outer = outer
    }

    deinit {
        var states = (inner, outer)
        withUnsafeMutableBytes(of: &states) { OPENSSL_cleanse($0.baseAddress, $0.count) }
    }

    /// A MAC under the same key whose input always starts with `prefix`: the prefix is absorbed once here,
    /// not on every call.
    package func prefixed(with prefix: [UInt8]) throws -> HMACSHA256 {
        var state = inner
        guard SHA256_Update(&state, prefix, prefix.count) == 1 else { throw CryptoError.library(operation: "HMAC") }
        return HMACSHA256(inner: state, outer: outer)
    }

    /// Returns the first `count` bytes of the MAC of `message`.
    package func authenticate(message: [UInt8], truncatedTo count: Int = outputSize) throws -> [UInt8] {
        var innerDigest = [UInt8](repeating: 0, count: Self.outputSize)
        var out = [UInt8](repeating: 0, count: Self.outputSize)
        var state = inner
        defer { withUnsafeMutableBytes(of: &state) { OPENSSL_cleanse($0.baseAddress, $0.count) } }
        guard SHA256_Update(&state, message, message.count) == 1, SHA256_Final(&innerDigest, &state) == 1 else {
            throw CryptoError.library(operation: "HMAC")
        }
        state = outer
        guard SHA256_Update(&state, innerDigest, innerDigest.count) == 1, SHA256_Final(&out, &state) == 1 else {
            throw CryptoError.library(operation: "HMAC")
        }
        if count < Self.outputSize { out.removeLast(Self.outputSize - count) }
        return out
    }

    /// Returns the 32-byte MAC of the concatenation of `parts`.
    package func authenticate(_ parts: [UInt8]...) throws -> [UInt8] {
        try authenticate(parts: parts)
    }

    /// Returns the 32-byte MAC of the concatenation of `parts`.
    package func authenticate(parts: [[UInt8]]) throws -> [UInt8] {
        try authenticate(message: parts.flatMap { $0 })
    }

    private static func state(absorbing block: [UInt8]) throws -> SHA256_CTX {
        var state = SHA256_CTX()
        guard SHA256_Init(&state) == 1, SHA256_Update(&state, block, block.count) == 1 else {
            throw CryptoError.library(operation: "HMAC init")
        }
        return state
    }

    private static func hash(_ bytes: UnsafeRawBufferPointer) throws -> [UInt8] {
        var state = SHA256_CTX()
        var out = [UInt8](repeating: 0, count: outputSize)
        guard SHA256_Init(&state) == 1, SHA256_Update(&state, bytes.baseAddress, bytes.count) == 1,
            SHA256_Final(&out, &state) == 1
        else { throw CryptoError.library(operation: "SHA-256") }
        return out
    }
}
