import KeychainCore
internal import TPMEnclave

/// SecureEnclave keys inside the machine's TPM 2.0: created under its storage primary key, used inside it, stored
/// as the TPM's wrapped blob, which only that TPM can load.
struct SecureEnclaveTPMBackend: SecureEnclaveBackend {
    let connection: TPMConnection

    var backing: SecureEnclaveBacking { .tpm(tcti: connection.tcti) }

    func createKey(
        use: SecureEnclaveKeyUse, authorization: [UInt8],
        seal: (_ publicPoint: [UInt8]) throws -> SecureEnclaveKey.Access?
    ) throws -> (any SecureEnclaveKeyHandle)? {
        let blob = try SecureEnclaveBackends.translating(connection) { () throws(TPMError) in
            try connection.createKey(use: use.tpm, authorization: authorization)
        }
        guard let access = try seal(blob.publicPoint) else { return nil }
        return SecureEnclaveTPMKey(blob: blob, connection: connection, access: access)
    }

    /// Parses the stored form and has the TPM load the blob, which fails for another TPM's (or a reset one's).
    func restoreKey(_ bytes: [UInt8], use: SecureEnclaveKeyUse) throws -> any SecureEnclaveKeyHandle {
        let (tpmBytes, access) = try SecureEnclaveTPMKey.parse(bytes)
        let blob = try SecureEnclaveBackends.translating(connection) { () throws(TPMError) in
            try TPMKeyBlob(serialized: tpmBytes, use: use.tpm)
        }
        try SecureEnclaveBackends.translating(connection) { () throws(TPMError) in try connection.check(blob) }
        return SecureEnclaveTPMKey(blob: blob, connection: connection, access: access)
    }
}
