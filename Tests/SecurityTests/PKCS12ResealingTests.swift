import Foundation
import Security
import Testing
import X509Certificates

/// `PKCS12Archive.resealed`, which the pkcs12 fuzz target uses so that changed bytes inside a file reach the bag
/// parsers: the integrity check is made anew, and nothing else changes.
@Suite struct PKCS12ResealingTests {
    private func exported() throws -> (file: [UInt8], certificate: X509Certificate) {
        let certificate = try CertificateFixtures.shared().certificate("leaf").x509
        let file = try PKCS12Archive.export(
            privateKey: nil, certificate: certificate, chain: [], friendlyName: "resealed", passphrase: "fuzz")
        return (file, certificate)
    }

    @Test func aResealedFileOpensWithTheSameContents() throws {
        let (file, certificate) = try exported()
        let resealed = try #require(PKCS12Archive.resealed(file, passphrase: "fuzz"))
        // Without a key, the certificate is one of the others (only a key's certificate is `certificate`).
        let contents = try PKCS12Archive.open(resealed, passphrase: "fuzz")
        #expect(contents.chain == [certificate])
        #expect(contents.certificate == nil)
    }

    @Test func aFileWhoseMACWasChangedOpensOnceResealed() throws {
        var (file, _) = try exported()
        // MacData ends with the salt (8 bytes) and the iteration count (2048): the digest's last byte is before.
        file[file.count - 15] ^= 0x01
        #expect(throws: X509Error.wrongPassphrase) { try PKCS12Archive.open(file, passphrase: "fuzz") }
        let resealed = try #require(PKCS12Archive.resealed(file, passphrase: "fuzz"))
        #expect(throws: Never.self) { try PKCS12Archive.open(resealed, passphrase: "fuzz") }
    }

    @Test func bytesThatAreNotPKCS12AreNotResealed() {
        #expect(PKCS12Archive.resealed([0x30, 0x03, 0x02, 0x01, 0x03], passphrase: "fuzz") == nil)
        #expect(PKCS12Archive.resealed([], passphrase: "fuzz") == nil)
    }
}
