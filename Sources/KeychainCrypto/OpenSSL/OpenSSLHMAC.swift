@_implementationOnly import COpenSSL

/// HMAC-SHA-256 (RFC 2104) from two SHA-256 states prepared once from the key: the inner one has absorbed
/// `key ⊕ ipad`, the outer one `key ⊕ opad`. A MAC copies both onto the stack, so the key schedule is not
/// recomputed per call and no context is allocated: through `EVP_MAC` (context duplicate, final, free) a short
/// MAC cost about 10 800 instructions, here about 3 000, and keychain lookups compute several per call.
///
/// The states are as secret as the key: they live in memory of their own that is wiped when freed, and the stack
/// copies are wiped after each MAC. Never changed after `init`, so they may be shared between threads.
final class OpenSSLHMAC: @unchecked Sendable {  // safe: the states are written only inside init
    private static let blockSize = 64
    /// [inner, outer], as untyped memory: OpenSSL's types stay out of the module's layouts, so that a client
    /// of the module never needs OpenSSL's headers.
    private let storage: UnsafeMutableRawPointer
    private var states: UnsafeMutablePointer<SHA256_CTX> { storage.assumingMemoryBound(to: SHA256_CTX.self) }

    init(key: UnsafeRawBufferPointer) throws {
        // RFC 2104: a key longer than the block is hashed first; a shorter one is padded with zeros.
        var block = [UInt8](repeating: 0, count: Self.blockSize)
        defer { wipe(&block) }
        if key.count > Self.blockSize {
            var digest = try OpenSSLDigest.sha256(Array(key))
            defer { wipe(&digest) }
            block.replaceSubrange(0..<digest.count, with: digest)
        } else if key.count > 0 {
            block.replaceSubrange(0..<key.count, with: key)
        }
        // Prepared in a local first: a throw after `states` is set would run deinit as well.
        let prepared = UnsafeMutablePointer<SHA256_CTX>.allocate(capacity: 2)
        prepared.initialize(repeating: SHA256_CTX(), count: 2)
        var padded = block.map { $0 ^ 0x36 }
        defer { wipe(&padded) }
        var ready = SHA256_Init(prepared) == 1 && SHA256_Update(prepared, padded, padded.count) == 1
        for index in padded.indices { padded[index] = block[index] ^ 0x5C }
        ready = ready && SHA256_Init(prepared + 1) == 1 && SHA256_Update(prepared + 1, padded, padded.count) == 1
        guard ready else {
            Self.release(prepared)
            throw CryptoError.openSSL("HMAC init")
        }
        storage = UnsafeMutableRawPointer(prepared)
    }

    private init(states: UnsafeMutablePointer<SHA256_CTX>) { storage = UnsafeMutableRawPointer(states) }

    deinit { Self.release(states) }

    private static func release(_ states: UnsafeMutablePointer<SHA256_CTX>) {
        OPENSSL_cleanse(states, 2 * MemoryLayout<SHA256_CTX>.stride)
        states.deinitialize(count: 2)
        states.deallocate()
    }

    /// A MAC whose input starts with `prefix`.
    func absorbing(_ prefix: [UInt8]) throws -> OpenSSLHMAC {
        let copy = UnsafeMutablePointer<SHA256_CTX>.allocate(capacity: 2)
        copy.initialize(from: states, count: 2)
        guard SHA256_Update(copy, prefix, prefix.count) == 1 else {
            Self.release(copy)
            throw CryptoError.openSSL("HMAC update")
        }
        return OpenSSLHMAC(states: copy)
    }

    /// The first `count` bytes (at most 32) of the MAC of the prepared input followed by `message`, in an array of
    /// exactly that size.
    func authenticate(_ message: UnsafeRawBufferPointer, truncatedTo count: Int) throws -> [UInt8] {
        try withMAC(of: message) { Array($0.prefix(min(count, $0.count))) }
    }

    /// Writes the first `output.count` bytes (at most 32) of the MAC of the prepared input followed by `message`
    /// into `output`: no copy is left outside it, for a MAC that is a key.
    func authenticate(_ message: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws {
        try withMAC(of: message) { mac in
            output.copyMemory(from: UnsafeRawBufferPointer(rebasing: mac.prefix(min(output.count, mac.count))))
        }
    }

    /// Computes the MAC on the stack and hands it to `body`; the stack copies are wiped afterwards.
    private func withMAC<R>(of message: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> R) throws -> R {
        var context = states[0]
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        defer {
            withUnsafeMutableBytes(of: &context) { OPENSSL_cleanse($0.baseAddress, $0.count) }
            withUnsafeMutableBytes(of: &digest) { OPENSSL_cleanse($0.baseAddress, $0.count) }
        }
        let done = withUnsafeMutableBytes(of: &digest) { digest in
            let out = digest.baseAddress?.assumingMemoryBound(to: UInt8.self)
            guard SHA256_Update(&context, message.baseAddress, message.count) == 1, SHA256_Final(out, &context) == 1
            else { return false }
            context = states[1]
            return SHA256_Update(&context, out, digest.count) == 1 && SHA256_Final(out, &context) == 1
        }
        guard done else { throw CryptoError.openSSL("HMAC") }
        return withUnsafeBytes(of: &digest) { body($0) }
    }
}
