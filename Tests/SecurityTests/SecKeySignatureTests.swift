import Foundation
import Security
import Testing

/// `SecKeyCreateSignature`/`SecKeyVerifySignature` for every ECDSA and RSA algorithm, and
/// `SecKeyIsAlgorithmSupported`.
@Suite struct SecKeySignatureTests {
    /// Bytes a digest algorithm's input must have: the named hash's size, or 32 where none is named.
    static func digestLength(_ algorithm: SecKeyAlgorithm) -> Int {
        let name = algorithm.rawValue as String
        for (suffix, length) in [("SHA1", 20), ("SHA224", 28), ("SHA256", 32), ("SHA384", 48), ("SHA512", 64)]
        where name.contains(":\(suffix)") {
            return length
        }
        return 32
    }

    static func input(for algorithm: SecKeyAlgorithm) -> Data {
        let name = algorithm.rawValue as String
        if name.contains(":message-") { return Data("the message signed".utf8) }
        return Data(repeating: 0x5A, count: digestLength(algorithm))
    }

    static func algorithms(_ prefix: String) -> [SecKeyAlgorithm] {
        SecKeyAlgorithm.all.filter { ($0.rawValue as String).hasPrefix(prefix) }
    }

    @Test func everyECDSAAlgorithmSignsAndVerifies() throws {
        let algorithms = Self.algorithms("algid:sign:ECDSA")
        #expect(algorithms.count == 23)
        for bits in [256, 384, 521] {
            let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: bits)
            let publicKey = try KeyFixtures.publicKey(key)
            for algorithm in algorithms {
                try Self.checkRoundTrip(key, publicKey, algorithm)
                if (algorithm.rawValue as String).contains("RFC4754") {
                    var error: Unmanaged<CFError>?
                    let signature = SecKeyCreateSignature(key, algorithm, Self.input(for: algorithm) as CFData, &error)
                    #expect((signature as Data?)?.count == 2 * SecKeyGetBlockSize(key))
                }
            }
        }
    }

    @Test func everyRSASignatureAlgorithmSignsAndVerifies() throws {
        let algorithms = Self.algorithms("algid:sign:RSA")
        #expect(algorithms.count == 22)
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try KeyFixtures.publicKey(key)
        for algorithm in algorithms { try Self.checkRoundTrip(key, publicKey, algorithm) }
    }

    static func checkRoundTrip(_ key: SecKey, _ publicKey: SecKey, _ algorithm: SecKeyAlgorithm) throws {
        let data = input(for: algorithm)
        #expect(SecKeyIsAlgorithmSupported(key, .sign, algorithm), "\(algorithm.rawValue)")
        #expect(SecKeyIsAlgorithmSupported(publicKey, .verify, algorithm))
        #expect(!SecKeyIsAlgorithmSupported(publicKey, .sign, algorithm))
        #expect(!SecKeyIsAlgorithmSupported(key, .verify, algorithm))
        var error: Unmanaged<CFError>?
        let signature = try #require(
            SecKeyCreateSignature(key, algorithm, data as CFData, &error) as Data?, "\(algorithm.rawValue)")
        #expect(SecKeyVerifySignature(publicKey, algorithm, data as CFData, signature as CFData, &error))
        var tampered = data
        tampered[0] ^= 0x01
        #expect(!SecKeyVerifySignature(publicKey, algorithm, tampered as CFData, signature as CFData, &error))
        #expect(KeyFixtures.status(error)?.code == Int(errSecVerifyFailed), "\(algorithm.rawValue)")
    }

    @Test func aDigestOfTheWrongLengthIsErrSecParam() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        var error: Unmanaged<CFError>?
        let short = Data(repeating: 1, count: 31)
        #expect(SecKeyCreateSignature(key, .ecdsaSignatureDigestX962SHA256, short as CFData, &error) == nil)
        let failure = error?.takeRetainedValue()
        #expect(failure?.domain == "NSOSStatusErrorDomain")
        #expect(failure?.code == Int(errSecParam))
    }

    @Test func anAlgorithmOfTheOtherFamilyIsErrSecParamAndUnsupported() throws {
        let ec = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateSignature(ec, .rsaSignatureMessagePKCS1v15SHA256, Data() as CFData, &error) == nil)
        let failure = error?.takeRetainedValue()
        #expect(failure?.code == Int(errSecParam))
        #expect((failure?.userInfo["NSDescription"] as? String)?.contains("algorithm not supported by the key") == true)
        #expect(!SecKeyIsAlgorithmSupported(ec, .sign, .rsaSignatureMessagePKCS1v15SHA256))
        #expect(
            !SecKeyIsAlgorithmSupported(ec, .sign, SecKeyAlgorithm(rawValue: "algid:sign:ECDSA:nonsense" as CFString)))
        #expect(!SecKeyIsAlgorithmSupported(ec, .encrypt, .ecdsaSignatureMessageX962SHA256))
    }

    /// Apple reads an RSA signature as a number, left-padded with zeros to the modulus: one whose leading zero byte
    /// was dropped (as some encoders do) verifies; one longer than the modulus is refused as a bad parameter.
    @Test func anRSASignatureWithoutItsLeadingZeroVerifies() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try KeyFixtures.publicKey(key)
        let algorithms: [SecKeyAlgorithm] = [
            .rsaSignatureMessagePKCS1v15SHA256, .rsaSignatureMessagePSSSHA256, .rsaSignatureDigestPKCS1v15Raw,
            .rsaSignatureRaw,
        ]
        for algorithm in algorithms {
            // About one signature in 256 starts with a zero byte.
            var found: (message: Data, signature: Data)?
            for counter in 0..<10_000 where found == nil {
                let message = Data("message \(counter)".utf8)
                var error: Unmanaged<CFError>?
                let signature = try #require(
                    SecKeyCreateSignature(key, algorithm, message as CFData, &error) as Data?, "\(algorithm.rawValue)")
                if signature.first == 0 { found = (message, signature) }
            }
            let (message, signature) = try #require(found)
            var error: Unmanaged<CFError>?
            let short = Data(signature.dropFirst())
            #expect(
                SecKeyVerifySignature(publicKey, algorithm, message as CFData, short as CFData, &error),
                "\(algorithm.rawValue)")
            #expect(KeyFixtures.status(error) == nil)
            let long = Data([0]) + signature
            #expect(!SecKeyVerifySignature(publicKey, algorithm, message as CFData, long as CFData, &error))
            #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        }
    }

    /// Strings in Apple's "algid:" grammar that Apple defines no algorithm for (Security's SecKeyAdaptors.m): not
    /// supported, and errSecParam "algorithm not supported by the key", as any unknown algorithm.
    @Test func algorithmStringsAppleDoesNotDefineAreUnsupported() throws {
        let ec = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let rsa = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 1024)
        let cases: [(SecKey, SecKeyOperationType, String)] = [
            (ec, .sign, "algid:sign:ECDSA:digest-X962:MD5"),
            (ec, .sign, "algid:sign:ECDSA:message-RFC4754:MD5"),
            (rsa, .sign, "algid:sign:RSA:message-PSS:MD5:MD5:16"),
            (try KeyFixtures.publicKey(ec), .encrypt, "algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM-KDFIV"),
            (try KeyFixtures.publicKey(ec), .encrypt, "algid:encrypt:ECIES:ECDHC:KDFX963:MD5:AESGCM"),
            (try KeyFixtures.publicKey(rsa), .encrypt, "algid:encrypt:RSA:OAEP:MD5"),
            (try KeyFixtures.publicKey(rsa), .encrypt, "algid:encrypt:RSA:OAEP:MD5:AESGCM"),
            (ec, .keyExchange, "algid:keyexchange:ECDH:KDFX963:MD5"),
        ]
        for (key, operation, name) in cases {
            let algorithm = SecKeyAlgorithm(rawValue: name as CFString)
            #expect(!SecKeyIsAlgorithmSupported(key, operation, algorithm), "\(name)")
            var error: Unmanaged<CFError>?
            let data = Data(repeating: 1, count: 16) as CFData
            switch operation {
            case .sign: #expect(SecKeyCreateSignature(key, algorithm, data, &error) == nil)
            case .encrypt: #expect(SecKeyCreateEncryptedData(key, algorithm, data, &error) == nil)
            default:
                let peer = try KeyFixtures.publicKey(
                    try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256))
                let parameters = [SecKeyKeyExchangeParameter.requestedSize.rawValue: 32] as CFDictionary
                #expect(SecKeyCopyKeyExchangeResult(key, algorithm, peer, parameters, &error) == nil)
            }
            let failure = error?.takeRetainedValue()
            #expect(failure?.code == Int(errSecParam), "\(name)")
            let description = failure?.userInfo["NSDescription"] as? String
            #expect(description?.contains("algorithm not supported by the key") == true, "\(name)")
        }
        // Apple's RSA PKCS #1 v1.5 over MD5, which it names only in SecKeyPriv.h, still signs and verifies.
        for name in ["algid:sign:RSA:digest-PKCS1v15:MD5", "algid:sign:RSA:message-PKCS1v15:MD5"] {
            let algorithm = SecKeyAlgorithm(rawValue: name as CFString)
            var error: Unmanaged<CFError>?
            let data = Data(repeating: 1, count: 16) as CFData
            let signature = try #require(SecKeyCreateSignature(rsa, algorithm, data, &error), "\(name)")
            #expect(SecKeyVerifySignature(try KeyFixtures.publicKey(rsa), algorithm, data, signature, &error))
        }
    }

    @Test func pssNeedsRoomInTheModulus() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 1024)
        #expect(SecKeyIsAlgorithmSupported(key, .sign, .rsaSignatureMessagePSSSHA384))
        #expect(!SecKeyIsAlgorithmSupported(key, .sign, .rsaSignatureMessagePSSSHA512))
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateSignature(key, .rsaSignatureMessagePSSSHA512, Data("m".utf8) as CFData, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
    }

    @Test func x962SignaturesAreDERAndGarbageFailsVerification() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let publicKey = try KeyFixtures.publicKey(key)
        var error: Unmanaged<CFError>?
        let message = Data("m".utf8) as CFData
        let signature = try #require(SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message, &error))
        #expect((signature as Data).first == 0x30)
        #expect(
            !SecKeyVerifySignature(
                publicKey, .ecdsaSignatureMessageX962SHA256, message, Data([0x30, 0]) as CFData, &error))
        #expect(KeyFixtures.status(error)?.code == Int(errSecVerifyFailed))
    }
}
