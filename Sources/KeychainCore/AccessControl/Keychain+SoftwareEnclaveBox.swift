import KeychainCrypto

/// The outer seal of the software Secure Enclave's keys (an administrator's opt-in where no TPM answers): AES-GCM
/// under a key derived from this home's device key, so a sealed key opens only with this home's files. The key
/// never leaves the keychain: in daemon mode the daemon seals and opens the boxes, and clients see only them.
extension Keychain {
    /// Seals `inner` (a key's private scalar, already sealed under its auth value), authenticating `header`.
    package func sealSoftwareEnclaveBox(_ inner: [UInt8], header: [UInt8]) throws -> [UInt8] {
        try AESGCM.seal(inner, key: try softwareEnclaveWrappingKey(), authenticating: header)
    }

    /// Opens what ``sealSoftwareEnclaveBox(_:header:)`` sealed.
    /// - Throws: errSecDecode (-26275) for a box that was altered, or sealed by another keychain home.
    package func openSoftwareEnclaveBox(_ outer: [UInt8], header: [UInt8]) throws -> [UInt8] {
        let key = try softwareEnclaveWrappingKey()
        do {
            return try AESGCM.open(outer, key: key, authenticating: header).withUnsafeBytes { Array($0) }
        } catch {
            throw KeychainError.decode.because(
                "the software enclave key was altered or sealed in another keychain home")
        }
    }

    /// HKDF-SHA-256 of the device key with its own label (`KeyHierarchy.softwareEnclaveWrappingKey`).
    private func softwareEnclaveWrappingKey() throws -> SecureBytes {
        try KeyDerivation.hkdfSHA256(
            key: dataProtection.deviceKey, salt: Array(KeyHierarchy.derivationSalt.utf8),
            info: Array(KeyHierarchy.softwareEnclaveWrappingKey.utf8))
    }
}
