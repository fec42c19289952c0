package import KeychainCore
package import KeychainCrypto

/// The keychain's part of every enclave key: sealing and opening the key's auth value under its access control,
/// and the software enclave's outer box under the home's wrapping key. In process it is the task's keychain
/// (``KeychainEnclaveKeyKeeper``); in daemon mode keychaind's (``ServiceEnclaveKeyKeeper``), so the auth values
/// are sealed with the daemon's class keys and opened only after an authentication the daemon judged.
package protocol EnclaveKeyKeeper: Sendable {
    /// Seals a new key's `authorization` for `policy`, bound to `binding` (the key's public point); `context` is
    /// the key's `LAContext`, whose settings a constraint's setup may read.
    func sealAuthorization(
        _ authorization: SecureBytes, policy: AccessControlPolicy, binding: [UInt8],
        context: (any AuthenticationContextCarrier)?
    ) throws -> [UInt8]

    /// Opens a sealed auth value, after the authentication `policy` asks for (reusing `context`'s evaluations
    /// within its reuse duration); `reason` is the prompt's text, nil for the keychain's default.
    func openAuthorization(
        _ sealed: [UInt8], policy: AccessControlPolicy, binding: [UInt8],
        context: (any AuthenticationContextCarrier)?, reason: String?
    ) throws -> SecureBytes

    /// Seals a software enclave key's inner box under the home's wrapping key, authenticating `header`.
    func sealSoftwareBox(_ inner: [UInt8], header: [UInt8]) throws -> [UInt8]

    /// Opens what ``sealSoftwareBox(_:header:)`` sealed.
    /// - Throws: errSecDecode (-26275) for a box that was altered or sealed by another home.
    func openSoftwareBox(_ outer: [UInt8], header: [UInt8]) throws -> [UInt8]
}
