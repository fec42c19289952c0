import KeychainCrypto

/// The key under which the software Secure Enclave (an administrator's opt-in where no TPM answers) seals its keys'
/// private scalars: derived from this home's device key, so a sealed key opens only with this home's files.
extension Keychain {
    /// HKDF-SHA-256 of the device key with its own label (`KeyHierarchy.softwareEnclaveWrappingKey`).
    package func softwareEnclaveWrappingKey() throws -> SecureBytes {
        try KeyDerivation.hkdfSHA256(
            key: dataProtection.deviceKey, salt: Array(KeyHierarchy.derivationSalt.utf8),
            info: Array(KeyHierarchy.softwareEnclaveWrappingKey.utf8))
    }
}
