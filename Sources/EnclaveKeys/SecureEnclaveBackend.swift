import KeychainCore
package import KeychainCrypto

/// Where SecureEnclave keys are made and used: the machine's TPM 2.0 (``SecureEnclaveTPMBackend``), or, where none
/// answers and the administrator opted in, software keys sealed by the keychain (``SecureEnclaveSoftwareBackend``).
/// Either way a key's use needs its auth value, which the keychain seals under the key's access control; the
/// common part (access control, prompts) is ``SecureEnclaveKey``'s.
package protocol SecureEnclaveBackend: Sendable {
    /// What `security show-keychain-info` and ``SecureEnclaveBackends/backing`` call it.
    var backing: SecureEnclaveBacking { get }

    /// Makes a P-256 key whose every use needs `authorization`. `seal` seals that value for the key's public point
    /// (`04 ‖ x ‖ y`), or returns nil when the caller does not take that point; then no key is returned.
    /// - Throws: ``EnclaveError`` with the backend's or the keychain's status.
    func createKey(
        use: SecureEnclaveKeyUse, authorization: [UInt8],
        seal: (_ publicPoint: [UInt8]) throws -> SecureEnclaveKey.Access?
    ) throws -> (any SecureEnclaveKeyHandle)?

    /// A key from its stored form, checked as far as it can be without the key's auth value.
    /// - Throws: ``EnclaveError`` with -50 (errSecParam) for bytes that are not a key of this backend, for this
    ///   use; a backend's status when they are but do not belong here.
    func restoreKey(_ bytes: [UInt8], use: SecureEnclaveKeyUse) throws -> any SecureEnclaveKeyHandle
}

/// One key of a ``SecureEnclaveBackend``.
package protocol SecureEnclaveKeyHandle: Sendable {
    /// The public point, `04 ‖ x ‖ y`.
    var publicPoint: [UInt8] { get }
    /// The access control and the sealed auth value; nil for TPM keys stored before access control bound.
    var access: SecureEnclaveKey.Access? { get }
    /// The stored form (`dataRepresentation`).
    var serialized: [UInt8] { get }
    /// Whether the private key lives in hardware.
    var isHardwareBacked: Bool { get }

    /// ECDSA over a SHA-256 digest, `r ‖ s`, with the key's auth value.
    func signature(digest: [UInt8], authorization: [UInt8]) throws -> [UInt8]

    /// ECDH with the peer point `04 ‖ x ‖ y`: the shared x coordinate, with the key's auth value.
    func sharedSecret(peerPoint: [UInt8], authorization: [UInt8]) throws -> SecureBytes
}
