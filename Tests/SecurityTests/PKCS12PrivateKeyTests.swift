import Foundation
import KeychainCrypto
import Testing
import X509Certificates

@testable import Security

/// `SecKey(pkcs8PrivateKey:)`, which turns the PKCS #8 key of a PKCS#12 file into a `SecKey`, and its reverse.
@Suite struct PKCS12PrivateKeyTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    /// A signature by `key` that the certificate's public key verifies.
    func signsForTheCertificate(_ key: SecKey, _ certificate: SecCertificate, _ algorithm: SecKeyAlgorithm) throws {
        let message = Data("signed by the PKCS #8 key".utf8) as CFData
        var error: Unmanaged<CFError>?
        let signature = try #require(SecKeyCreateSignature(key, algorithm, message, &error))
        let publicKey = try #require(SecCertificateCopyKey(certificate))
        #expect(SecKeyVerifySignature(publicKey, algorithm, message, signature, &error))
    }

    @Test func anECKeyFromOpenSSLsPKCS8SignsForItsCertificate() throws {
        let der = try fixtures.data("leaf.pkcs8")
        let key = try SecKey(pkcs8PrivateKey: SecureBytes(der))
        try signsForTheCertificate(key, try fixtures.certificate("leaf"), .ecdsaSignatureMessageX962SHA256)
        #expect(key.pkcs8PrivateKey.map { Data($0.bytes) } == der)
        #expect(
            SecKeyCopyPublicKey(key).flatMap { SecKeyCopyExternalRepresentation($0, nil) } as Data?
                == SecCertificateCopyKey(try fixtures.certificate("leaf")).flatMap {
                    SecKeyCopyExternalRepresentation($0, nil)
                } as Data?)
    }

    @Test func anRSAKeyFromOpenSSLsPKCS8SignsForItsCertificate() throws {
        let der = try fixtures.output("openssl pkcs8 -topk8 -nocrypt -in mixed.key -outform DER")
        let key = try SecKey(pkcs8PrivateKey: SecureBytes(der))
        try signsForTheCertificate(key, try fixtures.certificate("mixed"), .rsaSignatureMessagePKCS1v15SHA256)
        #expect(key.pkcs8PrivateKey.map { Data($0.bytes) } == der)
        // The PKCS #8 written here is what OpenSSL reads back as the same key.
        let written = Data(try #require(key.pkcs8PrivateKey).bytes)
        try written.write(to: fixtures.directory.appendingPathComponent("back.p8"))
        let modulus = try fixtures.output("openssl pkey -inform DER -in back.p8 -noout -text_pub | grep -c Modulus")
        #expect(String(decoding: modulus, as: UTF8.self) == "1\n")
    }

    @Test func theKeyOfAPKCS12FileIsItsCertificatesKey() throws {
        for file in ["default.p12", "legacy.p12"] {
            let contents = try PKCS12Archive.open(Array(try fixtures.data(file)), passphrase: "correct-horse")
            let key = try SecKey(pkcs8PrivateKey: try #require(contents.privateKey))
            try signsForTheCertificate(key, try fixtures.certificate("leaf"), .ecdsaSignatureMessageX962SHA384)
        }
    }

    @Test func aPublicKeyHasNoPKCS8Form() throws {
        let key = try SecKey(pkcs8PrivateKey: SecureBytes(try fixtures.data("leaf.pkcs8")))
        #expect(try #require(SecKeyCopyPublicKey(key)).pkcs8PrivateKey == nil)
    }

    @Test func otherBytesAndOtherAlgorithmsAreErrSecDecode() throws {
        let der = Array(try fixtures.data("leaf.pkcs8"))
        let ed25519 = Array(
            try fixtures.output(
                "openssl genpkey -algorithm ed25519 | openssl pkcs8 -topk8 -nocrypt -outform DER"))
        let p224 = Array(
            try fixtures.output(
                "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-224"
                    + " | openssl pkcs8 -topk8 -nocrypt -outform DER"))
        var wrongVersion = der
        wrongVersion[5] = 7  // 30 81 87 02 01 00: version 0 becomes 7
        let cases: [[UInt8]] = [
            [], [0x30], [0x30, 0x00], Array("not a key".utf8), Array(der.dropLast()), der + [0], wrongVersion,
            ed25519, p224, Array(try fixtures.data("leaf.der")),
        ]
        for bytes in cases {
            do {
                _ = try SecKey(pkcs8PrivateKey: SecureBytes(bytes))
                Issue.record("\(bytes.count) bytes made a key")
            } catch {
                #expect((error as? SecKeyError)?.status == errSecDecode, "\(bytes.count) bytes")
            }
        }
    }
}
