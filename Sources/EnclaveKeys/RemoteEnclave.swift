import KeychainCore
package import KeychainCrypto
import KeychainRequests

/// keychaind's enclave, seen from a client: each operation is an ``EnclaveKeyRequest``. The daemon makes, loads and
/// uses the keys with its own TPM or software enclave and its own keychain, and opens their auth values after the
/// authentication it judges, so the client never holds an auth value or a private key. The `LAContext` of a use is
/// named by its id in the daemon, where its evaluations live.
struct RemoteEnclave: Sendable {
    let client: KeychainClient

    /// What keeps the daemon's enclave keys.
    func backing() throws(EnclaveError) -> SecureEnclaveBacking {
        guard case .enclaveBacking(let backing) = try perform(.backing, nil) else { throw unexpected("backing") }
        return SecureEnclaveBacking(backing)
    }

    func create(
        use: SecureEnclaveKeyUse, policy: AccessControlPolicy, compactRepresentable: Bool,
        context: (any AuthenticationContextCarrier)?
    ) throws(EnclaveError) -> RemoteEnclaveKey {
        let request = EnclaveKeyRequest.create(
            use: use.rawValue, policy: policy, compactRepresentable: compactRepresentable)
        return try key(request, use: use, context: context)
    }

    func restore(_ storedForm: [UInt8], use: SecureEnclaveKeyUse) throws(EnclaveError) -> RemoteEnclaveKey {
        try key(.restore(storedForm: storedForm, use: use.rawValue), use: use, context: nil)
    }

    private func key(
        _ request: EnclaveKeyRequest, use: SecureEnclaveKeyUse, context: (any AuthenticationContextCarrier)?
    )
        throws(EnclaveError) -> RemoteEnclaveKey
    {
        guard case .enclaveKey(let description) = try perform(request, context) else { throw unexpected("key") }
        return RemoteEnclaveKey(enclave: self, use: use, description: description)
    }

    func perform(_ request: EnclaveKeyRequest, _ context: (any AuthenticationContextCarrier)?)
        throws(EnclaveError) -> KeychainResponse
    {
        try SecureEnclaveBackends.keychainOperation {
            try client.service.perform(.enclaveKey(request), as: client.caller.using(context?.authenticationContextID))
        }
    }

    func unexpected(_ request: String) -> EnclaveError {
        .status(-2070, reason: "keychaind answered an enclave \(request) request with another kind")
    }
}

/// A key of keychaind's enclave: its stored form and public point, and the daemon that uses it.
struct RemoteEnclaveKey: Sendable {
    let enclave: RemoteEnclave
    let use: SecureEnclaveKeyUse
    let description: EnclaveKeyDescription

    func signature(digest: [UInt8], context: (any AuthenticationContextCarrier)?, reason: String?)
        throws(EnclaveError) -> [UInt8]
    {
        let request = EnclaveKeyRequest.sign(
            storedForm: description.storedForm, use: use.rawValue, digest: digest, reason: reason)
        guard case .enclaveSignature(let signature) = try enclave.perform(request, context) else {
            throw enclave.unexpected("signature")
        }
        return signature
    }

    func sharedSecret(peerPoint: [UInt8], context: (any AuthenticationContextCarrier)?, reason: String?)
        throws(EnclaveError) -> SecureBytes
    {
        let request = EnclaveKeyRequest.agree(
            storedForm: description.storedForm, use: use.rawValue, peerPoint: peerPoint, reason: reason)
        guard case .enclaveSecret(let secret) = try enclave.perform(request, context) else {
            throw enclave.unexpected("key agreement")
        }
        return secret.storage
    }
}
