import CryptoKit
import Foundation
import Security
import Testing

/// The SecKey functions of iOS 2 that iOS 15 deprecated but still ships, which older code and libraries (RSA
/// wrappers, PEM helpers) call: `SecKeyRawSign`, `SecKeyRawVerify`, `SecKeyEncrypt`, `SecKeyDecrypt` with a
/// `SecPadding`, and `SecKeyGeneratePair`. Each runs the algorithm Apple maps its padding to, so what they make
/// is what the algorithm functions make and read.
@Suite struct LegacySecKeyTests {
    static let message = Data("pay 10 coins to alice".utf8)

    private func sign(_ key: SecKey, _ padding: SecPadding, _ data: Data, room: Int = 1024) -> (OSStatus, Data) {
        var signature = [UInt8](repeating: 0, count: room)
        var length = room
        let status = data.withUnsafeBytes { bytes in
            SecKeyRawSign(
                key, padding, bytes.bindMemory(to: UInt8.self).baseAddress!, data.count, &signature, &length)
        }
        return (status, Data(signature.prefix(length)))
    }

    private func verify(_ key: SecKey, _ padding: SecPadding, _ data: Data, _ signature: Data) -> OSStatus {
        let signatureBytes = [UInt8](signature)
        return data.withUnsafeBytes { bytes in
            SecKeyRawVerify(
                key, padding, bytes.bindMemory(to: UInt8.self).baseAddress!, data.count, signatureBytes,
                signatureBytes.count)
        }
    }

    private func encrypt(_ key: SecKey, _ padding: SecPadding, _ data: Data) -> (OSStatus, Data) {
        var output = [UInt8](repeating: 0, count: 512)
        var length = output.count
        let input = [UInt8](data)
        let status = SecKeyEncrypt(key, padding, input, input.count, &output, &length)
        return (status, Data(output.prefix(length)))
    }

    private func decrypt(_ key: SecKey, _ padding: SecPadding, _ data: Data) -> (OSStatus, Data) {
        var output = [UInt8](repeating: 0, count: 512)
        var length = output.count
        let input = [UInt8](data)
        let status = SecKeyDecrypt(key, padding, input, input.count, &output, &length)
        return (status, Data(output.prefix(length)))
    }

    @Test func anRSADigestSignatureIsThePKCS1SignatureOfTheMessage() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try KeyFixtures.publicKey(key)
        let digest = Data(SHA256.hash(data: Self.message))
        let (status, signature) = sign(key, .PKCS1SHA256, digest)
        #expect(status == errSecSuccess)
        #expect(signature.count == 256)
        var error: Unmanaged<CFError>?
        #expect(
            SecKeyVerifySignature(
                publicKey, .rsaSignatureMessagePKCS1v15SHA256, Self.message as CFData, signature as CFData, &error))
        #expect(verify(publicKey, .PKCS1SHA256, digest, signature) == errSecSuccess)
        var altered = signature
        altered[10] ^= 0x01
        // The legacy functions keep their old answer for a signature that does not verify.
        #expect(verify(publicKey, .PKCS1SHA256, digest, altered) == errSSLCrypto)
        #expect(verify(publicKey, .PKCS1SHA1, digest, signature) != errSecSuccess)
    }

    @Test func eachRSAPaddingSignsWithItsAlgorithm() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try KeyFixtures.publicKey(key)
        let cases: [(SecPadding, SecKeyAlgorithm, Data)] = [
            (.PKCS1SHA1, .rsaSignatureDigestPKCS1v15SHA1, Data(Insecure.SHA1.hash(data: Self.message))),
            (.PKCS1SHA384, .rsaSignatureDigestPKCS1v15SHA384, Data(SHA384.hash(data: Self.message))),
            (.PKCS1SHA512, .rsaSignatureDigestPKCS1v15SHA512, Data(SHA512.hash(data: Self.message))),
            (.PKCS1, .rsaSignatureDigestPKCS1v15Raw, Self.message),
        ]
        for (padding, algorithm, data) in cases {
            let (status, signature) = sign(key, padding, data)
            #expect(status == errSecSuccess, "\(padding.rawValue)")
            var error: Unmanaged<CFError>?
            #expect(
                SecKeyVerifySignature(publicKey, algorithm, data as CFData, signature as CFData, &error),
                "\(algorithm.rawValue)")
        }
    }

    @Test func aPaddingWithoutAnAlgorithmForTheKeyIsErrSecParam() throws {
        let rsa = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let ec = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let digest = Data(SHA256.hash(data: Self.message))
        #expect(sign(rsa, .OAEP, digest).0 == errSecParam)
        #expect(sign(rsa, .sigRaw, digest).0 == errSecParam)
        #expect(encrypt(try KeyFixtures.publicKey(rsa), .PKCS1SHA256, Self.message).0 == errSecParam)
        #expect(encrypt(try KeyFixtures.publicKey(ec), .PKCS1, Self.message).0 == errSecParam)
    }

    /// iOS maps no algorithm to `.PKCS1MD2` or `.PKCS1MD5` for an RSA key (`SecKey.m`,
    /// `SecKeyGetSignatureAlgorithmForPadding`, and its macOS twin): both are errSecParam, signing and verifying,
    /// even for a valid PKCS #1 v1.5 MD5 signature. An EC key reads them, as every padding but `.sigRaw`, as X9.62.
    @Test func theMD2AndMD5PaddingsAreErrSecParamForRSA() throws {
        let rsa = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let digest = Data(Insecure.MD5.hash(data: Self.message))
        let md5 = SecKeyAlgorithm(rawValue: "algid:sign:RSA:digest-PKCS1v15:MD5" as CFString)
        let signature = try #require(SecKeyCreateSignature(rsa, md5, digest as CFData, nil) as Data?)
        for padding in [SecPadding.PKCS1MD2, .PKCS1MD5] {
            #expect(sign(rsa, padding, digest).0 == errSecParam, "\(padding.rawValue)")
            #expect(verify(try KeyFixtures.publicKey(rsa), padding, digest, signature) == errSecParam)
        }
        let ec = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let (status, der) = sign(ec, .PKCS1MD5, digest)
        #expect(status == errSecSuccess)
        #expect(der.first == 0x30, "an X9.62 DER sequence")
        #expect(verify(try KeyFixtures.publicKey(ec), .PKCS1MD2, digest, der) == errSecSuccess)
    }

    @Test func aSignatureLargerThanTheBufferIsErrSecParamAndLeavesTheLength() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let digest = Data(SHA256.hash(data: Self.message))
        var signature = [UInt8](repeating: 0, count: 100)
        var length = signature.count
        let status = digest.withUnsafeBytes { bytes in
            SecKeyRawSign(
                key, .PKCS1SHA256, bytes.bindMemory(to: UInt8.self).baseAddress!, digest.count, &signature, &length)
        }
        #expect(status == errSecParam)
        #expect(length == 100)
        #expect(signature.allSatisfy { $0 == 0 })
    }

    @Test func anECKeySignsDERForPKCS1AndRawForSigRaw() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let publicKey = try KeyFixtures.publicKey(key)
        let digest = Data(SHA256.hash(data: Self.message))
        let (derStatus, der) = sign(key, .PKCS1, digest)
        #expect(derStatus == errSecSuccess)
        #expect(der.first == 0x30, "an X9.62 DER sequence")
        var error: Unmanaged<CFError>?
        #expect(
            SecKeyVerifySignature(publicKey, .ecdsaSignatureDigestX962SHA256, digest as CFData, der as CFData, &error))
        let (rawStatus, raw) = sign(key, .sigRaw, digest)
        #expect(rawStatus == errSecSuccess)
        #expect(raw.count == 64, "r ‖ s")
        #expect(
            SecKeyVerifySignature(publicKey, .ecdsaSignatureDigestRFC4754, digest as CFData, raw as CFData, &error))
        #expect(verify(publicKey, .sigRaw, digest, raw) == errSecSuccess)
        #expect(verify(publicKey, .PKCS1, digest, der) == errSecSuccess)
        // Anything but sigRaw is X9.62 for an EC key, as it always was.
        #expect(verify(publicKey, [], digest, der) == errSecSuccess)
        #expect(verify(publicKey, .sigRaw, digest, der) == errSSLCrypto)
    }

    @Test func encryptionRoundTripsAndMeetsTheAlgorithmFunctions() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try KeyFixtures.publicKey(key)
        for (padding, algorithm) in [
            (SecPadding.PKCS1, SecKeyAlgorithm.rsaEncryptionPKCS1), (.OAEP, .rsaEncryptionOAEPSHA1),
        ] {
            let (status, ciphertext) = encrypt(publicKey, padding, Self.message)
            #expect(status == errSecSuccess)
            #expect(ciphertext.count == 256)
            #expect(decrypt(key, padding, ciphertext).1 == Self.message)
            var error: Unmanaged<CFError>?
            #expect(
                SecKeyCreateDecryptedData(key, algorithm, ciphertext as CFData, &error) as Data? == Self.message)
        }
        let (wrongStatus, _) = decrypt(key, .OAEP, encrypt(publicKey, .PKCS1, Self.message).1)
        #expect(wrongStatus == errSecParam)
    }

    @Test func aRawDecryptionDropsTheBlocksLeadingZeros() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let publicKey = try KeyFixtures.publicKey(key)
        let (status, ciphertext) = encrypt(publicKey, [], Self.message)
        #expect(status == errSecSuccess)
        let (opened, plaintext) = decrypt(key, [], ciphertext)
        #expect(opened == errSecSuccess)
        #expect(plaintext == Self.message)
    }

    @Test func generatePairGivesAPrivateKeyAndItsPublicKey() throws {
        var publicKey: SecKey?
        var privateKey: SecKey?
        let parameters = [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256] as CFDictionary
        #expect(SecKeyGeneratePair(parameters, &publicKey, &privateKey) == errSecSuccess)
        let made = try #require(privateKey)
        let madePublic = try #require(publicKey)
        #expect(try KeyFixtures.external(madePublic) == KeyFixtures.external(try KeyFixtures.publicKey(made)))
        let (status, signature) = sign(made, .sigRaw, Data(SHA256.hash(data: Self.message)))
        #expect(status == errSecSuccess)
        #expect(verify(madePublic, .sigRaw, Data(SHA256.hash(data: Self.message)), signature) == errSecSuccess)
        // Only the private key asked for.
        var onlyPrivate: SecKey?
        #expect(SecKeyGeneratePair(parameters, nil, &onlyPrivate) == errSecSuccess)
        #expect(onlyPrivate != nil)
        // What SecKeyCreateRandomKey refuses, with its code.
        let unsupported =
            [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 200] as CFDictionary
        var none: SecKey?
        #expect(SecKeyGeneratePair(unsupported, nil, &none) == errSecParam)
        #expect(none == nil)
    }

    @Test func theLegacyVerifyFailureHasApplesText() {
        #expect(errSSLCrypto == -9809)
        #expect(SecurityStatusText.message(for: errSSLCrypto, in: .english) == "underlying cryptographic error")
    }
}
