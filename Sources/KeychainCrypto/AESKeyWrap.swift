internal import COpenSSL

/// AES key wrap (RFC 3394) with a 256-bit key-encryption key: wraps a key of 16 to 4096 bytes, a multiple of 8,
/// into a blob 8 bytes longer whose integrity check fails on any change.
package enum AESKeyWrap {
    /// Wraps `key` under `kek`.
    package static func wrap(_ key: SecureBytes, kek: SecureBytes) throws -> [UInt8] {
        guard key.count >= 16, key.count % 8 == 0 else {
            throw CryptoError.invalidLength(operation: "AES key wrap input", length: key.count)
        }
        var out = [UInt8](repeating: 0, count: key.count + 8)
        let written = try run(encrypt: true, kek: kek, into: &out) { context, output, length in
            key.withUnsafeBytes { input in
                EVP_EncryptUpdate(context, output, &length, input.bindMemory(to: UInt8.self).baseAddress, Int32(input.count))
            }
        }
        guard written == out.count else { throw CryptoError.library(operation: "AES key wrap") }
        return out
    }

    /// Unwraps a blob made by ``wrap(_:kek:)``.
    /// - Throws: `CryptoError.authenticationFailure` when the KEK is wrong or the blob was altered.
    package static func unwrap(_ wrapped: [UInt8], kek: SecureBytes) throws -> SecureBytes {
        guard wrapped.count >= 24, wrapped.count % 8 == 0 else { throw CryptoError.authenticationFailure }
        var plain = [UInt8](repeating: 0, count: wrapped.count)
        defer { wipe(&plain) }
        let written = try run(encrypt: false, kek: kek, into: &plain) { context, output, length in
            EVP_DecryptUpdate(context, output, &length, wrapped, Int32(wrapped.count))
        }
        guard written == wrapped.count - 8 else { throw CryptoError.authenticationFailure }
        return SecureBytes(plain[0..<written])
    }

    private static func run(
        encrypt: Bool, kek: SecureBytes, into out: inout [UInt8],
        update: (OpaquePointer, UnsafeMutablePointer<UInt8>, inout Int32) -> Int32
    ) throws -> Int {
        guard kek.count == 32 else { throw CryptoError.invalidLength(operation: "AES key wrap KEK", length: kek.count) }
        let context = try CipherContext(operation: "AES key wrap")
        kossl_allow_wrap(context.pointer)
        let initialized = kek.withUnsafeBytes { keyBytes in
            let keyPointer = keyBytes.bindMemory(to: UInt8.self).baseAddress
            return encrypt
                ? EVP_EncryptInit_ex2(context.pointer, FetchedAlgorithms.aes256Wrap, keyPointer, nil, nil)
                : EVP_DecryptInit_ex2(context.pointer, FetchedAlgorithms.aes256Wrap, keyPointer, nil, nil)
        }
        guard initialized == 1 else { throw CryptoError.library(operation: "AES key wrap") }
        var length: Int32 = 0
        let ok = out.withUnsafeMutableBufferPointer { update(context.pointer, $0.baseAddress!, &length) }
        guard ok == 1 else {
            if encrypt { throw CryptoError.library(operation: "AES key wrap") }
            throw CryptoError.authenticationFailure
        }
        return Int(length)
    }
}
