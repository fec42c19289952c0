import KeychainCore

extension InProcessKeychainService {
    /// Secure Enclave keys' secrets: an auth value sealed or opened under its access control (with the caller's
    /// context, and the caller named in a prompt without a reason), a software enclave key's box under the home's
    /// wrapping key.
    func performEnclaveRequest(_ request: KeychainRequest, as caller: Caller, context: AuthenticationContext?)
        throws -> KeychainResponse
    {
        switch request {
        case .sealEnclaveKeyAuthorization(let authorization, let policy, let binding):
            return .enclaveBytes(
                try keychain.sealEnclaveKeyAuthorization(
                    authorization.storage, policy: policy, binding: binding, context: context))
        case .openEnclaveKeyAuthorization(let sealed, let policy, let binding, let reason):
            let opened = try keychain.openEnclaveKeyAuthorization(
                sealed, policy: policy, binding: binding, context: context, reason: reason, caller: caller.identity)
            return .enclaveSecret(Secret(opened))
        case .sealSoftwareEnclaveBox(let inner, let header):
            try Self.requireSoftwareEnclave()
            return .enclaveBytes(try keychain.sealSoftwareEnclaveBox(inner, header: header))
        case .openSoftwareEnclaveBox(let outer, let header):
            try Self.requireSoftwareEnclave()
            return .enclaveBytes(try keychain.openSoftwareEnclaveBox(outer, header: header))
        default:
            throw KeychainError.param.because("not a Secure Enclave key request")
        }
    }

    /// A service (keychaind) seals software enclave keys only where the administrator of its machine opted in:
    /// a client cannot make this keychain's wrapping key serve keys the machine does not allow.
    private static func requireSoftwareEnclave() throws {
        guard SecureEnclaveSetting.current.read() == .software else {
            throw KeychainError.unimplemented.because(
                "the administrator of the keychain's machine has not opted in to the software enclave")
        }
    }
}
