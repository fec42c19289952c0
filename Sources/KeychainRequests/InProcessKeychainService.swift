import Foundation
import KeychainCore

/// The service over a `Keychain` open in this process: each request runs on the engine as its caller, with the
/// authentication context the caller names resolved in the keychain's registry.
///
/// A context id the registry does not know is refused with `errSecParam` (-50) for keychain requests, and with
/// `LAError.invalidContext` (-10) for policy evaluations, as an invalidated `LAContext` is.
public struct InProcessKeychainService: KeychainService {
    public let keychain: Keychain
    /// Who runs Secure Enclave key requests (keychaind installs EnclaveKeys'); nil: they are errSecUnimplemented.
    let enclaveKeys: (any EnclaveKeyServing)?

    public init(_ keychain: Keychain) {
        self.keychain = keychain
        enclaveKeys = nil
    }

    /// A service that also runs Secure Enclave key requests, with `enclaveKeys`.
    package init(_ keychain: Keychain, enclaveKeys: any EnclaveKeyServing) {
        self.keychain = keychain
        self.enclaveKeys = enclaveKeys
    }

    public var callerIdentity: CallerIdentity { keychain.configuration.identity }

    public func perform(_ request: KeychainRequest, as caller: Caller) throws -> KeychainResponse {
        let identity = caller.identity
        switch request {
        case .add(let item):
            return .added(try keychain.add(item, as: identity, context: try optionalContext(caller)))
        case .search(let query):
            return .found(try keychain.search(query, as: identity, context: try optionalContext(caller)))
        case .update(let query, let changes):
            try keychain.update(query, with: changes, as: identity, context: try optionalContext(caller))
            return .done
        case .delete(let query):
            return .deleted(count: try keychain.delete(query, as: identity))
        case .previewAdd(let item):
            try keychain.previewAdd(item, as: identity)
            return .done
        case .previewSearch(let query):
            return .preview(try keychain.previewSearch(query, as: identity))
        case .previewUpdate(let query, let changes):
            return .preview(try keychain.previewUpdate(query, with: changes, as: identity))
        case .previewDelete(let query):
            return .preview(try keychain.previewDelete(query, as: identity))
        case .createAuthenticationContext,
            .forgetAuthenticationContext,
            .configureAuthenticationContext,
            .setApplicationPassword,
            .setLocalizedReason,
            .invalidateAuthenticationContext,
            .authenticationContextState,
            .canEvaluatePolicy,
            .evaluatePolicy,
            .evaluateAccessControl:
            return try performContextRequest(request, as: caller)
        case .keychainInfo,
            .lock,
            .unlock,
            .setPasscode,
            .removePasscode,
            .setGracePeriod,
            .simulateRestart,
            .backup,
            .restore,
            .backupArchive,
            .restoreArchive:
            return try performProtectionRequest(request, as: caller)
        case .biometryStatus, .simulatedBiometry, .simulatedCompanion, .describeService:
            return try performDeviceRequest(request)
        case .enclaveKey(let enclaveRequest):
            return try performEnclaveRequest(enclaveRequest, as: caller)
        }
    }

    /// The caller's context, if it names one. - Throws: errSecParam for an id the registry does not know.
    func optionalContext(_ caller: Caller) throws -> AuthenticationContext? {
        try caller.authenticationContext.map { try keychain.authenticationContexts.resolve($0) }
    }
}
