import Foundation
internal import KeychainCore
internal import KeychainCrypto
import LocalAuthentication
import Security

/// What a SecureEnclave private key holds, whichever backend keeps it: the backend's key and, for keys made with an
/// access control (every key made since access control binds), that access control and the key's auth value
/// sealed by the keychain under it. Every use opens the auth value through the keychain, which enforces the
/// protection class and asks the user for the constraints, and hands it to the backend, which cannot use the key
/// without it (the TPM checks it; the software enclave's private scalar is sealed under it).
struct SecureEnclaveKey: Sendable {
    let handle: any SecureEnclaveKeyHandle
    /// The context whose evaluations a use may reuse (`authenticationContext`).
    let context: LAContext?

    struct Access: Sendable {
        let policy: AccessControlPolicy
        let sealedAuthorization: [UInt8]
    }

    /// The length of every new key's auth value (the TPM's longest, the size of a SHA-256 digest; also an
    /// AES-256 key for the software enclave).
    static let authorizationSize = 32

    var dataRepresentation: Data { Data(handle.serialized) }
    var publicPoint: [UInt8] { handle.publicPoint }
    var isHardwareBacked: Bool { handle.isHardwareBacked }

    /// A new key in the task's enclave backend, its auth value sealed for `accessControl` in the task's (or
    /// process's) keychain.
    static func create(
        signing: Bool, compactRepresentable: Bool, accessControl: SecAccessControl, context: LAContext?
    ) throws -> SecureEnclaveKey {
        let backend = try SecureEnclave.backend()
        let policy = try SecureEnclave.policy(of: accessControl)
        let keychain = try SecureEnclave.keychainOperation { try ProcessKeychain.current() }
        var authorization = [UInt8](repeating: 0, count: authorizationSize)
        defer { authorization.withUnsafeMutableBytes { wipeBytes($0) } }
        try SecureEnclave.keychainOperation { try authorization.withUnsafeMutableBytes { try SystemRandom.fill($0) } }
        for _ in 0..<32 {
            let made = try backend.createKey(signing: signing, authorization: authorization) {
                (publicPoint: [UInt8]) throws -> Access? in
                let publicKey = try CryptoKit.P256.KeyAgreement.PublicKey(x963Representation: publicPoint)
                guard !compactRepresentable || publicKey.compactRepresentation != nil else { return nil }
                let sealed = try SecureEnclave.keychainOperation {
                    try keychain.sealEnclaveKeyAuthorization(
                        SecureBytes(authorization), policy: policy, binding: publicPoint,
                        context: context?.authenticationContext)
                }
                return Access(policy: policy, sealedAuthorization: sealed)
            }
            if let made { return SecureEnclaveKey(handle: made, context: context) }
        }
        throw CryptoKitError.underlyingCoreCryptoError(error: -1)
    }

    /// A key from its stored form, checked by the task's backend (the TPM loads it; the software enclave opens
    /// its seal under this home's wrapping key).
    static func restore(_ data: Data, signing: Bool, context: LAContext?) throws -> SecureEnclaveKey {
        let backend = try SecureEnclave.backend()
        return SecureEnclaveKey(handle: try backend.restoreKey(Array(data), signing: signing), context: context)
    }

    /// ECDSA over a SHA-256 digest, after the authentication the access control asks for.
    func signature(digest: [UInt8]) throws -> [UInt8] {
        try using { try handle.signature(digest: digest, authorization: $0) }
    }

    /// ECDH with `peerPoint` (`04 ‖ x ‖ y`), after the authentication the access control asks for.
    func sharedSecret(peerPoint: [UInt8]) throws -> SecureBytes {
        try using { try handle.sharedSecret(peerPoint: peerPoint, authorization: $0) }
    }

    /// Runs a backend operation with the key's auth value, opened (and, as the access control says,
    /// authenticated) for this use.
    private func using<R>(_ body: ([UInt8]) throws -> R) throws -> R {
        var authorization: [UInt8] = []
        defer { authorization.withUnsafeMutableBytes { wipeBytes($0) } }
        if let access = handle.access {
            let keychain = try SecureEnclave.keychainOperation { try ProcessKeychain.current() }
            let reason = context.map(\.localizedReason).flatMap { $0.isEmpty ? nil : $0 }
            let opened = try SecureEnclave.keychainOperation {
                try keychain.openEnclaveKeyAuthorization(
                    access.sealedAuthorization, policy: access.policy, binding: handle.publicPoint,
                    context: context?.authenticationContext, reason: reason)
            }
            authorization = opened.withUnsafeBytes { Array($0) }
        }
        return try body(authorization)
    }
}
