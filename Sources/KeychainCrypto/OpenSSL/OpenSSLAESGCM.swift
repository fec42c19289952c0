internal import COpenSSL

/// AES-256-GCM on OpenSSL's EVP cipher interface. Lengths are checked by ``AESGCM``.
enum OpenSSLAESGCM {
    /// Seals under `nonce`. The nonce is a parameter here, not in ``AESGCM``'s API, so known-answer tests can
    /// fix it; the keychain's boxes always take a random one.
    static func seal(
        _ plaintext: UnsafeRawBufferPointer, key: SecureBytes, nonce: [UInt8], aad: [UInt8]
    ) throws -> [UInt8] {
        guard nonce.count == AESGCM.nonceSize else {
            throw CryptoError.invalidLength(operation: "AES-GCM nonce", length: nonce.count)
        }
        let context = try CipherContext(operation: "AES-GCM seal")
        var box = [UInt8](repeating: 0, count: AESGCM.overhead + plaintext.count)
        try key.withUnsafeBytes { keyBytes in
            guard EVP_EncryptInit_ex2(context.pointer, FetchedAlgorithms.aes256GCM, nil, nil, nil) == 1,
                kossl_gcm_set_ivlen(context.pointer, Int32(AESGCM.nonceSize)) == 1,
                EVP_EncryptInit_ex2(context.pointer, nil, keyBytes.bindMemory(to: UInt8.self).baseAddress, nonce, nil)
                    == 1
            else { throw CryptoError.openSSL("AES-GCM seal init") }
        }
        try box.withUnsafeMutableBufferPointer { out in
            guard let start = out.baseAddress else { throw CryptoError.openSSL("AES-GCM seal") }
            var length: Int32 = 0
            for index in 0..<AESGCM.nonceSize { out[index] = nonce[index] }
            if !aad.isEmpty {
                guard EVP_EncryptUpdate(context.pointer, nil, &length, aad, Int32(aad.count)) == 1 else {
                    throw CryptoError.openSSL("AES-GCM additional data")
                }
            }
            let body = start + AESGCM.nonceSize
            if plaintext.count > 0 {
                guard
                    EVP_EncryptUpdate(
                        context.pointer, body, &length, plaintext.bindMemory(to: UInt8.self).baseAddress,
                        Int32(plaintext.count)) == 1
                else { throw CryptoError.openSSL("AES-GCM seal") }
            }
            guard EVP_EncryptFinal_ex(context.pointer, body + plaintext.count, &length) == 1,
                kossl_gcm_get_tag(context.pointer, Int32(AESGCM.tagSize), body + plaintext.count) == 1
            else { throw CryptoError.openSSL("AES-GCM seal final") }
        }
        return box
    }

    static func open(_ box: [UInt8], key: SecureBytes, aad: [UInt8]) throws -> SecureBytes {
        let context = try CipherContext(operation: "AES-GCM open")
        let bodyCount = box.count - AESGCM.overhead
        return try box.withUnsafeBufferPointer { input in
            guard let start = input.baseAddress else { throw CryptoError.authenticationFailure }
            try key.withUnsafeBytes { keyBytes in
                guard EVP_DecryptInit_ex2(context.pointer, FetchedAlgorithms.aes256GCM, nil, nil, nil) == 1,
                    kossl_gcm_set_ivlen(context.pointer, Int32(AESGCM.nonceSize)) == 1,
                    EVP_DecryptInit_ex2(
                        context.pointer, nil, keyBytes.bindMemory(to: UInt8.self).baseAddress, start, nil) == 1
                else { throw CryptoError.openSSL("AES-GCM open init") }
            }
            var length: Int32 = 0
            if !aad.isEmpty {
                guard EVP_DecryptUpdate(context.pointer, nil, &length, aad, Int32(aad.count)) == 1 else {
                    throw CryptoError.openSSL("AES-GCM additional data")
                }
            }
            let body = start + AESGCM.nonceSize
            var tag = Array(input[(AESGCM.nonceSize + bodyCount)...])
            return try SecureBytes(count: bodyCount) { out in
                let plaintext = out.bindMemory(to: UInt8.self).baseAddress
                if bodyCount > 0 {
                    guard EVP_DecryptUpdate(context.pointer, plaintext, &length, body, Int32(bodyCount)) == 1 else {
                        throw CryptoError.rejected
                    }
                }
                var finalLength: Int32 = 0
                guard kossl_gcm_set_tag(context.pointer, Int32(AESGCM.tagSize), &tag) == 1,
                    EVP_DecryptFinal_ex(context.pointer, plaintext.map { $0 + bodyCount }, &finalLength) == 1
                else { throw CryptoError.rejected }
            }
        }
    }
}
