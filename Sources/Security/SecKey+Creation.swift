import CryptoKitOpenSSL
import Foundation
import KeychainCrypto

/// Creates a random key pair and returns its private key.
/// - Parameters:
///   - parameters: `kSecAttrKeyType` (`kSecAttrKeyTypeECSECPrimeRandom` or `kSecAttrKeyTypeRSA`),
///     `kSecAttrKeySizeInBits` (256, 384, 521 for EC, default 256; 512…8192 for RSA, required, as Apple's),
///     `kSecPrivateKeyAttrs`/`kSecPublicKeyAttrs`; `kSecAttrIsPermanent` true stores the key (or both
///     halves) as key items with the dictionaries' item attributes (tag, label, access control, group).
///     With `kSecAttrTokenID: kSecAttrTokenIDSecureEnclave`, an EC P-256 key made in the Secure Enclave backend
///     (see `SecureEnclaveKeyRequest`); a permanent one is stored as the enclave's blob, never a private scalar.
///   - error: receives an `NSOSStatusErrorDomain` error: `errSecParam` for a bad type or size, another token, or
///     no Secure Enclave on this machine; the add's status (errSecDuplicateItem, …) when a permanent key cannot be
///     stored.
/// - Returns: the private key, or nil on error.
public func SecKeyCreateRandomKey(_ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?)
    -> SecKey?
{
    SecKeyError.reporting(error) {
        if let enclave = try SecureEnclaveKeyRequest(parameters) {
            let permanence = try PermanentKeyRequest(parameters)
            let key = try enclave.make()
            if !permanence.isEmpty {
                try permanence.store(
                    privateKey: key, publicKey: permanence.publicItem == nil ? nil : SecKeyCopyPublicKey(key))
            }
            return key
        }
        let request = try KeyGenerationRequest(parameters)
        let permanence = try PermanentKeyRequest(parameters)
        let key: SecKey
        switch request.family {
        case .ec(let curve):
            guard let made = try? ECKey.generate(curve, compactRepresentable: false) else {
                throw SecKeyError(errSecInternalComponent, "EC key generation failed")
            }
            key = SecKey(.ec(made))
        case .rsa(let bits):
            guard let made = try? RSAKey.generate(bits: bits) else {
                throw SecKeyError(errSecInternalComponent, "RSA key generation failed")
            }
            key = SecKey(.rsa(made))
        }
        if !permanence.isEmpty {
            try permanence.store(
                privateKey: key, publicKey: permanence.publicItem == nil ? nil : SecKeyCopyPublicKey(key))
        }
        return key
    }
}

/// Creates a key from its external representation.
/// - Parameters:
///   - keyData: EC: `04 ‖ X ‖ Y` (public) or `04 ‖ X ‖ Y ‖ K` (private), ANSI X9.63; RSA: PKCS #1 DER
///     (a public key may also be a SubjectPublicKeyInfo).
///   - attributes: `kSecAttrKeyType` and `kSecAttrKeyClass` are required.
///   - error: receives `errSecParam` for a missing type or class or data that is not a key of that kind.
/// - Returns: the key, or nil on error.
public func SecKeyCreateWithData(
    _ keyData: CFData, _ attributes: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    SecKeyError.reporting(error) {
        let type = try KeyGenerationRequest.integer(attributes[kSecAttrKeyType], named: "key type")
        let keyClass = try KeyGenerationRequest.integer(attributes[kSecAttrKeyClass], named: "key class")
        var bytes = [UInt8](keyData as Data)
        defer { wipe(&bytes) }
        switch (keyClass, type) {
        case (0, 42): return SecKey(.rsa(try KeyImport.rsaPublic(bytes)))
        case (1, 42): return SecKey(.rsa(try KeyImport.rsaPrivate(bytes)))
        case (0, 73), (0, 43): return SecKey(.ec(try KeyImport.ecPublic(bytes)))
        case (1, 73), (1, 43): return SecKey(.ec(try KeyImport.ecPrivate(bytes)))
        case (0, _): throw SecKeyError.param("Unsupported public key type: \(type)")
        case (1, _): throw SecKeyError.param("Unsupported private key type: \(type)")
        case (2, _): throw SecKeyError(errSecUnimplemented, "Unsupported symmetric key type: \(type)")
        default: throw SecKeyError.param("Unsupported key class: \(keyClass)")
        }
    }
}

/// The public key of a key pair, or the key itself when it is public.
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? {
    guard key.isPrivate else { return key }
    // An enclave key's material is its public key already.
    if key.enclave != nil { return SecKey(key.material) }
    switch key.material {
    case .ec(let ec): return (try? ec.publicKey).map { SecKey(.ec($0)) }
    case .rsa(let rsa): return (try? rsa.publicKey).map { SecKey(.rsa($0)) }
    }
}

/// The key's external representation, the format `SecKeyCreateWithData` reads.
/// - Parameter error: receives an error when the key cannot be exported.
public func SecKeyCopyExternalRepresentation(_ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?)
    -> CFData?
{
    SecKeyError.reporting(error) {
        if key.enclave != nil { throw key.enclaveExportRefusal() }
        switch key.material {
        case .ec(let ec):
            guard ec.hasPrivateKey else { return Data(ec.publicPoint) as NSData }
            guard let scalar = try? ec.privateScalar else {
                throw SecKeyError(errSecInternalComponent, "the EC private key could not be exported")
            }
            return scalar.withUnsafeBytes { Data(ec.publicPoint + $0) } as NSData
        case .rsa(let rsa):
            if rsa.hasPrivateKey {
                guard let der = try? rsa.pkcs1PrivateKey else {
                    throw SecKeyError(errSecInternalComponent, "the RSA private key could not be exported")
                }
                return der.withUnsafeBytes { Data($0) } as NSData
            }
            guard let der = try? rsa.pkcs1PublicKey else {
                throw SecKeyError(errSecInternalComponent, "the RSA public key could not be exported")
            }
            return Data(der) as NSData
        }
    }
}

/// The key's attributes as Apple reports them for a key object: class, type, sizes, `klbl` (SHA-1 of the
/// public key's external representation), the usage flags of its class, and its external representation.
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? {
    if let enclave = key.enclave { return key.enclaveAttributes(enclave) }
    guard let external = SecKeyCopyExternalRepresentation(key, nil) else { return nil }
    let publicBytes = key.publicExternalRepresentation
    guard let label = try? publicBytes.withUnsafeBytes({ try DigestAlgorithm.sha1.hash($0) }) else { return nil }
    let isPrivate = key.isPrivate
    let attributes: [String: Any] = [
        kSecClass as String: kSecClassKey,
        kSecAttrKeyClass as String: isPrivate ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic,
        kSecAttrApplicationLabel as String: Data(label),
        kSecAttrIsPermanent as String: true,
        "priv": true,
        "modi": true,
        kSecAttrKeyType as String: key.keyType,
        kSecAttrKeySizeInBits as String: key.sizeInBits,
        kSecAttrEffectiveKeySize as String: key.sizeInBits,
        kSecAttrIsSensitive as String: false,
        "asen": false,
        kSecAttrIsExtractable as String: true,
        "next": false,
        kSecAttrCanEncrypt as String: !isPrivate,
        kSecAttrCanDecrypt as String: key.canDecrypt,
        kSecAttrCanDerive as String: key.canDerive,
        kSecAttrCanSign as String: isPrivate,
        kSecAttrCanVerify as String: !isPrivate,
        "snrc": false,
        "vyrc": false,
        kSecAttrCanWrap as String: !isPrivate,
        kSecAttrCanUnwrap as String: isPrivate,
        kSecValueData as String: external as Data,
    ]
    return NSDictionary(dictionary: attributes)
}

/// Bytes in the key's block: the modulus for RSA, one coordinate for EC (32, 48 or 66).
public func SecKeyGetBlockSize(_ key: SecKey) -> Int {
    switch key.material {
    case .ec(let ec): ec.curve.coordinateByteCount
    case .rsa(let rsa): rsa.modulusByteCount
    }
}
