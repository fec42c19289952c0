import Foundation
import Security
import Testing

/// Identities for the tests: a self-signed certificate made by `openssl req` for a fresh P-256 key, and that key
/// read back from OpenSSL's SEC1 DER and imported with `SecKeyCreateWithData`.
struct IdentityFixture {
    let certificate: SecCertificate
    let privateKey: SecKey
    /// The file name stem of the key in the fixture directory (`<stem>.key`), for more certificates of it.
    let stem: String

    /// A new key and a self-signed certificate for it with the common name `commonName`.
    static func make(commonName: String) throws -> IdentityFixture {
        let stem = "identity-\(UUID().uuidString)"
        let sec1 = try CertificateFixtures.shared().output(
            """
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout \(stem).key \
                -subj "/CN=\(commonName)" -days 30 -outform DER -out \(stem).der 2>/dev/null
            openssl ec -in \(stem).key -outform DER 2>/dev/null
            """)
        return IdentityFixture(
            certificate: try CertificateFixtures.shared().certificate(stem), privateKey: try importKey(sec1),
            stem: stem)
    }

    /// Another self-signed certificate for this fixture's key.
    func anotherCertificate(commonName: String) throws -> SecCertificate {
        let name = "\(stem)-\(UUID().uuidString)"
        _ = try CertificateFixtures.shared().output(
            """
            openssl req -x509 -new -key \(stem).key -subj "/CN=\(commonName)" -days 30 -outform DER \
                -out \(name).der 2>/dev/null
            """)
        return try CertificateFixtures.shared().certificate(name)
    }

    /// A P-256 private key from OpenSSL's SEC1 DER (`30 77 02 01 01 04 20 K … A1 44 03 42 00 04 X Y`), as
    /// Apple's X9.63 form `04 ‖ X ‖ Y ‖ K`.
    private static func importKey(_ sec1: Data) throws -> SecKey {
        let bytes = [UInt8](sec1)
        try #require(bytes.count == 121 && bytes[5] == 0x04 && bytes[6] == 0x20 && bytes[56] == 0x04)
        let x963 = Data(bytes[56..<121] + bytes[7..<39])
        let attributes: [CFString: Any] = [
            kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate,
        ]
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateWithData(x963 as CFData, attributes as CFDictionary, &error)
        return try #require(key)
    }
}
