/// AES-256-GCM with a random 96-bit nonce. A sealed box is `nonce (12) ‖ ciphertext ‖ tag (16)`.
package enum AESGCM {
    package static let keySize = 32
    package static let nonceSize = 12
    package static let tagSize = 16
    /// Bytes a sealed box adds to its plaintext.
    package static let overhead = nonceSize + tagSize

    /// Encrypts `plaintext` under `key` (32 bytes) with a fresh random nonce, binding `authenticating` as
    /// additional data.
    package static func seal(
        _ plaintext: UnsafeRawBufferPointer, key: SecureBytes, authenticating aad: [UInt8]
    ) throws -> [UInt8] {
        try checkKey(key)
        return try OpenSSLAESGCM.seal(plaintext, key: key, nonce: SystemRandom.bytes(nonceSize), aad: aad)
    }

    /// Encrypts each part under `key` with a fresh random nonce of its own, binding its additional data: what a
    /// ``seal(_:key:authenticating:)-(UnsafeRawBufferPointer,_,_)`` of each gives, for one key setup and one draw
    /// of random bytes (an item's attributes and its secret are sealed together: apart, each would pay for both).
    package static func seal(_ parts: [(plaintext: [UInt8], additionalData: [UInt8])], key: SecureBytes) throws
        -> [[UInt8]]
    {
        try checkKey(key)
        guard !parts.isEmpty else { return [] }
        return try OpenSSLAESGCM.seal(parts, key: key, nonces: SystemRandom.bytes(nonceSize * parts.count))
    }

    /// Encrypts a byte array; see ``seal(_:key:authenticating:)-(UnsafeRawBufferPointer,_,_)``.
    package static func seal(_ plaintext: [UInt8], key: SecureBytes, authenticating aad: [UInt8]) throws -> [UInt8] {
        try plaintext.withUnsafeBytes { try seal($0, key: key, authenticating: aad) }
    }

    /// Decrypts and authenticates a sealed box; the plaintext comes back in wiped-on-free memory.
    /// - Parameter keyScheduleMayStay: the key is unwrapped by a key the process keeps in memory anyway, so its
    ///   AES schedule may stay in the idle cipher context until the next operation instead of being wiped now
    ///   (which costs a second key setup). Otherwise nothing of `key` outlives the call.
    /// - Throws: `CryptoError.authenticationFailure` if the key, box or additional data do not match.
    package static func open(
        _ box: [UInt8], key: SecureBytes, authenticating aad: [UInt8], keyScheduleMayStay: Bool = false
    ) throws -> SecureBytes {
        try checkKey(key)
        guard box.count >= overhead else { throw CryptoError.authenticationFailure }
        return try OpenSSLAESGCM.open(box, key: key, aad: aad, keyScheduleMayStay: keyScheduleMayStay)
    }

    /// Wipes every key schedule that ``open(_:key:authenticating:keyScheduleMayStay:)`` let stay: for when the
    /// keys that made that safe are no longer kept in memory (a passcode set, the keybag replaced).
    package static func forgetKeySchedules() {
        GCMContexts.shared.forgetKeySchedules()
    }

    private static func checkKey(_ key: SecureBytes) throws {
        guard key.count == keySize else { throw CryptoError.invalidLength(operation: "AES-GCM key", length: key.count) }
    }
}
