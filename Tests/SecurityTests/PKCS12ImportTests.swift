import Foundation
import Security
import Testing

/// `SecPKCS12Import` over files written by `openssl pkcs12 -export`, default (PBES2) and `-legacy`.
@Suite struct PKCS12ImportTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    func importing(_ file: String, passphrase: Any?) throws -> (OSStatus, [[String: Any]]) {
        var options: [String: Any] = [:]
        if let passphrase { options[kSecImportExportPassphrase as String] = passphrase }
        var items: CFArray?
        let status = SecPKCS12Import(try fixtures.data(file) as CFData, options as CFDictionary, &items)
        return (status, (items as? [[String: Any]]) ?? [])
    }

    @Test(arguments: ["default.p12", "legacy.p12"])
    func anIdentityWithItsChainTrustKeyIDAndLabel(file: String) throws {
        let (status, items) = try importing(file, passphrase: "correct-horse")
        #expect(status == errSecSuccess)
        let item = try #require(items.first)
        #expect(items.count == 1)
        let identity = try #require(item[kSecImportItemIdentity as String] as? SecIdentity)
        var certificate: SecCertificate?
        #expect(SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess)
        #expect(certificate.map { SecCertificateCopyData($0) as Data } == (try fixtures.data("leaf.der")))
        var key: SecKey?
        #expect(SecIdentityCopyPrivateKey(identity, &key) == errSecSuccess)
        let message = Data("mutual TLS".utf8) as CFData
        let privateKey = try #require(key)
        let signature = try #require(
            SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, message, nil))
        let publicKey = try #require(SecCertificateCopyKey(try fixtures.certificate("leaf")))
        #expect(SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, message, signature, nil))

        let chain = try #require(item[kSecImportItemCertChain as String] as? [SecCertificate])
        #expect(chain.first.map { SecCertificateCopyData($0) as Data } == (try fixtures.data("leaf.der")))
        #expect(chain.count == 3)
        #expect(item[kSecImportItemTrust as String] is SecTrust)
        #expect(item[kSecImportItemLabel as String] as? String == "My Identity")
        let fingerprint = try fixtures.output("openssl dgst -sha1 -binary leaf.der")
        #expect(item[kSecImportItemKeyID as String] as? Data == fingerprint)
    }

    @Test(arguments: ["default.p12", "legacy.p12"])
    func aWrongPassphraseIsErrSecAuthFailed(file: String) throws {
        #expect(try importing(file, passphrase: "wrong").0 == errSecAuthFailed)
        #expect(try importing(file, passphrase: nil).0 == errSecAuthFailed)
    }

    @Test func garbageIsErrSecDecodeAndAPassphraseThatIsNoStringIsErrSecParam() throws {
        var items: CFArray?
        let options = [kSecImportExportPassphrase as String: "x"] as CFDictionary
        #expect(SecPKCS12Import(Data("garbage".utf8) as CFData, options, &items) == errSecDecode)
        #expect(items == nil)
        #expect(try importing("default.p12", passphrase: 42).0 == errSecParam)
    }
}
