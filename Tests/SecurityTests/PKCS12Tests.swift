import Foundation
import Security
import Testing
import X509Certificates

/// PKCS#12 files written by `openssl pkcs12 -export`, in OpenSSL 3's default format and with `-legacy`.
@Suite struct PKCS12Tests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    @Test(arguments: ["default.p12", "legacy.p12"])
    func opensWithItsPassphrase(file: String) throws {
        let contents = try PKCS12Archive.open(Array(try fixtures.data(file)), passphrase: "correct-horse")
        #expect(contents.privateKey.map { Data($0.bytes) } == (try fixtures.data("leaf.pkcs8")))
        #expect(contents.certificate.map { Data($0.der) } == (try fixtures.data("leaf.der")))
        let chain = Set(contents.chain.map { Data($0.der) })
        #expect(chain == [try fixtures.data("intermediate.der"), try fixtures.data("root.der")])
        #expect(contents.friendlyName == "My Identity")
        // `openssl pkcs12 -export` sets localKeyId to the SHA-1 of the certificate.
        let fingerprint = try fixtures.output("openssl dgst -sha1 -binary leaf.der")
        #expect(contents.localKeyID.map { Data($0) } == fingerprint)
    }

    @Test(arguments: ["default.p12", "legacy.p12"])
    func aWrongPassphraseIsErrSecAuthFailed(file: String) throws {
        let bytes = Array(try fixtures.data(file))
        #expect(throws: X509Error.wrongPassphrase) { try PKCS12Archive.open(bytes, passphrase: "wrong") }
        #expect(throws: X509Error.wrongPassphrase) { try PKCS12Archive.open(bytes, passphrase: "") }
        #expect(X509Error.wrongPassphrase.status == errSecAuthFailed)
    }

    @Test func garbageIsErrSecDecode() throws {
        let file = Array(try fixtures.data("default.p12"))
        for bytes in [Array("not pkcs12".utf8), [], Array(file.prefix(file.count / 2)), file + [0], file.reversed()] {
            do {
                _ = try PKCS12Archive.open(bytes, passphrase: "correct-horse")
                Issue.record("\(bytes.count) bytes opened")
            } catch {
                #expect(error.status == errSecDecode)
                guard case .malformed = error else {
                    Issue.record("\(error)")
                    continue
                }
            }
        }
    }

    @Test func aCertificateIsNotAPKCS12File() throws {
        #expect(throws: X509Error.self) {
            try PKCS12Archive.open(Array(try fixtures.data("leaf.der")), passphrase: "correct-horse")
        }
    }
}
