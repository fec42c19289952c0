package import KeychainCore
package import KeychainCrypto
internal import KeychainRequests

/// The keeper of a process whose keychain is a service's (keychaind's): each step is a request, and the
/// `LAContext` is named by its id in that service, where its evaluations live. The auth value crosses the
/// daemon's socket to be sealed and back once opened; the private key never does (the TPM holds it, or, for the
/// software enclave, it is sealed under the auth value inside the box the daemon seals).
struct ServiceEnclaveKeyKeeper: EnclaveKeyKeeper {
    let client: KeychainClient

    func sealAuthorization(
        _ authorization: SecureBytes, policy: AccessControlPolicy, binding: [UInt8],
        context: (any AuthenticationContextCarrier)?
    ) throws -> [UInt8] {
        let request = KeychainRequest.sealEnclaveKeyAuthorization(
            Secret(authorization), policy: policy, binding: binding)
        return try bytes(request, "sealEnclaveKeyAuthorization", context)
    }

    func openAuthorization(
        _ sealed: [UInt8], policy: AccessControlPolicy, binding: [UInt8],
        context: (any AuthenticationContextCarrier)?, reason: String?
    ) throws -> SecureBytes {
        let request = KeychainRequest.openEnclaveKeyAuthorization(
            sealed, policy: policy, binding: binding, reason: reason)
        guard case .enclaveSecret(let opened) = try perform(request, context) else {
            throw unexpected("openEnclaveKeyAuthorization")
        }
        return opened.storage
    }

    func sealSoftwareBox(_ inner: [UInt8], header: [UInt8]) throws -> [UInt8] {
        try bytes(.sealSoftwareEnclaveBox(inner, header: header), "sealSoftwareEnclaveBox", nil)
    }

    func openSoftwareBox(_ outer: [UInt8], header: [UInt8]) throws -> [UInt8] {
        try bytes(.openSoftwareEnclaveBox(outer, header: header), "openSoftwareEnclaveBox", nil)
    }

    private func bytes(
        _ request: KeychainRequest, _ name: String, _ context: (any AuthenticationContextCarrier)?
    ) throws -> [UInt8] {
        guard case .enclaveBytes(let bytes) = try perform(request, context) else { throw unexpected(name) }
        return bytes
    }

    private func perform(_ request: KeychainRequest, _ context: (any AuthenticationContextCarrier)?) throws
        -> KeychainResponse
    {
        try client.service.perform(request, as: client.caller.using(context?.authenticationContextID))
    }

    private func unexpected(_ request: String) -> KeychainError {
        KeychainError(
            SecurityStatus.internalComponent, reason: "the keychain service answered \(request) with another kind")
    }
}
