import CryptoKit
import Foundation
import Security
import Testing

/// `SecKeyCreateEncryptedData`/`SecKeyCreateDecryptedData`: RSA raw, PKCS #1 v1.5 and OAEP, and Apple's ECIES,
/// whose blobs are checked against ones rebuilt step by step (ECDH, the X9.63 KDF written out, AES-GCM).
@Suite struct SecKeyEncryptionTests {
    static let plaintext = Data("attack at dawn, bring the keys".utf8)

    @Test func everyRSAPaddingRoundTrips() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try KeyFixtures.publicKey(key)
        let algorithms: [SecKeyAlgorithm] = [
            .rsaEncryptionRaw, .rsaEncryptionPKCS1, .rsaEncryptionOAEPSHA1, .rsaEncryptionOAEPSHA224,
            .rsaEncryptionOAEPSHA256, .rsaEncryptionOAEPSHA384, .rsaEncryptionOAEPSHA512,
        ]
        for algorithm in algorithms {
            var error: Unmanaged<CFError>?
            let ciphertext = try #require(
                SecKeyCreateEncryptedData(publicKey, algorithm, Self.plaintext as CFData, &error) as Data?,
                "\(algorithm.rawValue)")
            #expect(ciphertext.count == 256)
            let opened = try #require(SecKeyCreateDecryptedData(key, algorithm, ciphertext as CFData, &error) as Data?)
            if algorithm == .rsaEncryptionRaw {
                #expect(opened.count == 256)
                #expect(opened.suffix(Self.plaintext.count) == Self.plaintext)
            } else {
                #expect(opened == Self.plaintext, "\(algorithm.rawValue)")
            }
            var altered = ciphertext
            altered[100] ^= 0x01
            if algorithm != .rsaEncryptionRaw {
                #expect(SecKeyCreateDecryptedData(key, algorithm, altered as CFData, &error) == nil)
                #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
            }
        }
    }

    /// Apple reads an RSA ciphertext as a number, left-padded with zeros to the modulus: one whose leading zero byte
    /// was dropped decrypts; one longer than the modulus is still errSecParam.
    @Test func anRSACiphertextWithoutItsLeadingZeroDecrypts() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try KeyFixtures.publicKey(key)
        for algorithm in [SecKeyAlgorithm.rsaEncryptionOAEPSHA256, .rsaEncryptionPKCS1, .rsaEncryptionRaw] {
            // About one ciphertext in 256 starts with a zero byte (raw encryption is deterministic: vary the input).
            var found: (plaintext: Data, ciphertext: Data)?
            for counter in 0..<10_000 where found == nil {
                let plaintext = Data("secret \(counter)".utf8)
                var error: Unmanaged<CFError>?
                let ciphertext = try #require(
                    SecKeyCreateEncryptedData(publicKey, algorithm, plaintext as CFData, &error) as Data?)
                if ciphertext.first == 0 { found = (plaintext, ciphertext) }
            }
            let (plaintext, ciphertext) = try #require(found)
            var error: Unmanaged<CFError>?
            let opened = SecKeyCreateDecryptedData(key, algorithm, Data(ciphertext.dropFirst()) as CFData, &error)
            #expect(KeyFixtures.status(error) == nil, "\(algorithm.rawValue)")
            let expected = algorithm == .rsaEncryptionRaw ? Data(count: 256 - plaintext.count) + plaintext : plaintext
            #expect(opened as Data? == expected, "\(algorithm.rawValue)")
            #expect(SecKeyCreateDecryptedData(key, algorithm, (Data([0]) + ciphertext) as CFData, &error) == nil)
            #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        }
    }

    /// Apple's RSA public key runs the raw operation for a decryption too (Security's SecKeyAdaptors.m hands
    /// `rsaEncryptionRaw` to the key for both operations; SecRSAKey.c's public key computes s^e mod n): code that
    /// opens a PKCS #1 type-1 block itself decrypts a signature with the public key. The private key still does not
    /// encrypt (its SecRSAKey.c operation has no encryption), and the legacy SecKeyDecrypt drops the leading zeros.
    @Test func anRSAPublicKeyDecryptsRaw() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 1024)
        let publicKey = try KeyFixtures.publicKey(key)
        #expect(SecKeyIsAlgorithmSupported(publicKey, .decrypt, .rsaEncryptionRaw))
        #expect(SecKeyIsAlgorithmSupported(publicKey, .encrypt, .rsaEncryptionRaw))
        #expect(SecKeyIsAlgorithmSupported(key, .decrypt, .rsaEncryptionRaw))
        #expect(!SecKeyIsAlgorithmSupported(key, .encrypt, .rsaEncryptionRaw))
        #expect(!SecKeyIsAlgorithmSupported(publicKey, .decrypt, .rsaEncryptionPKCS1))
        let attributes = try #require(SecKeyCopyAttributes(publicKey) as? [String: Any])
        #expect(attributes[kSecAttrCanDecrypt as String] as? Bool == true)

        var error: Unmanaged<CFError>?
        let digest = Data(SHA256.hash(data: Self.plaintext))
        let signature = try #require(
            SecKeyCreateSignature(key, .rsaSignatureDigestPKCS1v15Raw, digest as CFData, &error) as Data?)
        let block = try #require(
            SecKeyCreateDecryptedData(publicKey, .rsaEncryptionRaw, signature as CFData, &error) as Data?)
        #expect(KeyFixtures.status(error) == nil)
        // EMSA-PKCS1-v1_5 without a DigestInfo: 00 01 FF… 00 ‖ digest, as long as the modulus.
        #expect(block.count == 128)
        #expect(block.prefix(2) == Data([0x00, 0x01]))
        #expect(block.dropFirst(2).prefix(128 - 3 - 32).allSatisfy { $0 == 0xFF })
        #expect(block.suffix(33) == Data([0x00]) + digest)

        // The raw private operation then the raw public one gives the input back, left-padded to the modulus.
        let value = Data([0x01, 0x02, 0x03])
        let raised = try #require(SecKeyCreateSignature(key, .rsaSignatureRaw, value as CFData, &error) as Data?)
        let back = SecKeyCreateDecryptedData(publicKey, .rsaEncryptionRaw, raised as CFData, &error) as Data?
        #expect(back == Data(count: 125) + value)

        // A value not below the modulus, or longer than it, is errSecParam.
        #expect(
            SecKeyCreateDecryptedData(publicKey, .rsaEncryptionRaw, Data(repeating: 0xFF, count: 128) as CFData, &error)
                == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        #expect(
            SecKeyCreateDecryptedData(publicKey, .rsaEncryptionRaw, (Data([0]) + signature) as CFData, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        #expect(SecKeyCreateEncryptedData(key, .rsaEncryptionRaw, value as CFData, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))

        // SecKeyDecrypt without padding: the same block, its leading zero byte dropped.
        var output = [UInt8](repeating: 0, count: 128)
        var length = output.count
        let input = [UInt8](signature)
        let status = SecKeyDecrypt(publicKey, [], input, input.count, &output, &length)
        #expect(status == errSecSuccess)
        #expect(Data(output.prefix(length)) == block.dropFirst())
    }

    @Test func tooLongForThePaddingIsErrSecParam() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 1024)
        let publicKey = try KeyFixtures.publicKey(key)
        var error: Unmanaged<CFError>?
        // OAEP-SHA256 leaves 128 − 2·32 − 2 = 62 bytes.
        #expect(
            SecKeyCreateEncryptedData(publicKey, .rsaEncryptionOAEPSHA256, Data(count: 62) as CFData, &error) != nil)
        #expect(
            SecKeyCreateEncryptedData(publicKey, .rsaEncryptionOAEPSHA256, Data(count: 63) as CFData, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        #expect(!SecKeyIsAlgorithmSupported(publicKey, .encrypt, .rsaEncryptionOAEPSHA512))
        #expect(!SecKeyIsAlgorithmSupported(key, .encrypt, .rsaEncryptionOAEPSHA256))
        #expect(SecKeyIsAlgorithmSupported(key, .decrypt, .rsaEncryptionOAEPSHA256))
    }

    @Test func rsaWithAESGCMIsApplesHybridFormat() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try KeyFixtures.publicKey(key)
        let algorithms: [(SecKeyAlgorithm, SecKeyAlgorithm)] = [
            (.rsaEncryptionOAEPSHA1AESGCM, .rsaEncryptionOAEPSHA1),
            (.rsaEncryptionOAEPSHA224AESGCM, .rsaEncryptionOAEPSHA224),
            (.rsaEncryptionOAEPSHA256AESGCM, .rsaEncryptionOAEPSHA256),
            (.rsaEncryptionOAEPSHA384AESGCM, .rsaEncryptionOAEPSHA384),
            (.rsaEncryptionOAEPSHA512AESGCM, .rsaEncryptionOAEPSHA512),
        ]
        let aad = try KeyFixtures.external(publicKey)
        for (algorithm, wrapping) in algorithms {
            var error: Unmanaged<CFError>?
            let blob = try #require(
                SecKeyCreateEncryptedData(publicKey, algorithm, Self.plaintext as CFData, &error) as Data?)
            #expect(blob.count == 256 + Self.plaintext.count + 16)
            #expect(SecKeyCreateDecryptedData(key, algorithm, blob as CFData, &error) as Data? == Self.plaintext)
            // Step by step: the first block is a 16-byte AES key under OAEP; AES-GCM with 16 zero bytes as IV and
            // the public key's PKCS #1 DER as additional data opens the rest.
            let sessionKey = try #require(
                SecKeyCreateDecryptedData(key, wrapping, blob.prefix(256) as CFData, &error) as Data?)
            #expect(sessionKey.count == 16)
            let box = try AES.GCM.SealedBox(
                nonce: try AES.GCM.Nonce(data: Data(count: 16)), ciphertext: blob.dropFirst(256).dropLast(16),
                tag: blob.suffix(16))
            #expect(try AES.GCM.open(box, using: SymmetricKey(data: sessionKey), authenticating: aad) == Self.plaintext)
            var altered = blob
            altered[260] ^= 0x01
            #expect(SecKeyCreateDecryptedData(key, algorithm, altered as CFData, &error) == nil)
            #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
            #expect(SecKeyCreateDecryptedData(key, algorithm, blob.prefix(200) as CFData, &error) == nil)
            #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        }
    }

    /// Apple's SecKeyCopyAttributes reports an RSA key's size as its modulus's bit count (Security's SecRSAKey.c,
    /// `cczp_bitlen`, since Security-61040: macOS 14, iOS 17), and RSA with AES-GCM picks its session key by that
    /// attribute: a 4094-bit key reports 4094, not its block size times 8, and wraps a 16-byte AES key.
    @Test func anRSAKeyOfAnOddSizeReportsItsModulusBitsAndWrapsA16ByteKey() throws {
        let openssl = try OpenSSLCommand()
        defer { openssl.remove() }
        try openssl.run(["genrsa", "-out", openssl.path("key.pem"), "4094"])
        try openssl.run([
            "rsa", "-in", openssl.path("key.pem"), "-traditional", "-outform", "DER", "-out", openssl.path("key.der"),
        ])
        var error: Unmanaged<CFError>?
        let attributes = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPrivate]
        let key = try #require(
            SecKeyCreateWithData(try openssl.read("key.der") as CFData, attributes as CFDictionary, &error))
        let publicKey = try KeyFixtures.publicKey(key)
        #expect(SecKeyGetBlockSize(key) == 512)
        for each in [key, publicKey] {
            let reported = try #require(SecKeyCopyAttributes(each) as? [String: Any])
            #expect(reported[kSecAttrKeySizeInBits as String] as? Int == 4094)
            #expect(reported[kSecAttrEffectiveKeySize as String] as? Int == 4094)
        }
        let blob = try #require(
            SecKeyCreateEncryptedData(publicKey, .rsaEncryptionOAEPSHA256AESGCM, Self.plaintext as CFData, &error)
                as Data?)
        #expect(blob.count == 512 + Self.plaintext.count + 16)
        let sessionKey = SecKeyCreateDecryptedData(key, .rsaEncryptionOAEPSHA256, blob.prefix(512) as CFData, &error)
        #expect((sessionKey as Data?)?.count == 16)
        #expect(
            SecKeyCreateDecryptedData(key, .rsaEncryptionOAEPSHA256AESGCM, blob as CFData, &error) as Data?
                == Self.plaintext)
    }

    @Test func everyECIESAlgorithmRoundTripsOnEveryCurve() throws {
        let algorithms = SecKeyAlgorithm.all.filter { ($0.rawValue as String).hasPrefix("algid:encrypt:ECIES") }
        #expect(algorithms.count == 18)
        for (bits, pointSize) in [(256, 65), (384, 97), (521, 133)] {
            let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: bits)
            let publicKey = try KeyFixtures.publicKey(key)
            for algorithm in algorithms {
                var error: Unmanaged<CFError>?
                let blob = try #require(
                    SecKeyCreateEncryptedData(publicKey, algorithm, Self.plaintext as CFData, &error) as Data?)
                #expect(blob.count == pointSize + Self.plaintext.count + 16)
                #expect(SecKeyCreateDecryptedData(key, algorithm, blob as CFData, &error) as Data? == Self.plaintext)
                var altered = blob
                altered[altered.count - 1] ^= 0x01
                #expect(SecKeyCreateDecryptedData(key, algorithm, altered as CFData, &error) == nil)
                #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
            }
        }
    }

    @Test func shortECIESBlobsAreErrSecParam() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        var error: Unmanaged<CFError>?
        for count in [0, 64, 65, 80] {
            let blob = Data([0x04]) + Data(repeating: 7, count: max(0, count - 1))
            #expect(
                SecKeyCreateDecryptedData(key, .eciesEncryptionStandardX963SHA256AESGCM, blob as CFData, &error) == nil)
            #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        }
    }

    // MARK: - The blob rebuilt step by step

    /// A P-256 key from a fixed scalar.
    static func fixedKey(_ fill: UInt8) throws -> (SecKey, P256.KeyAgreement.PrivateKey) {
        let scalar = Data(repeating: fill, count: 32)
        let agreement = try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar)
        let external = agreement.publicKey.x963Representation + scalar
        var error: Unmanaged<CFError>?
        let attributes = [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate]
        let key = try #require(SecKeyCreateWithData(external as CFData, attributes as CFDictionary, &error))
        return (key, agreement)
    }

    /// ANSI X9.63 KDF with SHA-256, written out: SHA-256(Z ‖ counter ‖ sharedInfo) for counters 1, 2, ….
    static func x963SHA256(_ secret: Data, sharedInfo: Data, count: Int) -> Data {
        var output = Data()
        var counter: UInt32 = 1
        while output.count < count {
            var block = secret
            withUnsafeBytes(of: counter.bigEndian) { block.append(contentsOf: $0) }
            block.append(sharedInfo)
            output.append(contentsOf: SHA256.hash(data: block))
            counter += 1
        }
        return output.prefix(count)
    }

    /// The blob Apple's format gives for `plaintext`, from the ephemeral and recipient keys.
    static func handMadeBlob(
        ephemeral: P256.KeyAgreement.PrivateKey, recipient: P256.KeyAgreement.PublicKey, variableIV: Bool
    ) throws -> Data {
        let shared = try ephemeral.sharedSecretFromKeyAgreement(with: recipient)
        let z = shared.withUnsafeBytes { Data($0) }
        let ephemeralPoint = ephemeral.publicKey.x963Representation
        let derived = x963SHA256(z, sharedInfo: ephemeralPoint, count: variableIV ? 32 : 16)
        let key = SymmetricKey(data: derived.prefix(16))
        let iv = variableIV ? derived.suffix(16) : Data(count: 16)
        let sealed = try AES.GCM.seal(plaintext, using: key, nonce: try AES.GCM.Nonce(data: iv))
        return ephemeralPoint + sealed.ciphertext + sealed.tag
    }

    @Test(arguments: [false, true])
    func aBlobRebuiltStepByStepDecrypts(variableIV: Bool) throws {
        let (recipient, recipientAgreement) = try Self.fixedKey(0x11)
        let ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: Data(repeating: 0x22, count: 32))
        let blob = try Self.handMadeBlob(
            ephemeral: ephemeral, recipient: recipientAgreement.publicKey, variableIV: variableIV)
        let algorithm: SecKeyAlgorithm =
            variableIV ? .eciesEncryptionStandardVariableIVX963SHA256AESGCM : .eciesEncryptionStandardX963SHA256AESGCM
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateDecryptedData(recipient, algorithm, blob as CFData, &error) as Data? == Self.plaintext)
        // The cofactor variant is the same computation on P-256 (cofactor 1).
        let cofactor: SecKeyAlgorithm =
            variableIV ? .eciesEncryptionCofactorVariableIVX963SHA256AESGCM : .eciesEncryptionCofactorX963SHA256AESGCM
        #expect(SecKeyCreateDecryptedData(recipient, cofactor, blob as CFData, &error) as Data? == Self.plaintext)
        // And the other variant's blob does not open: the IV rule matters.
        let other: SecKeyAlgorithm =
            variableIV ? .eciesEncryptionStandardX963SHA256AESGCM : .eciesEncryptionStandardVariableIVX963SHA256AESGCM
        #expect(SecKeyCreateDecryptedData(recipient, other, blob as CFData, &error) == nil)
    }

    @Test func aBlobMadeHereOpensStepByStep() throws {
        let (recipient, recipientAgreement) = try Self.fixedKey(0x33)
        var error: Unmanaged<CFError>?
        let blob = try #require(
            SecKeyCreateEncryptedData(
                try KeyFixtures.publicKey(recipient), .eciesEncryptionStandardX963SHA256AESGCM,
                Self.plaintext as CFData, &error) as Data?)
        let ephemeralPoint = blob.prefix(65)
        let ephemeral = try P256.KeyAgreement.PublicKey(x963Representation: ephemeralPoint)
        let z = try recipientAgreement.sharedSecretFromKeyAgreement(with: ephemeral).withUnsafeBytes { Data($0) }
        let key = SymmetricKey(data: Self.x963SHA256(z, sharedInfo: Data(ephemeralPoint), count: 16))
        let box = try AES.GCM.SealedBox(
            nonce: try AES.GCM.Nonce(data: Data(count: 16)), ciphertext: blob.dropFirst(65).dropLast(16),
            tag: blob.suffix(16))
        #expect(try AES.GCM.open(box, using: key) == Self.plaintext)
    }
}
