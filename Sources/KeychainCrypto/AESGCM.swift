internal import COpenSSL

/// AES-256-GCM with a random 96-bit nonce. A sealed box is `nonce (12) ‖ ciphertext ‖ tag (16)`.
package enum AESGCM {
    package static let nonceSize = 12
    package static let tagSize = 16
    /// Bytes a sealed box adds to its plaintext.
    package static let overhead = nonceSize + tagSize

    /// Encrypts `plaintext` under `key` (32 bytes), binding `authenticating` as additional data.
    package static func seal(
        _ plaintext: UnsafeRawBufferPointer, key: SecureBytes, authenticating aad: [UInt8],
        nonce fixedNonce: [UInt8]? = nil
    ) throws -> [UInt8] {
        guard key.count == 32 else { throw CryptoError.invalidLength(operation: "AES-GCM key", length: key.count) }
        let nonce = try fixedNonce ?? SystemRandom.bytes(nonceSize)
        guard nonce.count == nonceSize else {
            throw CryptoError.invalidLength(operation: "AES-GCM nonce", length: nonce.count)
        }
        let context = try CipherContext(operation: "AES-GCM seal")
        var box = [UInt8](repeating: 0, count: overhead + plaintext.count)
        try key.withUnsafeBytes { keyBytes in
            guard EVP_EncryptInit_ex2(context.pointer, FetchedAlgorithms.aes256GCM, nil, nil, nil) == 1,
                kossl_gcm_set_ivlen(context.pointer, Int32(nonceSize)) == 1,
                EVP_EncryptInit_ex2(context.pointer, nil, keyBytes.bindMemory(to: UInt8.self).baseAddress, nonce, nil)
                    == 1
            else { throw CryptoError.library(operation: "AES-GCM seal") }
        }
        try box.withUnsafeMutableBufferPointer { out in
            var length: Int32 = 0
            for i in 0..<nonceSize { out[i] = nonce[i] }
            if !aad.isEmpty {
                guard EVP_EncryptUpdate(context.pointer, nil, &length, aad, Int32(aad.count)) == 1 else {
                    throw CryptoError.library(operation: "AES-GCM aad")
                }
            }
            let body = out.baseAddress! + nonceSize
            if plaintext.count > 0 {
                guard
                    EVP_EncryptUpdate(
                        context.pointer, body, &length, plaintext.bindMemory(to: UInt8.self).baseAddress,
                        Int32(plaintext.count)) == 1
                else { throw CryptoError.library(operation: "AES-GCM seal") }
            }
            guard EVP_EncryptFinal_ex(context.pointer, body + plaintext.count, &length) == 1,
                kossl_gcm_get_tag(context.pointer, Int32(tagSize), body + plaintext.count) == 1
            else { throw CryptoError.library(operation: "AES-GCM seal") }
        }
        return box
    }

    /// Encrypts a byte array; see ``seal(_:key:authenticating:nonce:)``.
    package static func seal(_ plaintext: [UInt8], key: SecureBytes, authenticating aad: [UInt8]) throws -> [UInt8] {
        try plaintext.withUnsafeBytes { try seal($0, key: key, authenticating: aad) }
    }

    /// Decrypts and authenticates a sealed box; the plaintext comes back in wiped-on-free memory.
    /// - Throws: `CryptoError.authenticationFailure` if the key, box or additional data do not match.
    package static func open(_ box: [UInt8], key: SecureBytes, authenticating aad: [UInt8]) throws -> SecureBytes {
        guard key.count == 32 else { throw CryptoError.invalidLength(operation: "AES-GCM key", length: key.count) }
        guard box.count >= overhead else { throw CryptoError.authenticationFailure }
        let context = try CipherContext(operation: "AES-GCM open")
        let bodyCount = box.count - overhead
        return try box.withUnsafeBufferPointer { input in
            try key.withUnsafeBytes { keyBytes in
                guard EVP_DecryptInit_ex2(context.pointer, FetchedAlgorithms.aes256GCM, nil, nil, nil) == 1,
                    kossl_gcm_set_ivlen(context.pointer, Int32(nonceSize)) == 1,
                    EVP_DecryptInit_ex2(
                        context.pointer, nil, keyBytes.bindMemory(to: UInt8.self).baseAddress, input.baseAddress, nil)
                        == 1
                else { throw CryptoError.library(operation: "AES-GCM open") }
            }
            var length: Int32 = 0
            if !aad.isEmpty {
                guard EVP_DecryptUpdate(context.pointer, nil, &length, aad, Int32(aad.count)) == 1 else {
                    throw CryptoError.library(operation: "AES-GCM aad")
                }
            }
            let body = input.baseAddress! + nonceSize
            var tag = Array(input[(nonceSize + bodyCount)...])
            return try SecureBytes(count: bodyCount) { out in
                if bodyCount > 0 {
                    guard
                        EVP_DecryptUpdate(
                            context.pointer, out.bindMemory(to: UInt8.self).baseAddress, &length, body, Int32(bodyCount)
                        ) == 1
                    else { throw CryptoError.authenticationFailure }
                }
                var finalLength: Int32 = 0
                guard kossl_gcm_set_tag(context.pointer, Int32(tagSize), &tag) == 1,
                    EVP_DecryptFinal_ex(
                        context.pointer, out.bindMemory(to: UInt8.self).baseAddress.map { $0 + bodyCount }, &finalLength
                    ) == 1
                else { throw CryptoError.authenticationFailure }
            }
        }
    }
}
