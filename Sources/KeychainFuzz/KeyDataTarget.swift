import Foundation
import KeychainCrypto
import Security

/// Key bytes as an app receives them (a peer's public key, a key file): the first byte picks the reader
/// (`SecKeyCreateWithData` for RSA and EC, public and private; the PKCS #8 reader PKCS#12 files reach; CryptoKit's
/// initializers), the second an algorithm, the next two the key's length; the key follows and the rest is a
/// signature or ciphertext for the key to check.
extension FuzzTarget {
    static let keyData = FuzzTarget(
        name: "key-data",
        summary: "SecKeyCreateWithData / CryptoKit key initializers of the input, exports, verify and decrypt"
    ) { bytes in
        var input = FuzzInput(bytes)
        let reader = Int(input.byte()) % (KeyFuzzing.readers.count + CryptoKitKeyFuzzing.readerCount)
        let algorithmChoice = Int(input.byte())
        let keyLength = Int(input.byte()) << 8 | Int(input.byte())
        let keyBytes = input.bytes(keyLength)
        let operand = input.rest()
        guard reader >= KeyFuzzing.readers.count else {  // a SecKey reader
            let (type, keyClass) = KeyFuzzing.readers[reader]
            KeyFuzzing.create(keyBytes, type: type, keyClass: keyClass, algorithm: algorithmChoice, operand: operand)
            return
        }
        CryptoKitKeyFuzzing.run(
            reader: reader - KeyFuzzing.readers.count, key: keyBytes, operand: operand)
    }
}

enum KeyFuzzing {
    /// `SecKeyCreateWithData`'s type and class for readers 0 to 3; reader 4, a class of nil, is the PKCS #8
    /// reader of private keys in PKCS#12 files.
    static let readers: [(type: String, keyClass: String?)] = [
        (kSecAttrKeyTypeRSA as String, kSecAttrKeyClassPublic as String),
        (kSecAttrKeyTypeRSA as String, kSecAttrKeyClassPrivate as String),
        (kSecAttrKeyTypeECSECPrimeRandom as String, kSecAttrKeyClassPublic as String),
        (kSecAttrKeyTypeECSECPrimeRandom as String, kSecAttrKeyClassPrivate as String),
        (kSecAttrKeyTypeRSA as String, nil),
    ]

    static func create(_ bytes: [UInt8], type: String, keyClass: String?, algorithm: Int, operand: [UInt8]) {
        let key: SecKey
        if let keyClass {
            let attributes = [kSecAttrKeyType as String: type, kSecAttrKeyClass as String: keyClass] as CFDictionary
            var error: Unmanaged<CFError>?
            guard let created = SecKeyCreateWithData(Data(bytes) as CFData, attributes, &error) else {
                let status = error.map { CFErrorGetCode($0.takeRetainedValue()) }
                fuzzNote("refused: \(status.map(String.init) ?? "no error")")
                fuzzCheck(status == Int(errSecParam), "SecKeyCreateWithData failed with \(String(describing: status))")
                return
            }
            key = created
            let external = SecKeyCopyExternalRepresentation(key, nil).map { Array($0 as Data) }
            // X9.63 has one encoding per key: what was accepted is what is exported.
            if type != kSecAttrKeyTypeRSA as String {
                fuzzCheck(external == bytes, "an EC key's external representation is not its input")
            }
        } else {
            guard let created = try? SecKey(pkcs8PrivateKey: SecureBytes(bytes)) else { return }
            key = created
        }
        fuzzNote("accepted: \(key)")
        if let attributes = SecKeyCopyAttributes(key) as? [String: Any] {
            fuzzCheck(
                attributes[kSecAttrKeyClass as String] as? String
                    == (isPrivate(key) ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic) as String,
                "kSecAttrKeyClass does not name the key's class")
        } else {
            fuzzCheck(false, "SecKeyCopyAttributes gave nil")
        }
        if isPrivate(key) { checkPrivateKey(key) } else { checkPublicKeyRoundTrip(key) }
        operate(key, algorithm: signatureAndEncryption[algorithm % signatureAndEncryption.count], operand: operand)
    }

    private static func isPrivate(_ key: SecKey) -> Bool { SecKeyCopyPublicKey(key) != key }

    private static func keyType(_ key: SecKey) -> CFString? {
        (SecKeyCopyAttributes(key) as? [String: Any])?[kSecAttrKeyType as String] as? String as CFString?
    }

    /// A public key's external representation reads back as the same key and exports the same bytes.
    static func checkPublicKeyRoundTrip(_ key: SecKey) {
        fuzzCheck(SecKeyCopyPublicKey(key) == key, "a public key's public key is another key")
        roundTrip(key, keyClass: kSecAttrKeyClassPublic)
    }

    /// A private key reads back from its external representation; its public key round-trips; a signature it
    /// makes verifies under its public key.
    static func checkPrivateKey(_ key: SecKey) {
        roundTrip(key, keyClass: kSecAttrKeyClassPrivate)
        guard let publicKey = SecKeyCopyPublicKey(key) else {
            fuzzCheck(false, "a private key has no public key")
            return
        }
        checkPublicKeyRoundTrip(publicKey)
        let algorithm: SecKeyAlgorithm =
            keyType(key) as String? == kSecAttrKeyTypeRSA as String
            ? .rsaSignatureMessagePKCS1v15SHA256 : .ecdsaSignatureMessageX962SHA256
        let message = Data("a message to sign".utf8) as CFData
        var error: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(key, algorithm, message, &error) else {
            fuzzCheck(false, "a private key does not sign: \(String(describing: error?.takeRetainedValue()))")
            return
        }
        fuzzCheck(
            SecKeyVerifySignature(publicKey, algorithm, message, signature, nil),
            "a private key's signature does not verify under its public key")
    }

    private static func roundTrip(_ key: SecKey, keyClass: CFString) {
        var error: Unmanaged<CFError>?
        guard let external = SecKeyCopyExternalRepresentation(key, &error), let type = keyType(key) else {
            fuzzCheck(false, "a key does not export: \(String(describing: error?.takeRetainedValue()))")
            return
        }
        let attributes = [kSecAttrKeyType as String: type, kSecAttrKeyClass as String: keyClass] as CFDictionary
        guard let again = SecKeyCreateWithData(external, attributes, &error) else {
            fuzzCheck(false, "a key's export is refused: \(String(describing: error?.takeRetainedValue()))")
            return
        }
        fuzzCheck(again == key, "a key read from its export is another key")
        let second = SecKeyCopyExternalRepresentation(again, nil).map { $0 as Data }
        fuzzCheck(second == external as Data, "a key's export does not round-trip")
    }

    /// The signature and encryption algorithms (key exchange takes a key, not bytes).
    static let signatureAndEncryption = SecKeyAlgorithm.all.filter { !($0.rawValue as String).contains("keyexchange") }

    /// Verifies `operand` as a signature over a zero block of a length it picks, or decrypts it; a private key
    /// also signs and encrypts, and what it makes must check.
    private static func operate(_ key: SecKey, algorithm: SecKeyAlgorithm, operand: [UInt8]) {
        let publicKey = SecKeyCopyPublicKey(key) ?? key
        let isPrivateKey = publicKey != key
        if (algorithm.rawValue as String).hasPrefix("algid:sign:") {
            let signed = Data(count: Int(operand.first ?? 0) % 80) as CFData
            let signature = Data(operand.dropFirst()) as CFData
            var error: Unmanaged<CFError>?
            if !SecKeyVerifySignature(publicKey, algorithm, signed, signature, &error) {
                let status = error.map { CFErrorGetCode($0.takeRetainedValue()) }
                let known = [errSecVerifyFailed, errSecParam].map(Int.init)
                fuzzCheck(status.map(known.contains) == true, "SecKeyVerifySignature: \(String(describing: status))")
            }
            guard isPrivateKey, let made = SecKeyCreateSignature(key, algorithm, signed, nil) else { return }
            fuzzCheck(SecKeyVerifySignature(publicKey, algorithm, signed, made, nil), "\(algorithm): no round trip")
            return
        }
        let operandData = Data(operand) as CFData
        if isPrivateKey { _ = SecKeyCreateDecryptedData(key, algorithm, operandData, nil) }
        guard let sealed = SecKeyCreateEncryptedData(publicKey, algorithm, operandData, nil), isPrivateKey,
            !(algorithm.rawValue as String).hasSuffix(":raw")
        else { return }
        var error: Unmanaged<CFError>?
        let opened = SecKeyCreateDecryptedData(key, algorithm, sealed, &error)
        fuzzCheck(
            opened.map { $0 as Data } == operandData as Data,
            "\(algorithm): decryption does not undo encryption: \(String(describing: error?.takeRetainedValue()))")
    }
}
