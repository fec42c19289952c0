package import CryptoKitOpenSSL
import KeychainCore
package import KeychainCrypto

/// The administrator's software Secure Enclave (``SecureEnclaveSetting``), for machines without a TPM: keys made
/// by OpenSSL, whose private scalar is stored sealed under the key's auth value and under a key derived from the
/// keychain home's device key, which only the keychain holds (``SecureEnclaveSoftwareKey``). It is as strong as the home's files and the
/// keychain's protection classes, not a chip: its keys say so (`isHardwareBacked` is false).
struct SecureEnclaveSoftwareBackend: SecureEnclaveBackend {
    var backing: SecureEnclaveBacking { .software }

    func createKey(
        use: SecureEnclaveKeyUse, authorization: [UInt8],
        seal: (_ publicPoint: [UInt8]) throws -> SecureEnclaveKey.Access?
    ) throws -> (any SecureEnclaveKeyHandle)? {
        let key = try translatingErrors { try ECKey.generate(.p256, compactRepresentable: false) }
        guard let access = try seal(key.publicPoint) else { return nil }
        let scalar = try translatingErrors { try key.privateScalar }
        return try SecureEnclaveSoftwareKey(
            sealing: scalar, use: use, publicPoint: key.publicPoint, access: access,
            authorization: authorization, keychain: try SecureEnclaveBackends.sealingKeychain())
    }

    func restoreKey(_ bytes: [UInt8], use: SecureEnclaveKeyUse) throws -> any SecureEnclaveKeyHandle {
        try SecureEnclaveSoftwareKey(serialized: bytes, use: use, keychain: try SecureEnclaveBackends.sealingKeychain())
    }
}
