@_implementationOnly import COpenSSL

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
        var box = [UInt8](repeating: 0, count: AESGCM.overhead + plaintext.count)
        try GCMContexts.shared.withContext(key: key, nonce: nonce, encrypting: true) { context in
            try seal(plaintext, nonce: nonce, aad: aad, into: &box, context: context)
        }
        return box
    }

    /// Seals each part under its nonce (`nonces`: one after another) with one keying of the context; a new nonce
    /// starts each part afresh.
    static func seal(_ parts: [(plaintext: [UInt8], additionalData: [UInt8])], key: SecureBytes, nonces: [UInt8])
        throws -> [[UInt8]]
    {
        guard !parts.isEmpty, nonces.count == AESGCM.nonceSize * parts.count else {
            throw CryptoError.invalidLength(operation: "AES-GCM nonces", length: nonces.count)
        }
        let nonceOf = { (index: Int) in Array(nonces[index * AESGCM.nonceSize..<(index + 1) * AESGCM.nonceSize]) }
        var boxes = parts.map { [UInt8](repeating: 0, count: AESGCM.overhead + $0.plaintext.count) }
        try GCMContexts.shared.withContext(key: key, nonce: nonceOf(0), encrypting: true) { context in
            for (index, part) in parts.enumerated() {
                let nonce = nonceOf(index)
                if index > 0, EVP_CipherInit_ex2(context.pointer, nil, nil, nonce, 1, nil) != 1 {
                    throw CryptoError.openSSL("AES-GCM seal init")
                }
                try part.plaintext.withUnsafeBytes {
                    try seal($0, nonce: nonce, aad: part.additionalData, into: &boxes[index], context: context)
                }
            }
        }
        return boxes
    }

    private static func seal(
        _ plaintext: UnsafeRawBufferPointer, nonce: [UInt8], aad: [UInt8], into box: inout [UInt8],
        context: CipherContext
    ) throws {
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
    }

    static func open(_ box: [UInt8], key: SecureBytes, aad: [UInt8], keyScheduleMayStay: Bool = false) throws
        -> SecureBytes
    {
        let bodyCount = box.count - AESGCM.overhead
        return try box.withUnsafeBufferPointer { input in
            guard let start = input.baseAddress else { throw CryptoError.authenticationFailure }
            let nonce = UnsafeBufferPointer(rebasing: input[0..<AESGCM.nonceSize])
            return try GCMContexts.shared.withContext(
                key: key, nonce: nonce, encrypting: false, keyScheduleMayStay: keyScheduleMayStay
            ) { context in
                var length: Int32 = 0
                if !aad.isEmpty {
                    guard EVP_DecryptUpdate(context.pointer, nil, &length, aad, Int32(aad.count)) == 1 else {
                        throw CryptoError.openSSL("AES-GCM additional data")
                    }
                }
                let body = start + AESGCM.nonceSize
                // OpenSSL copies the expected tag; it never writes through this pointer.
                let tag = UnsafeMutableRawPointer(mutating: body + bodyCount)
                return try SecureBytes(count: bodyCount) { out in
                    let plaintext = out.bindMemory(to: UInt8.self).baseAddress
                    if bodyCount > 0 {
                        guard EVP_DecryptUpdate(context.pointer, plaintext, &length, body, Int32(bodyCount)) == 1
                        else { throw CryptoError.rejected }
                    }
                    var finalLength: Int32 = 0
                    guard kossl_gcm_set_tag(context.pointer, Int32(AESGCM.tagSize), tag) == 1,
                        EVP_DecryptFinal_ex(context.pointer, plaintext.map { $0 + bodyCount }, &finalLength) == 1
                    else { throw CryptoError.rejected }
                }
            }
        }
    }
}

/// AES-256-GCM contexts kept between operations: making one (`EVP_CIPHER_CTX_new`, the provider's context, the
/// nonce length) and freeing it cost about half of opening a short box. Each operation takes an idle context and
/// keys it with its own key and nonce. Afterwards the context is keyed with zeros, so no key's schedule stays
/// behind in an idle context (a lock must leave no item key in memory), unless the caller says the key may stay
/// (``AESGCM/open(_:key:authenticating:keyScheduleMayStay:)``): a key whose wrapping key is itself kept in the
/// process, where whoever could read the idle context could read that. ``forgetKeySchedules()`` frees every idle
/// context (OpenSSL wipes them), and one in use at that moment is not kept. A context whose operation failed is
/// freed rather than kept, except after a box that did not authenticate, which is an ordinary answer.
final class GCMContexts: Sendable {
    static let shared = GCMContexts()
    /// More idle contexts than threads that use them at once are only memory.
    private static let idleLimit = 16
    private static let zeroKey = [UInt8](repeating: 0, count: AESGCM.keySize)
    // safe: a context is used by one thread at a time: taken out of the list under the lock, put back after
    private let idle = SleepingLock(Idle())

    private struct Idle {
        var contexts: [UncheckedContext] = []
        /// Counts ``forgetKeySchedules()`` calls: a context taken before one is not put back.
        var generation = 0
    }

    /// A context carried between threads through the idle list; only one thread holds it at a time.
    private struct UncheckedContext: @unchecked Sendable {
        let context: CipherContext
    }

    func withContext<R>(
        key: SecureBytes, nonce: UnsafeBufferPointer<UInt8>, encrypting: Bool, keyScheduleMayStay: Bool = false,
        _ body: (CipherContext) throws -> R
    ) throws -> R {
        let (taken, generation) = idle.withLock { ($0.contexts.popLast(), $0.generation) }
        let context = try taken?.context ?? Self.makeContext()
        let keyed = key.withUnsafeBytes { keyBytes in
            EVP_CipherInit_ex2(
                context.pointer, nil, keyBytes.bindMemory(to: UInt8.self).baseAddress, nonce.baseAddress,
                encrypting ? 1 : 0, nil)
        }
        guard keyed == 1 else { throw CryptoError.openSSL(encrypting ? "AES-GCM seal init" : "AES-GCM open init") }
        let result: R
        do {
            result = try body(context)
        } catch CryptoError.authenticationFailure {
            // A box that does not authenticate is an answer, not a broken context (the engine tries a row's
            // secret before it knows whether the secret is constrained): the context is kept as after a success.
            putBack(context, generation: generation, keyScheduleMayStay: keyScheduleMayStay)
            throw CryptoError.authenticationFailure
        }
        putBack(context, generation: generation, keyScheduleMayStay: keyScheduleMayStay)
        return result
    }

    /// Returns `context` to the idle list, keyed with zeros first unless its key may stay, so that it holds
    /// nothing of the key it was used with.
    private func putBack(_ context: CipherContext, generation: Int, keyScheduleMayStay: Bool) {
        if !keyScheduleMayStay, EVP_CipherInit_ex2(context.pointer, nil, Self.zeroKey, nil, -1, nil) != 1 {
            ERR_clear_error()
            return
        }
        idle.withLock { idle in
            guard idle.generation == generation, idle.contexts.count < Self.idleLimit else { return }
            idle.contexts.append(UncheckedContext(context: context))
        }
    }

    func withContext<R>(
        key: SecureBytes, nonce: [UInt8], encrypting: Bool, _ body: (CipherContext) throws -> R
    ) throws -> R {
        try nonce.withUnsafeBufferPointer { try withContext(key: key, nonce: $0, encrypting: encrypting, body) }
    }

    /// Frees every idle context, and keeps none of those in use now when they finish.
    func forgetKeySchedules() {
        let dropped = idle.withLock { idle in
            idle.generation &+= 1
            defer { idle.contexts.removeAll() }
            return idle.contexts
        }
        _ = dropped  // freed here, outside the lock
    }

    /// How many contexts are idle, for tests.
    var idleCount: Int { idle.withLock { $0.contexts.count } }

    private static func makeContext() throws -> CipherContext {
        let context = try CipherContext(operation: "AES-GCM")
        guard EVP_CipherInit_ex2(context.pointer, FetchedAlgorithms.aes256GCM, nil, nil, 1, nil) == 1,
            kossl_gcm_set_ivlen(context.pointer, Int32(AESGCM.nonceSize)) == 1
        else { throw CryptoError.openSSL("AES-GCM context") }
        return context
    }
}
