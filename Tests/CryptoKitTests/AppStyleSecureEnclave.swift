// Secure Enclave code as iOS security guides write it; it imports Security for the access control, as on iOS.
import CryptoKit
import Security

/// Signs with a Secure Enclave key when the device has one; nil when it does not.
func signInSecureEnclave(_ data: Data) throws -> (isValid: Bool, restoredMatches: Bool)? {
    guard SecureEnclave.isAvailable else { return nil }

    let accessControl = SecAccessControlCreateWithFlags(
        nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
        [.privateKeyUsage, .biometryCurrentSet], nil
    )!
    let privateKey = try SecureEnclave.P256.Signing.PrivateKey(accessControl: accessControl)

    let signature = try privateKey.signature(for: data)  // May trigger biometric prompt
    let isValid = privateKey.publicKey.isValidSignature(signature, for: data)

    // Persist: store dataRepresentation in Keychain, restore with:
    let restored = try SecureEnclave.P256.Signing.PrivateKey(
        dataRepresentation: privateKey.dataRepresentation
    )
    return (isValid, restored.publicKey.rawRepresentation == privateKey.publicKey.rawRepresentation)
}

/// Agrees on a key with an enclave key when the device has one.
func agreeInSecureEnclave(with peer: P256.KeyAgreement.PublicKey) throws -> SymmetricKey? {
    guard SecureEnclave.isAvailable else { return nil }
    let key = try SecureEnclave.P256.KeyAgreement.PrivateKey()
    let secret = try key.sharedSecretFromKeyAgreement(with: peer)
    return secret.hkdfDerivedSymmetricKey(using: SHA256.self, salt: Data(), sharedInfo: Data(), outputByteCount: 32)
}
