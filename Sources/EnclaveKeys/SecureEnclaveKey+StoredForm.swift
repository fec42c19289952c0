internal import TPMEnclave

/// What a key's stored form tells without a backend: no TPM is asked and no wrapping key is opened. A key item
/// found on a machine whose enclave cannot load its key (another TPM's, a reset TPM's, another home's software
/// key) still shows its public key and where it was made, as Apple's keychain returns such a key.
extension SecureEnclaveKey {
    /// The public point (`04 ‖ x ‖ y`) a stored form for `use` carries; nil for bytes that are no stored form for
    /// that use, or whose point cannot be read.
    package static func publicPoint(ofStoredForm bytes: [UInt8], use: SecureEnclaveKeyUse) -> [UInt8]? {
        if isSoftwareStoredForm(bytes) { return SecureEnclaveSoftwareKey.publicPoint(inStoredForm: bytes, use: use) }
        guard isStoredForm(bytes), let (tpm, _) = try? SecureEnclaveTPMKey.parse(bytes),
            let blob = try? TPMKeyBlob(serialized: tpm, use: use.tpm)
        else { return nil }
        return blob.publicPoint
    }

    /// Whether a stored form is a TPM's (its private key in hardware) rather than the software enclave's.
    package static func isHardwareStoredForm(_ bytes: some Collection<UInt8>) -> Bool {
        isStoredForm(bytes) && !isSoftwareStoredForm(bytes)
    }

    private static func isSoftwareStoredForm(_ bytes: some Collection<UInt8>) -> Bool {
        Array(bytes.prefix(4)) == Array("KSWE".utf8)
    }
}
