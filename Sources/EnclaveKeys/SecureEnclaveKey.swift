package import CryptoKitOpenSSL
import Foundation
import KeychainCore
package import KeychainCrypto

/// What a SecureEnclave private key holds, whichever backend keeps it: the backend's key and, for keys made with an
/// access control (every key made since access control binds), that access control and the key's auth value
/// sealed by the keychain under it. Every use opens the auth value through the keychain, which enforces the
/// protection class and asks the user for the constraints, and hands it to the backend, which cannot use the key
/// without it (the TPM checks it; the software enclave's private scalar is sealed under it).
///
/// In daemon mode the key is keychaind's (``RemoteEnclaveKey``): the daemon makes, loads and uses it and opens its
/// auth value, and this process holds only its stored form and public point.
///
/// Both faces hold these: CryptoKit's `SecureEnclave.P256` keys and Security's `SecKey` made with
/// `kSecAttrTokenIDSecureEnclave`. Each use names the authentication context whose evaluations it may reuse.
package struct SecureEnclaveKey: Sendable {
    private let holder: Holder

    /// Who holds the key: this process's backend, or keychaind.
    private enum Holder: Sendable {
        case local(any SecureEnclaveKeyHandle)
        case remote(RemoteEnclaveKey)
    }

    package struct Access: Sendable {
        package let policy: AccessControlPolicy
        package let sealedAuthorization: [UInt8]
    }

    /// The length of every new key's auth value (the TPM's longest, the size of a SHA-256 digest; also an
    /// AES-256 key for the software enclave).
    static let authorizationSize = 32

    package var dataRepresentation: Data {
        switch holder {
        case .local(let handle): Data(handle.serialized)
        case .remote(let key): Data(key.description.storedForm)
        }
    }

    package var publicPoint: [UInt8] {
        switch holder {
        case .local(let handle): handle.publicPoint
        case .remote(let key): key.description.publicPoint
        }
    }

    package var isHardwareBacked: Bool {
        switch holder {
        case .local(let handle): handle.isHardwareBacked
        case .remote(let key): key.description.isHardwareBacked
        }
    }

    /// Whether the key's uses need its sealed auth value (every key made since access control binds); false for a
    /// bare TPM blob of an earlier release, which the TPM uses with an empty auth value.
    package var isBoundToAccessControl: Bool {
        switch holder {
        case .local(let handle): handle.access != nil
        case .remote: true
        }
    }

    /// A new key in the task's enclave, its auth value sealed for the access control `policy` gives by the task's
    /// (or process's) keychain; in daemon mode, a key of keychaind's enclave.
    /// - Parameter policy: the access control, read after the enclave is found (so that a machine without an
    ///   enclave answers -4 first).
    /// - Throws: ``EnclaveError``.
    package static func create(
        use: SecureEnclaveKeyUse, compactRepresentable: Bool, policy: () throws -> AccessControlPolicy,
        context: (any AuthenticationContextCarrier)?
    ) throws -> SecureEnclaveKey {
        if let remote = SecureEnclaveBackends.remote() {
            guard try remote.backing() != .none else {
                throw EnclaveError.noEnclave(
                    reason: "keychaind's machine has no Secure Enclave: no TPM, and no software enclave opt-in")
            }
            let key = try remote.create(
                use: use, policy: try policy(), compactRepresentable: compactRepresentable, context: context)
            return SecureEnclaveKey(holder: .remote(key))
        }
        let backend = try SecureEnclaveBackends.current()
        let policy = try policy()
        let keychain = try SecureEnclaveBackends.sealingKeychain()
        var authorization = [UInt8](repeating: 0, count: authorizationSize)
        defer { authorization.withUnsafeMutableBytes { wipeBytes($0) } }
        try SecureEnclaveBackends.keychainOperation {
            try authorization.withUnsafeMutableBytes { try SystemRandom.fill($0) }
        }
        for _ in 0..<32 {
            let made = try backend.createKey(use: use, authorization: authorization) {
                (publicPoint: [UInt8]) throws -> Access? in
                let publicKey = try translatingErrors {
                    try publicPoint.withUnsafeBytes { try ECKey(curve: .p256, publicPoint: $0) }
                }
                guard !compactRepresentable || publicKey.compactPublicX != nil else { return nil }
                let sealed = try SecureEnclaveBackends.keychainOperation {
                    try keychain.sealEnclaveKeyAuthorization(
                        SecureBytes(authorization), policy: policy, binding: publicPoint,
                        context: context?.authenticationContext)
                }
                return Access(policy: policy, sealedAuthorization: sealed)
            }
            if let made { return SecureEnclaveKey(holder: .local(made)) }
        }
        throw EnclaveError.status(-1, reason: "no compact-representable key was made")
    }

    /// A key from its stored form, checked by the task's backend (the TPM loads it; the software enclave opens
    /// its seal under this home's wrapping key), or by keychaind's in daemon mode.
    package static func restore(_ data: Data, use: SecureEnclaveKeyUse) throws -> SecureEnclaveKey {
        if let remote = SecureEnclaveBackends.remote() {
            return SecureEnclaveKey(holder: .remote(try remote.restore(Array(data), use: use)))
        }
        let backend = try SecureEnclaveBackends.current()
        return SecureEnclaveKey(holder: .local(try backend.restoreKey(Array(data), use: use)))
    }

    /// Whether `bytes` have the shape of an enclave key's stored form (a TPM blob, with or without its access
    /// control, or a software enclave key), without asking a backend: how a key item's value is told apart from
    /// an external representation (EC external representations start with 04).
    package static func isStoredForm(_ bytes: some Collection<UInt8>) -> Bool {
        let magic = Array(bytes.prefix(4))
        return magic == Array("KTPA".utf8) || magic == Array("KTPM".utf8) || magic == Array("KSWE".utf8)
    }

    /// ECDSA over a SHA-256 digest, after the authentication the access control asks for, reusing `context`'s
    /// evaluations where they hold; `reason` is the prompt's text (nil: the keychain's default).
    /// - Parameter caller: who a prompt without `reason` names (keychaind's client; nil: the keychain's identity).
    package func signature(
        digest: [UInt8], context: (any AuthenticationContextCarrier)?, reason: String?, caller: CallerIdentity? = nil
    ) throws -> [UInt8] {
        switch holder {
        case .local(let handle):
            try using(handle, context, reason, caller) { try handle.signature(digest: digest, authorization: $0) }
        case .remote(let key):
            try key.signature(digest: digest, context: context, reason: reason)
        }
    }

    /// ECDH with `peerPoint` (`04 ‖ x ‖ y`), after the authentication the access control asks for.
    package func sharedSecret(
        peerPoint: [UInt8], context: (any AuthenticationContextCarrier)?, reason: String?, caller: CallerIdentity? = nil
    ) throws -> SecureBytes {
        switch holder {
        case .local(let handle):
            try using(handle, context, reason, caller) {
                try handle.sharedSecret(peerPoint: peerPoint, authorization: $0)
            }
        case .remote(let key):
            try key.sharedSecret(peerPoint: peerPoint, context: context, reason: reason)
        }
    }

    /// Runs a backend operation with the key's auth value, opened (and, as the access control says,
    /// authenticated) for this use.
    private func using<R>(
        _ handle: any SecureEnclaveKeyHandle, _ context: (any AuthenticationContextCarrier)?, _ reason: String?,
        _ caller: CallerIdentity?, _ body: ([UInt8]) throws -> R
    ) throws -> R {
        var authorization: [UInt8] = []
        defer { authorization.withUnsafeMutableBytes { wipeBytes($0) } }
        if let access = handle.access {
            let keychain = try SecureEnclaveBackends.sealingKeychain()
            let opened = try SecureEnclaveBackends.keychainOperation {
                try keychain.openEnclaveKeyAuthorization(
                    access.sealedAuthorization, policy: access.policy, binding: handle.publicPoint,
                    context: context?.authenticationContext, reason: reason, caller: caller)
            }
            authorization = opened.withUnsafeBytes { Array($0) }
        }
        return try body(authorization)
    }
}
