import CryptoKitOpenSSL
import Foundation
import KeychainCore
import KeychainCrypto

/// A key as a keychain item: its value (the external representation and what rebuilds it) and the attributes
/// Apple derives from the key object when one is added (`SecItemAdd` with `kSecValueRef`).
extension SecKey {
    /// The item value: type, class, size and the external representation, in wiped-on-free memory.
    /// - Throws: errSecInternalComponent when the key cannot be exported.
    func itemValue() throws -> KeyValue {
        if let enclave { return enclave.itemValue }
        var bytes: [UInt8]
        switch material {
        case .ec(let ec):
            if ec.hasPrivateKey {
                guard let scalar = try? ec.privateScalar else { throw Self.exportFailure }
                bytes = ec.publicPoint + scalar.withUnsafeBytes { [UInt8]($0) }
            } else {
                bytes = ec.publicPoint
            }
        case .rsa(let rsa):
            if rsa.hasPrivateKey {
                guard let der = try? rsa.pkcs1PrivateKey else { throw Self.exportFailure }
                bytes = der.withUnsafeBytes { [UInt8]($0) }
            } else {
                guard let der = try? rsa.pkcs1PublicKey else { throw Self.exportFailure }
                bytes = der
            }
        }
        defer { wipe(&bytes) }
        return KeyValue(
            keyType: keyType as String, keyClass: isPrivate ? "1" : "0", sizeInBits: sizeInBits,
            externalRepresentation: Secret(bytes))
    }

    private static var exportFailure: KeychainError {
        KeychainError(SecurityStatus.internalComponent, reason: "the key could not be exported for the keychain")
    }

    /// The key's item attributes as `SecKeyCopyAttributes` reports them (without its class and value): what an
    /// add takes for each attribute the caller did not give.
    var itemAttributes: [AttributeKey: AttributeValue] {
        var attributes: [AttributeKey: AttributeValue] = [
            .keyClass: .number(isPrivate ? 1 : 0), .keyType: .number(keyType == kSecAttrKeyTypeRSA ? 42 : 73),
            .keySizeInBits: .number(Int64(sizeInBits)), .effectiveKeySize: .number(Int64(sizeInBits)),
            .isPermanent: .bool(true), .isPrivate: .bool(true), .isModifiable: .bool(true),
            .isSensitive: .bool(false), .wasAlwaysSensitive: .bool(false), .isExtractable: .bool(true),
            .wasNeverExtractable: .bool(false), .canEncrypt: .bool(!isPrivate), .canDecrypt: .bool(canDecrypt),
            .canDerive: .bool(canDerive), .canSign: .bool(isPrivate), .canVerify: .bool(!isPrivate),
            .canSignRecover: .bool(false), .canVerifyRecover: .bool(false), .canWrap: .bool(!isPrivate),
            .canUnwrap: .bool(isPrivate),
        ]
        if enclave != nil {
            // The private key never leaves the enclave; its token ID keeps the item on this device.
            for (key, value) in [
                (AttributeKey.isSensitive, true), (.wasAlwaysSensitive, true),
                (.isExtractable, false), (.wasNeverExtractable, true),
            ] {
                attributes[key] = .bool(value)
            }
            attributes[.tokenID] = .string(kSecAttrTokenIDSecureEnclave as String)
        }
        if let label = applicationLabel { attributes[.applicationLabel] = .data(label) }
        return attributes
    }

    /// `klbl`: the SHA-1 of the public key's external representation, as Apple labels EC and RSA keys.
    var applicationLabel: [UInt8]? {
        try? publicExternalRepresentation.withUnsafeBytes { try DigestAlgorithm.sha1.hash($0) }
    }

    /// The attributes a query by `kSecValueRef` matches: the key's class, type, size and application label.
    var identifyingAttributes: [AttributeKey: AttributeValue] {
        itemAttributes.filter { [.keyClass, .keyType, .keySizeInBits, .applicationLabel].contains($0.key) }
    }

    /// The key a found item's value holds: as ``init(itemValue:)``, except that an enclave key is loaded by the
    /// enclave at its first use, so that an item this enclave cannot load still gives a key (whose uses fail with
    /// errSecDecode), as Apple's keychain does.
    convenience init?(foundItemValue value: KeyValue) {
        guard let enclave = EnclaveKeyBinding.deferred(value) else {
            self.init(itemValue: value)
            return
        }
        guard let publicKey = Self.publicKey(of: enclave) else { return nil }
        self.init(enclave: enclave, publicKey: publicKey)
    }

    private static func publicKey(of enclave: EnclaveKeyBinding) -> ECKey? {
        try? enclave.publicPoint.withUnsafeBytes { try ECKey(curve: .p256, publicPoint: $0) }
    }

    /// The key an item value holds, an enclave key loaded by this machine's enclave now (what an add checks); nil
    /// when the bytes are not a key of the stated type and class.
    convenience init?(itemValue value: KeyValue) {
        if let enclave = try? EnclaveKeyBinding.restoring(value) {
            guard let publicKey = Self.publicKey(of: enclave) else { return nil }
            self.init(enclave: enclave, publicKey: publicKey)
            return
        }
        var bytes = value.externalRepresentation.bytes
        defer { wipe(&bytes) }
        let material: AsymmetricKey
        switch (value.keyClass, value.keyType) {
        case ("0", "42"):
            guard let key = try? KeyImport.rsaPublic(bytes) else { return nil }
            material = .rsa(key)
        case ("1", "42"):
            guard let key = try? KeyImport.rsaPrivate(bytes) else { return nil }
            material = .rsa(key)
        case ("0", "73"):
            guard let key = try? KeyImport.ecPublic(bytes) else { return nil }
            material = .ec(key)
        case ("1", "73"):
            guard let key = try? KeyImport.ecPrivate(bytes) else { return nil }
            material = .ec(key)
        default: return nil
        }
        self.init(material)
    }
}
