import Foundation
import KeychainCore
import Security
import Testing

/// Key and certificate items are encrypted at rest like passwords: no file of the home holds a private key's
/// bytes, a certificate's DER or its subject's strings.
@Suite struct KeyAndCertificatePlaintextTests {
    private func contains(_ haystack: Data, _ needle: Data) -> Bool { haystack.range(of: needle) != nil }

    @Test func noKeyBytesOrSubjectStringsReachTheDisk() throws {
        let fixtures = try CertificateFixtures.shared()
        let leaf = try fixtures.certificate("leaf")
        let ec = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let rsa = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("plaintext-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let keychain = try Keychain(
            configuration: KeychainConfiguration(
                home: home, identity: CallerIdentity(applicationIdentifier: "T.app", accessGroups: ["T.app"])))
        defer { keychain.close() }
        try SecurityRuntime.withKeychain(keychain) {
            #expect(
                SecItemAdd(
                    [kSecValueRef: ec, kSecAttrApplicationTag: Data("ec-tag-needle".utf8)]
                        as CFDictionary, nil) == errSecSuccess)
            #expect(
                SecItemAdd([kSecValueRef: rsa, kSecAttrLabel: "rsa-label-needle"] as CFDictionary, nil)
                    == errSecSuccess)
            #expect(SecItemAdd([kSecValueRef: leaf] as CFDictionary, nil) == errSecSuccess)
            var result: AnyObject?
            #expect(
                SecItemCopyMatching(
                    [
                        kSecClass: kSecClassKey, kSecAttrLabel: "RSA-LABEL-NEEDLE",
                        kSecMatchCaseInsensitive: true,
                    ] as CFDictionary, &result) == errSecSuccess)
        }
        let ecExternal = try KeyFixtures.external(ec)
        let rsaExternal = try KeyFixtures.external(rsa)
        let needles: [(String, Data)] = [
            ("the EC private scalar", ecExternal.suffix(32)),
            ("the RSA private key's middle", rsaExternal.subdata(in: 600..<632)),
            ("the certificate's DER", (SecCertificateCopyData(leaf) as Data).prefix(64)),
            ("the subject's common name", Data("www.example.test".utf8)),
            ("the subject's organization", Data("Example Org".utf8)),
            ("the e-mail address", Data("ops@example.test".utf8)),
            ("the application tag", Data("ec-tag-needle".utf8)),
            ("the label", Data("rsa-label-needle".utf8)),
        ]
        for name in try FileManager.default.contentsOfDirectory(atPath: home.path) {
            let contents = try Data(contentsOf: home.appendingPathComponent(name))
            for (what, needle) in needles {
                #expect(!contains(contents, needle), "\(what) in plaintext in \(name)")
            }
        }
    }
}
