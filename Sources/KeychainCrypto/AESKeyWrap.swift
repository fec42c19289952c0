import Synchronization

/// AES key wrap (RFC 3394) with a 256-bit key-encryption key: wraps a key of 16 to 4096 bytes, a multiple of 8,
/// into a blob 8 bytes longer whose integrity check fails on any change.
///
/// The six-round wrapping of RFC 3394 section 2.2 runs here over AES-256 on single blocks
/// (``OpenSSLBlockCipher``: ECB, one block at a time). OpenSSL's own "AES-256-WRAP" cipher computes the same
/// thing but through its portable C AES, without the processor's AES instructions: about 5 µs per 32-byte key
/// against 0.5 µs here, which is most of a keychain lookup. The RFC's test vectors check that both agree.
package enum AESKeyWrap {
    /// Wraps `key` under `kek`.
    package static func wrap(_ key: SecureBytes, kek: SecureBytes) throws -> [UInt8] {
        try AESKeyWrapper(kek: kek).wrap(key)
    }

    /// Unwraps a blob made by ``wrap(_:kek:)``.
    /// - Throws: `CryptoError.authenticationFailure` when the KEK is wrong or the blob was altered.
    package static func unwrap(_ wrapped: [UInt8], kek: SecureBytes) throws -> SecureBytes {
        try AESKeyWrapper(kek: kek).unwrap(wrapped)
    }
}

/// RFC 3394 under one key-encryption key, with the AES key schedules computed once: a class key wraps and
/// unwraps many item keys. Thread-safe.
package final class AESKeyWrapper: Sendable {
    private static let initialValue: [UInt8] = [0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6]
    private let kek: SecureBytes
    // safe: each keyed context is made on first use (a read needs only the decryptor) and used under its mutex
    // Every lookup of a class's items unwraps under the same key: waiters sleep rather than spin.
    private let encryptor = SleepingLock<OpenSSLBlockCipher?>(nil)
    private let decryptor = SleepingLock<OpenSSLBlockCipher?>(nil)

    /// The process keeps this key for as long as it may be used (not fetched per call from elsewhere): keys it
    /// unwraps may leave their schedules in idle cipher contexts
    /// (``AESGCM/open(_:key:authenticating:keyScheduleMayStay:)``).
    package let isKeptInProcess: Bool

    /// Prepares wrapping under `kek` (32 bytes); `keptInProcess`: see ``isKeptInProcess``.
    package init(kek: SecureBytes, keptInProcess: Bool = false) throws {
        guard kek.count == 32 else { throw CryptoError.invalidLength(operation: "AES key wrap KEK", length: kek.count) }
        self.kek = kek
        isKeptInProcess = keptInProcess
    }

    /// Wraps `key`.
    package func wrap(_ key: SecureBytes) throws -> [UInt8] {
        guard key.count >= 16, key.count % 8 == 0, key.count <= 4096 else {
            throw CryptoError.invalidLength(operation: "AES key wrap input", length: key.count)
        }
        return try encryptor.withLock { cipher in
            if cipher == nil { cipher = try OpenSSLBlockCipher(key: kek, encrypt: true) }
            return try wrap(key, with: cipher!)
        }
    }

    /// Unwraps a blob made by ``wrap(_:)``.
    /// - Throws: `CryptoError.authenticationFailure` when the KEK is wrong or the blob was altered.
    package func unwrap(_ wrapped: [UInt8]) throws -> SecureBytes {
        guard wrapped.count >= 24, wrapped.count % 8 == 0, wrapped.count <= 4104 else {
            throw CryptoError.authenticationFailure
        }
        return try decryptor.withLock { cipher in
            if cipher == nil { cipher = try OpenSSLBlockCipher(key: kek, encrypt: false) }
            return try unwrap(wrapped, with: cipher!)
        }
    }

    // RFC 3394 section 2.2.1: for j = 0...5, i = 1...n: B = AES(K, A | R[i]); A = MSB(64, B) ^ t; R[i] = LSB(64, B)
    // with t = n*j + i. A and R[i] are handled as 64-bit words in memory order; XOR with t's big-endian bytes.
    private func wrap(_ key: SecureBytes, with cipher: OpenSSLBlockCipher) throws -> [UInt8] {
        var output = Self.initialValue + key.bytes  // A ‖ R[1..n]
        var block = [UInt8](repeating: 0, count: 16)
        defer { wipe(&block) }
        let blocks = key.count / 8
        try output.withUnsafeMutableBytes { state in
            try block.withUnsafeMutableBytes { block in
                var a = state.loadUnaligned(as: UInt64.self)
                for round in 0..<6 {
                    for index in 1...blocks {
                        block.storeBytes(of: a, toByteOffset: 0, as: UInt64.self)
                        block.storeBytes(
                            of: state.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self), toByteOffset: 8,
                            as: UInt64.self)
                        try cipher.process(block)
                        a = block.loadUnaligned(as: UInt64.self) ^ UInt64(blocks * round + index).bigEndian
                        state.storeBytes(
                            of: block.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8 * index,
                            as: UInt64.self)
                    }
                }
                state.storeBytes(of: a, toByteOffset: 0, as: UInt64.self)
            }
        }
        return output
    }

    // RFC 3394 section 2.2.2: for j = 5...0, i = n...1: B = AES-1(K, (A ^ t) | R[i]); A = MSB(64, B);
    // R[i] = LSB(64, B); the result is intact when A ends as the initial value. The working state lives in
    // scratch memory wiped before it is released, and the key is written straight into its SecureBytes: a
    // lookup unwraps one item key, and the arrays this used to take cost a third of the unwrap.
    private func unwrap(_ wrapped: [UInt8], with cipher: OpenSSLBlockCipher) throws -> SecureBytes {
        let blocks = wrapped.count / 8 - 1
        return try withUnsafeTemporaryAllocation(byteCount: wrapped.count + 16, alignment: 16) { scratch in
            defer { OpenSSLMemory.cleanse(scratch) }
            let block = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<16])
            let state = UnsafeMutableRawBufferPointer(rebasing: scratch[16...])
            wrapped.withUnsafeBytes { state.copyMemory(from: $0) }
            var a = state.loadUnaligned(as: UInt64.self)
            var round = 5
            while round >= 0 {
                var index = blocks
                while index >= 1 {
                    block.storeBytes(of: a ^ UInt64(blocks * round + index).bigEndian, toByteOffset: 0, as: UInt64.self)
                    block.storeBytes(
                        of: state.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self), toByteOffset: 8,
                        as: UInt64.self)
                    try cipher.process(block)
                    a = block.loadUnaligned(as: UInt64.self)
                    state.storeBytes(
                        of: block.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8 * index,
                        as: UInt64.self)
                    index -= 1
                }
                round -= 1
            }
            state.storeBytes(of: a, toByteOffset: 0, as: UInt64.self)
            let intact = Self.initialValue.withUnsafeBytes {
                OpenSSLMemory.equal(state.baseAddress, $0.baseAddress, count: 8)
            }
            guard intact else { throw CryptoError.authenticationFailure }
            return SecureBytes(count: blocks * 8) { key in
                key.copyMemory(from: UnsafeRawBufferPointer(rebasing: state[8...]))
            }
        }
    }
}
