import Foundation
import KeychainCrypto
import Security
import Testing
import X509Certificates

/// PKCS#12 files written here (`PKCS12Export`, behind `security export -f pkcs12`) open in `openssl pkcs12` and
/// in `PKCS12Archive`, with the key, certificates, label and passphrase given.
@Suite struct PKCS12ExportTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    func leafKey() throws -> SecKey { try SecKey(pkcs8PrivateKey: SecureBytes(try fixtures.data("leaf.pkcs8"))) }

    /// Writes `data` into the fixture directory under a fresh name.
    func write(_ data: Data) throws -> String {
        let name = "export-\(UUID().uuidString).p12"
        try data.write(to: fixtures.directory.appendingPathComponent(name))
        return name
    }

    @Test func anIdentityWithItsChainOpensInOpenSSL() throws {
        let data = try PKCS12Export.data(
            key: try leafKey(), certificate: try fixtures.certificate("leaf"),
            chain: [try fixtures.certificate("intermediate"), try fixtures.certificate("root")],
            label: "Exported Identity", passphrase: "s3cret pass")
        let file = try write(data)
        let info = String(
            decoding: try fixtures.output("openssl pkcs12 -in \(file) -passin 'pass:s3cret pass' -info -noout 2>&1"),
            as: UTF8.self)
        #expect(info.contains("PBES2, PBKDF2, AES-256-CBC"))
        #expect(info.contains("MAC: sha256"))
        let key = try fixtures.output(
            "openssl pkcs12 -in \(file) -passin 'pass:s3cret pass' -nocerts -nodes"
                + " | openssl pkcs8 -topk8 -nocrypt -outform DER")
        #expect(key == (try fixtures.data("leaf.pkcs8")))
        let leaf = try fixtures.output(
            "openssl pkcs12 -in \(file) -passin 'pass:s3cret pass' -clcerts -nokeys"
                + " | openssl x509 -outform DER")
        #expect(leaf == (try fixtures.data("leaf.der")))
        let names = String(
            decoding: try fixtures.output(
                "openssl pkcs12 -in \(file) -passin 'pass:s3cret pass' -nokeys -cacerts | grep -c 'BEGIN CERTIFICATE'"),
            as: UTF8.self)
        #expect(names == "2\n")

        let contents = try PKCS12Archive.open(Array(data), passphrase: "s3cret pass")
        #expect(contents.friendlyName == "Exported Identity")
        let fingerprint = try fixtures.output("openssl dgst -sha1 -binary leaf.der")
        #expect(contents.localKeyID.map { Data($0) } == fingerprint)
        #expect(throws: X509Error.wrongPassphrase) { try PKCS12Archive.open(Array(data), passphrase: "other") }
    }

    @Test func anRSAIdentityAndAnEmptyPassphrase() throws {
        let der = try fixtures.output("openssl pkcs8 -topk8 -nocrypt -in mixed.key -outform DER")
        let data = try PKCS12Export.data(
            key: try SecKey(pkcs8PrivateKey: SecureBytes(der)), certificate: try fixtures.certificate("mixed"),
            chain: [], label: nil, passphrase: "")
        let file = try write(data)
        let key = try fixtures.output(
            "openssl pkcs12 -in \(file) -passin pass: -nocerts -nodes | openssl pkcs8 -topk8 -nocrypt -outform DER")
        #expect(key == der)
    }

    @Test func certificatesAlone() throws {
        let data = try PKCS12Export.data(
            key: nil, certificate: nil, chain: [try fixtures.certificate("root")], label: nil, passphrase: "x")
        let contents = try PKCS12Archive.open(Array(data), passphrase: "x")
        #expect(contents.privateKey == nil)
        #expect(contents.chain.map(\.der) == [Array(try fixtures.data("root.der"))])
    }

    @Test func aKeyThatIsNotTheCertificatesOrIsPublicIsRefused() throws {
        do {
            _ = try PKCS12Export.data(
                key: try leafKey(), certificate: try fixtures.certificate("root"), chain: [], label: nil,
                passphrase: "x")
            Issue.record("a key went with another certificate")
        } catch {
            #expect((error as? PKCS12Export.Failure)?.status == errSecDecode)
        }
        do {
            _ = try PKCS12Export.data(
                key: SecKeyCopyPublicKey(try leafKey()), certificate: try fixtures.certificate("leaf"), chain: [],
                label: nil, passphrase: "x")
            Issue.record("a public key was exported")
        } catch {
            #expect((error as? PKCS12Export.Failure)?.status == errSecParam)
        }
    }
}
