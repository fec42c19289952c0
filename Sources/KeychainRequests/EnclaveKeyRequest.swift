import KeychainCore

/// A Secure Enclave key operation, for a keychain whose enclave is another process's (keychaind's): the daemon
/// makes, loads and uses the key, and opens its auth value, so that neither the auth value nor a private key ever
/// reaches the client. `use` is the key's use as its stored form records it (1 signing, 2 key agreement, 3
/// both); `storedForm` is the key's `dataRepresentation`.
public enum EnclaveKeyRequest: Sendable {
    /// What keeps the daemon's enclave keys: its TPM, its software enclave, or nothing.
    case backing
    /// A new P-256 key whose every use needs what `policy` asks; `compactRepresentable` keys only, when asked.
    case create(use: UInt8, policy: AccessControlPolicy, compactRepresentable: Bool)
    /// A key from its stored form, loaded (checked) by the daemon's enclave.
    case restore(storedForm: [UInt8], use: UInt8)
    /// ECDSA over a SHA-256 digest, after the authentication the key's access control asks for (the caller's
    /// context reused); `reason` is the prompt's text, nil for the keychain's default.
    case sign(storedForm: [UInt8], use: UInt8, digest: [UInt8], reason: String?)
    /// ECDH with the peer point `04 ‖ x ‖ y`, after the same authentication.
    case agree(storedForm: [UInt8], use: UInt8, peerPoint: [UInt8], reason: String?)
}

/// What keeps a keychain's enclave keys, as ``EnclaveKeyRequest/backing`` answers it.
public enum EnclaveKeyBacking: Sendable, Hashable {
    case none
    /// The administrator's software enclave.
    case software
    /// A TPM 2.0, reached through `tcti`.
    case tpm(tcti: String)
}

extension SecureEnclaveBacking {
    /// The backing as a ``EnclaveKeyRequest/backing`` answer carries it.
    package init(_ answer: EnclaveKeyBacking) {
        switch answer {
        case .none: self = .none
        case .software: self = .software
        case .tpm(let tcti): self = .tpm(tcti: tcti)
        }
    }

    /// This backing as a ``EnclaveKeyRequest/backing`` answer.
    package var answer: EnclaveKeyBacking {
        switch self {
        case .none: .none
        case .software: .software
        case .tpm(let tcti): .tpm(tcti: tcti)
        }
    }
}

/// A key an ``EnclaveKeyRequest`` made or loaded: what the client keeps of it.
public struct EnclaveKeyDescription: Sendable, Hashable {
    public var storedForm: [UInt8]
    /// `04 ‖ x ‖ y`.
    public var publicPoint: [UInt8]
    public var isHardwareBacked: Bool

    public init(storedForm: [UInt8], publicPoint: [UInt8], isHardwareBacked: Bool) {
        self.storedForm = storedForm
        self.publicPoint = publicPoint
        self.isHardwareBacked = isHardwareBacked
    }
}

/// Who runs ``EnclaveKeyRequest``s for an ``InProcessKeychainService``: EnclaveKeys, which sits above this module,
/// installed by keychaind. Without one, the requests are errSecUnimplemented: a process with its own keychain
/// uses its enclave keys itself and never sends them.
package protocol EnclaveKeyServing: Sendable {
    /// Runs `request` on `keychain` for `caller`, with the context the caller named.
    /// - Throws: `KeychainError` with the enclave's or the keychain's status.
    func perform(
        _ request: EnclaveKeyRequest, keychain: Keychain, context: AuthenticationContext?, caller: CallerIdentity
    ) throws -> KeychainResponse
}
