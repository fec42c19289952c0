import CryptoKit
import Foundation
import KeychainCrypto
import Security

/// Seeds for the key-data target: `[reader, algorithm, length (2 bytes)] ‖ key ‖ operand`, the operand being
/// `[signed length] ‖ signature` for a signature algorithm, with a valid signature so that verification gets far.
extension SeedCorpus {
    static func keyData() -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        let ecdsa = algorithmByte(.ecdsaSignatureMessageX962SHA256)
        let pkcs1 = algorithmByte(.rsaSignatureMessagePKCS1v15SHA256)
        let rsa = randomKey(kSecAttrKeyTypeRSA, bits: 1024)
        seeds.append(secKeySeed(reader: 0, key: rsa, publicHalf: true, algorithm: pkcs1))
        seeds.append(secKeySeed(reader: 1, key: rsa, publicHalf: false, algorithm: pkcs1))
        for bits in [256, 384, 521] {
            let ec = randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: bits)
            seeds.append(secKeySeed(reader: 2, key: ec, publicHalf: true, algorithm: ecdsa))
            seeds.append(secKeySeed(reader: 3, key: ec, publicHalf: false, algorithm: ecdsa))
        }
        let eciesAlgorithm = algorithmByte(.eciesEncryptionStandardVariableIVX963SHA256AESGCM)
        if let ec = seeds.last, let ciphertext = eciesCiphertext() {
            // The P-521 key again, with an ECIES blob for another key to decrypt.
            let length = Int(ec[2]) << 8 | Int(ec[3])
            seeds.append([3, eciesAlgorithm] + ec[2..<(4 + length)] + ciphertext)
        }
        if let pkcs8 = rsa.pkcs8PrivateKey {
            seeds.append(pkcs8.withUnsafeBytes { framed(reader: 4, algorithm: pkcs1, key: Array($0), operand: []) })
        }
        seeds += cryptoKitSeeds()
        return seeds
    }

    private static func algorithmByte(_ algorithm: SecKeyAlgorithm) -> UInt8 {
        UInt8(KeyFuzzing.signatureAndEncryption.firstIndex(of: algorithm) ?? 0)
    }

    private static func framed(reader: UInt8, algorithm: UInt8, key: [UInt8], operand: [UInt8]) -> [UInt8] {
        [reader, algorithm, UInt8(key.count >> 8), UInt8(key.count & 0xFF)] + key + operand
    }

    private static func randomKey(_ type: CFString, bits: Int) -> SecKey {
        let parameters = [kSecAttrKeyType as String: type, kSecAttrKeySizeInBits as String: bits] as CFDictionary
        guard let key = SecKeyCreateRandomKey(parameters, nil) else { fatalError("cannot make a seed key") }
        return key
    }

    /// The key's external representation, and a signature of 32 zero bytes by the private key.
    private static func secKeySeed(reader: UInt8, key: SecKey, publicHalf: Bool, algorithm: UInt8) -> [UInt8] {
        let chosen = publicHalf ? (SecKeyCopyPublicKey(key) ?? key) : key
        let external = SecKeyCopyExternalRepresentation(chosen, nil).map { Array($0 as Data) } ?? []
        let signedLength: UInt8 = 32
        let signature = SecKeyCreateSignature(
            key, KeyFuzzing.signatureAndEncryption[Int(algorithm)], Data(count: Int(signedLength)) as CFData, nil)
        return framed(
            reader: reader, algorithm: algorithm, key: external,
            operand: [signedLength] + (signature.map { Array($0 as Data) } ?? []))
    }

    private static func eciesCiphertext() -> [UInt8]? {
        let key = randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 521)
        guard let publicKey = SecKeyCopyPublicKey(key) else { return nil }
        return SecKeyCreateEncryptedData(
            publicKey, .eciesEncryptionStandardVariableIVX963SHA256AESGCM, Data("plaintext".utf8) as CFData, nil
        ).map { Array($0 as Data) }
    }

    /// CryptoKit forms of one P-256 key (and a P-384 and a P-521 one in X9.63), signatures, Curve25519 keys.
    private static func cryptoKitSeeds() -> [[UInt8]] {
        typealias Form = CryptoKitKeyFuzzing.Form
        let key = P256.Signing.PrivateKey(compactRepresentable: true)
        let publicKey = key.publicKey
        let message = Data("a message".utf8)
        let signature = (try? key.signature(for: message))?.rawRepresentation ?? Data()
        func seed(_ curve: Int, _ form: Form, _ bytes: some DataProtocol, operand: some DataProtocol = Data())
            -> [UInt8]
        {
            framed(
                reader: CryptoKitKeyFuzzing.readerByte(curveIndex: curve, form: form), algorithm: 0,
                key: Array(bytes), operand: Array(operand))
        }
        var seeds = [
            seed(0, .publicX963, publicKey.x963Representation, operand: signature),
            seed(0, .publicDER, publicKey.derRepresentation),
            seed(0, .publicPEM, Data(publicKey.pemRepresentation.utf8)),
            seed(0, .publicRaw, publicKey.rawRepresentation),
            seed(0, .publicCompressed, publicKey.compressedRepresentation),
            seed(0, .publicCompact, publicKey.compactRepresentation ?? Data()),
            seed(0, .privateX963, key.x963Representation), seed(0, .privateDER, key.derRepresentation),
            seed(0, .privatePEM, Data(key.pemRepresentation.utf8)), seed(0, .privateRaw, key.rawRepresentation),
            seed(0, .signatureRaw, signature),
            seed(1, .privateX963, P384.Signing.PrivateKey().x963Representation),
            seed(2, .publicDER, P521.Signing.PrivateKey().publicKey.derRepresentation),
        ]
        if let der = try? P256.Signing.ECDSASignature(rawRepresentation: signature).derRepresentation {
            seeds.append(seed(0, .signatureDER, der))
        }
        let ed25519 = Curve25519.Signing.PrivateKey()
        let edSignature = (try? ed25519.signature(for: Data("a message".utf8))) ?? Data()
        let nistReaders = UInt8(KeyFuzzing.readers.count + 3 * Form.allCases.count)
        seeds.append(
            framed(
                reader: nistReaders, algorithm: 0, key: Array(ed25519.publicKey.rawRepresentation),
                operand: Array(edSignature)))
        seeds.append(
            framed(
                reader: nistReaders + 1, algorithm: 0,
                key: Array(Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation), operand: []))
        return seeds
    }
}
