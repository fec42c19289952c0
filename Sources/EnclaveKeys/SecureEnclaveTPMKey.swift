import KeychainCore
package import KeychainCrypto
internal import TPMEnclave

/// A key inside the TPM: its blob, the connection, and (for keys made since access control binds) the access
/// control with the TPM auth value the keychain sealed under it. The TPM refuses the key without that value.
struct SecureEnclaveTPMKey: SecureEnclaveKeyHandle {
    let blob: TPMKeyBlob
    let connection: TPMConnection
    let access: SecureEnclaveKey.Access?

    private static let magic: [UInt8] = Array("KTPA".utf8)

    var publicPoint: [UInt8] { blob.publicPoint }
    var isHardwareBacked: Bool { true }

    /// `"KTPA" ‖ u32 len ‖ TPM blob ‖ u8 len ‖ protection class ‖ u64 flags ‖ sealed auth value`; a key without
    /// access control is the TPM blob alone (`"KTPM"…`).
    var serialized: [UInt8] {
        guard let access else { return blob.serialized }
        let tpm = blob.serialized
        var bytes = Self.magic + SecureEnclaveBlobReader.bigEndian(UInt64(tpm.count), bytes: 4) + tpm
        bytes += SecureEnclaveBlobReader.encoded(access.policy)
        return bytes + access.sealedAuthorization
    }

    func signature(digest: [UInt8], authorization: [UInt8]) throws -> [UInt8] {
        try SecureEnclaveBackends.translating(connection) { () throws(TPMError) in
            try connection.sign(digest: digest, with: blob, authorization: authorization)
        }
    }

    func sharedSecret(peerPoint: [UInt8], authorization: [UInt8]) throws -> SecureBytes {
        guard peerPoint.count == 65 else { throw EnclaveError.backend(.incorrectParameterSize) }
        var secret = try SecureEnclaveBackends.translating(connection) { () throws(TPMError) in
            try connection.sharedSecret(
                peerX: Array(peerPoint[1...32]), peerY: Array(peerPoint[33...64]), with: blob,
                authorization: authorization)
        }
        defer { secret.withUnsafeMutableBytes { wipeBytes($0) } }
        return SecureBytes(secret)
    }

    /// The longest sealed auth value (its wrapped item key and seal, with room for an access control's
    /// constraints) and the longest TPM blob (a P-256 key's public and private parts take well under 1 KiB).
    /// Longer bytes are nothing this enclave made, and a loaded key would keep them.
    static let longestSealedAuthorization = 4096
    static let longestBlob = 4096

    /// Splits a stored form into the TPM blob and the access part; bytes without the envelope are taken for a
    /// bare TPM blob (whose own parsing refuses anything else).
    /// - Throws: ``EnclaveError`` -50 for a damaged envelope.
    static func parse(_ bytes: [UInt8]) throws -> (tpm: [UInt8], access: SecureEnclaveKey.Access?) {
        guard bytes.count > 4, Array(bytes[0..<4]) == magic else { return (bytes, nil) }
        var reader = SecureEnclaveBlobReader(bytes, offset: 4)
        let length = Int(try reader.integer(4))
        guard length <= longestBlob else { throw EnclaveError.invalidBlob }
        let tpm = try reader.take(length)
        let policy = try reader.policy()
        let sealed = reader.rest
        guard !sealed.isEmpty, sealed.count <= longestSealedAuthorization else { throw EnclaveError.invalidBlob }
        return (tpm, SecureEnclaveKey.Access(policy: policy, sealedAuthorization: sealed))
    }
}
