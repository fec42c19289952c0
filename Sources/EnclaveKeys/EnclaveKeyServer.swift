import Foundation
import KeychainCore
import KeychainRequests

/// keychaind's side of ``RemoteEnclave``: runs each ``EnclaveKeyRequest`` as a process with its own keychain runs
/// its enclave keys, on the connection's keychain (the uid's) with the daemon's TPM or software enclave and the
/// context the client named. Failures cross as the keychain's errors, with the enclave's status.
package struct EnclaveKeyServer: EnclaveKeyServing {
    /// Keys loaded for earlier uses, shared by every connection this server serves.
    private let loaded = LoadedEnclaveKeys()

    package init() {}

    package func perform(
        _ request: EnclaveKeyRequest, keychain: Keychain, context: AuthenticationContext?, caller: CallerIdentity
    ) throws -> KeychainResponse {
        let carrier = context.map(ResolvedContext.init)
        do {
            return try ProcessKeychain.$taskKeychain.withValue(keychain) {
                try ProcessKeychainService.$taskService.withValue(InProcessKeychainService(keychain)) {
                    try run(request, keychain, carrier, caller)
                }
            }
        } catch let error as EnclaveError {
            throw KeychainError(error.status, reason: .init(verbatim: error.description))
        }
    }

    private func run(
        _ request: EnclaveKeyRequest, _ keychain: Keychain, _ context: ResolvedContext?, _ caller: CallerIdentity
    ) throws -> KeychainResponse {
        switch request {
        case .backing:
            return .enclaveBacking(SecureEnclaveBackends.backing.answer)
        case .create(let use, let policy, let compactRepresentable):
            let key = try SecureEnclaveKey.create(
                use: try Self.use(use), compactRepresentable: compactRepresentable, policy: { policy },
                context: context)
            return .enclaveKey(Self.description(of: key))
        case .restore(let storedForm, let use):
            let use = try Self.use(use)
            return .enclaveKey(Self.description(of: try using(storedForm, use, keychain) { $0 }))
        case .sign(let storedForm, let use, let digest, let reason):
            let use = try Self.use(use)
            guard use.signs, digest.count == 32 else {
                throw EnclaveError.status(-50, reason: "the enclave signs SHA-256 digests with a signing key only")
            }
            return .enclaveSignature(
                try using(storedForm, use, keychain) {
                    try $0.signature(digest: digest, context: context, reason: reason, caller: caller)
                })
        case .agree(let storedForm, let use, let peerPoint, let reason):
            let use = try Self.use(use)
            guard use.agrees, peerPoint.count == 65 else {
                throw EnclaveError.status(
                    -50, reason: "the enclave agrees with a P-256 point using a key-agreement key only")
            }
            let secret = try using(storedForm, use, keychain) {
                try $0.sharedSecret(peerPoint: peerPoint, context: context, reason: reason, caller: caller)
            }
            return .enclaveSecret(Secret(secret))
        }
    }

    /// A client's stored form, loaded. A bare TPM blob of an earlier release has no access control: the TPM would
    /// take it with an empty auth value, so any client could use anyone's, or try wrong values at the TPM; keychaind
    /// refuses it (errSecParam).
    private static func load(_ storedForm: [UInt8], use: SecureEnclaveKeyUse) throws -> SecureEnclaveKey {
        let key = try SecureEnclaveKey.restore(Data(storedForm), use: use)
        guard key.isBoundToAccessControl else {
            throw EnclaveError.status(
                -50, reason: "keychaind uses no enclave key without an access control (a key of an earlier release)")
        }
        return key
    }

    /// Runs a use of the loaded key; a failed use forgets it, so that the next one loads it again (a TPM that went
    /// away and came back is reached on a new connection).
    private func using<R>(
        _ storedForm: [UInt8], _ use: SecureEnclaveKeyUse, _ keychain: Keychain, _ body: (SecureEnclaveKey) throws -> R
    ) throws -> R {
        let name = loaded.name(storedForm, use: use, keychain: keychain)
        let key = try loaded.key(name) { try Self.load(storedForm, use: use) }
        do {
            return try body(key)
        } catch {
            loaded.forget(name)
            throw error
        }
    }

    /// Forgets the keys loaded for earlier uses (at the daemon's stop: the TPM connections they hold can close).
    package func forgetLoadedKeys() { loaded.forgetAll() }

    private static func use(_ raw: UInt8) throws(EnclaveError) -> SecureEnclaveKeyUse {
        guard let use = SecureEnclaveKeyUse(rawValue: raw) else { throw EnclaveError.invalidBlob }
        return use
    }

    private static func description(of key: SecureEnclaveKey) -> EnclaveKeyDescription {
        EnclaveKeyDescription(
            storedForm: Array(key.dataRepresentation), publicPoint: key.publicPoint,
            isHardwareBacked: key.isHardwareBacked)
    }
}

/// A context the daemon resolved from the id a client named, handed to the enclave keys' code as an `LAContext`
/// would be in process.
private final class ResolvedContext: AuthenticationContextCarrier {
    let authenticationContext: AuthenticationContext
    var authenticationContextID: AuthenticationContextID? { nil }

    init(_ context: AuthenticationContext) { authenticationContext = context }
}
