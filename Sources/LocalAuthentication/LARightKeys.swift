import Foundation
import Security

/// A persisted right's private key (iOS 16, macOS 13): a P-256 key in the keychain under the right's access
/// control. Signing, decrypting and key agreement open it with the right's context, so they need the right
/// authorized (`LAError.notInteractive` otherwise); the algorithms are Security's (`SecKeyAlgorithm`).
open class LAPrivateKey: NSObject, @unchecked Sendable {  // safe: immutable
    /// Made on each use of `key`, so holding the right makes no cycle.
    private let right: LAPersistedRight

    /// The public half, usable without authorization.
    public let publicKey: LAPublicKey

    init(right: LAPersistedRight, publicKey: LAPublicKey) {
        self.right = right
        self.publicKey = publicKey
    }

    /// Signs `data` with `algorithm` (for example `.ecdsaSignatureMessageX962SHA256`).
    open func sign(_ data: Data, algorithm: SecKeyAlgorithm) async throws -> Data {
        try signNow(data, algorithm)
    }

    open func sign(
        _ data: Data, algorithm: SecKeyAlgorithm, completion handler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) {
        InBackground.reply(handler) { try self.signNow(data, algorithm) }
    }

    /// Decrypts what the public key encrypted with `algorithm` (an ECIES algorithm).
    open func decrypt(_ data: Data, algorithm: SecKeyAlgorithm) async throws -> Data {
        try decryptNow(data, algorithm)
    }

    open func decrypt(
        _ data: Data, algorithm: SecKeyAlgorithm, completion handler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) {
        InBackground.reply(handler) { try self.decryptNow(data, algorithm) }
    }

    /// Agrees a shared secret with another party's public key (its X9.63 bytes), as `SecKeyCopyKeyExchangeResult`
    /// does with `parameters` (`kSecKeyKeyExchangeParameterRequestedSize`, `…SharedInfo`).
    open func exchangeKeys(publicKey: Data, algorithm: SecKeyAlgorithm, parameters: [AnyHashable: Any])
        async throws -> Data
    {
        try exchangeNow(publicKey, algorithm, parameters)
    }

    open func exchangeKeys(
        publicKey: Data, algorithm: SecKeyAlgorithm, parameters: [AnyHashable: Any],
        completion handler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) {
        nonisolated(unsafe) let parameters = parameters  // read once, on the queue, while the caller has let go
        InBackground.reply(handler) { try self.exchangeNow(publicKey, algorithm, parameters) }
    }

    /// Whether the key signs with `algorithm`.
    open func canSign(using algorithm: SecKeyAlgorithm) -> Bool { Self.supports(.sign, algorithm) }

    /// Whether the key decrypts with `algorithm`.
    open func canDecrypt(using algorithm: SecKeyAlgorithm) -> Bool { Self.supports(.decrypt, algorithm) }

    /// Whether the key agrees secrets with `algorithm`.
    open func canExchangeKeys(using algorithm: SecKeyAlgorithm) -> Bool { Self.supports(.keyExchange, algorithm) }

    private func signNow(_ data: Data, _ algorithm: SecKeyAlgorithm) throws -> Data {
        let key = try right.authorizedPrivateKey()
        return try secKeyCall {
            SecKeyCreateSignature(key, algorithm, data as CFData, $0).map { Data(referencing: $0) }
        }
    }

    private func decryptNow(_ data: Data, _ algorithm: SecKeyAlgorithm) throws -> Data {
        let key = try right.authorizedPrivateKey()
        return try secKeyCall {
            SecKeyCreateDecryptedData(key, algorithm, data as CFData, $0).map { Data(referencing: $0) }
        }
    }

    private func exchangeNow(_ other: Data, _ algorithm: SecKeyAlgorithm, _ parameters: [AnyHashable: Any]) throws
        -> Data
    {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
        ]
        let peer = try secKeyCall { SecKeyCreateWithData(other as CFData, attributes as CFDictionary, $0) }
        let key = try right.authorizedPrivateKey()
        var options: [String: Any] = [:]
        for (name, value) in parameters { if let name = name.base as? String { options[name] = value } }
        return try secKeyCall {
            SecKeyCopyKeyExchangeResult(key, algorithm, peer, options as CFDictionary, $0).map { Data(referencing: $0) }
        }
    }

    /// What a right's key supports is what any P-256 private key does: asked of one made for the purpose, so
    /// that the answer needs no authorization.
    private static let shape: SecKey? = {
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        ]
        return SecKeyCreateRandomKey(parameters as CFDictionary, nil)
    }()

    private static func supports(_ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm) -> Bool {
        guard let shape else { return false }
        return SecKeyIsAlgorithmSupported(shape, operation, algorithm)
    }
}

/// A persisted right's public key (iOS 16, macOS 13): encrypting and verifying need no authorization.
open class LAPublicKey: NSObject, @unchecked Sendable {  // safe: immutable
    private let key: SecKey

    init(_ key: SecKey) { self.key = key }

    /// The key's bytes: the X9.63 uncompressed point, as `SecKeyCopyExternalRepresentation` gives it.
    open var bytes: Data {
        get async throws { try exportNow() }
    }

    open func exportBytes(completion handler: @escaping @Sendable (Data?, (any Error)?) -> Void) {
        InBackground.reply(handler) { try self.exportNow() }
    }

    /// Encrypts `data` for the private key with `algorithm` (an ECIES algorithm).
    open func encrypt(_ data: Data, algorithm: SecKeyAlgorithm) async throws -> Data { try encryptNow(data, algorithm) }

    open func encrypt(
        _ data: Data, algorithm: SecKeyAlgorithm, completion handler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) {
        InBackground.reply(handler) { try self.encryptNow(data, algorithm) }
    }

    /// Checks that `signature` is the private key's signature of `signedData`.
    /// - Throws: the `NSOSStatusErrorDomain` error `SecKeyVerifySignature` gives when it is not.
    open func verify(_ signedData: Data, signature: Data, algorithm: SecKeyAlgorithm) async throws {
        try verifyNow(signedData, signature, algorithm)
    }

    open func verify(
        _ signedData: Data, signature: Data, algorithm: SecKeyAlgorithm,
        completion handler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        InBackground.reply(handler) { try self.verifyNow(signedData, signature, algorithm) }
    }

    /// Whether the key encrypts with `algorithm`.
    open func canEncrypt(using algorithm: SecKeyAlgorithm) -> Bool {
        SecKeyIsAlgorithmSupported(key, .encrypt, algorithm)
    }

    /// Whether the key verifies with `algorithm`.
    open func canVerify(using algorithm: SecKeyAlgorithm) -> Bool {
        SecKeyIsAlgorithmSupported(key, .verify, algorithm)
    }

    private func exportNow() throws -> Data {
        try secKeyCall { SecKeyCopyExternalRepresentation(key, $0).map { Data(referencing: $0) } }
    }

    private func encryptNow(_ data: Data, _ algorithm: SecKeyAlgorithm) throws -> Data {
        try secKeyCall { SecKeyCreateEncryptedData(key, algorithm, data as CFData, $0).map { Data(referencing: $0) } }
    }

    private func verifyNow(_ signedData: Data, _ signature: Data, _ algorithm: SecKeyAlgorithm) throws {
        var error: Unmanaged<CFError>?
        guard SecKeyVerifySignature(key, algorithm, signedData as CFData, signature as CFData, &error) else {
            throw error?.takeRetainedValue() ?? RightStoreItems.statusError(errSecVerifyFailed, "verifying")
        }
    }
}

/// The value a Security key function returns, or the error it reported.
private func secKeyCall<R>(_ body: (UnsafeMutablePointer<Unmanaged<CFError>?>) -> R?) throws -> R {
    var error: Unmanaged<CFError>?
    guard let value = body(&error) else {
        throw error?.takeRetainedValue() ?? RightStoreItems.statusError(errSecInternalComponent, "a key operation")
    }
    return value
}
