import Foundation
import Testing

@testable import SecurityCLI

/// The certificate, identity and key verbs over a keychain: PKCS#12 files from `openssl pkcs12 -export`
/// (default and `-legacy`) give identities; exported ones open in `openssl pkcs12`; certificates are added,
/// found with macOS's hashes and deleted.
@Suite struct CertificateVerbsTests {
    let files: CertificateFiles
    let harness = CommandHarness()

    init() throws { files = try CertificateFiles.shared() }

    /// The SHA-1 fingerprint `openssl x509 -fingerprint` prints for a PEM file, without colons.
    func fingerprint(_ name: String, _ digest: String = "sha1") throws -> String {
        let text = String(
            decoding: try files.shell("openssl x509 -in \(name) -noout -fingerprint -\(digest)"), as: UTF8.self)
        return text.split(separator: "=").last.map {
            $0.replacingOccurrences(of: ":", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        } ?? ""
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(arguments: ["default.p12", "legacy.p12"])
    func aPKCS12FileFromOpenSSLGivesAnIdentity(file: String) throws {
        let imported = harness.run(["import", files.path(file), "-P", "correct-horse", "-k", "login.keychain"])
        #expect(imported.exitCode == 0)
        #expect(imported.output == "1 identity imported.\n2 certificates imported.\n")
        #expect(imported.errors.contains("(-P) is visible to other processes"))

        let identities = harness.run(["find-identity"])
        #expect(identities.exitCode == 0)
        let leaf = try fingerprint("leaf.pem")
        #expect(identities.output.contains("  1) \(leaf) \"www.example.test\" ("))
        #expect(identities.output.contains("     1 identities found\n"))
        #expect(identities.output.hasSuffix("  Valid identities only\n     0 valid identities found\n"))

        let found = harness.run(["find-certificate", "-c", "WWW.example", "-Z"])
        #expect(found.exitCode == 0)
        #expect(
            found.output.hasPrefix(
                "SHA-256 hash: \(try fingerprint("leaf.pem", "sha256"))\nSHA-1 hash: \(leaf)\nkeychain: \""))
        #expect(found.output.contains("class: 0x80001000\nattributes:\n"))
        #expect(found.output.contains("\"labl\"<blob>=\"www.example.test\""))
    }

    @Test func thePassphraseIsAskedForAndAWrongOneImportsNothing() throws {
        let wrong = harness.run(["import", files.path("default.p12")], password: "wrong")
        #expect(wrong.exitCode == 51)  // errSecAuthFailed, -25293
        #expect(wrong.errors.hasPrefix("security: SecKeychainItemImport: "))
        #expect(harness.run(["find-certificate", "-a"]).exitCode == 44)
        let asked = harness.run(["import", files.path("default.p12")], password: "correct-horse")
        #expect(asked.exitCode == 0)
        #expect(asked.errors.isEmpty)
        // The same identity again: nothing new, and nothing half-added.
        let again = harness.run(["import", files.path("default.p12"), "-P", "correct-horse"])
        #expect(again.exitCode == 45)
        let listed = harness.run(["find-certificate", "-a", "-p"]).output
        #expect(listed.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 4)
    }

    @Test func aSecondIdentityFromTheSameCAImportsBesideItsChain() throws {
        #expect(harness.run(["import", files.path("default.p12"), "-P", "correct-horse"]).exitCode == 0)
        let second = harness.run(["import", files.path("second.p12"), "-P", "correct-horse"])
        #expect(second.exitCode == 0)
        #expect(second.output == "1 identity imported.\n2 certificates already in the keychain.\n")
        let listed = harness.run(["find-certificate", "-a", "-p"]).output
        #expect(listed.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 5)
        let identities = try json(harness.run(["find-identity", "--json"]).output)
        let labels = (identities["identities"] as? [[String: Any]])?.compactMap { $0["label"] as? String }
        #expect(Set(labels ?? []) == ["second.example.test", "www.example.test"])
        // The CA certificates were there before: the second identity's delete leaves them and the first.
        #expect(harness.run(["delete-identity", "-c", "second.example.test"]).exitCode == 0)
        #expect(harness.run(["find-certificate", "-a", "--json"]).output.split(separator: "\n").count == 3)
    }

    @Test func aChainPartlyThereImportsTheRestAndAChainAllThereIsADuplicate() throws {
        #expect(harness.run(["import", files.path("root.pem")]).output == "1 certificate imported.\n")
        let partly = harness.run(["import", files.path("chain.p12"), "-P", "correct-horse", "--json"])
        #expect(partly.exitCode == 0)
        let counts = try json(partly.output)
        #expect(counts["certificates"] as? Int == 1)
        #expect(counts["alreadyPresent"] as? Int == 1)
        #expect(counts["identities"] as? Int == 0)
        let again = harness.run(["import", files.path("chain.p12"), "-P", "correct-horse"])
        #expect(again.exitCode == 45)  // errSecDuplicateItem, -25299
        #expect(
            again.errors.hasSuffix(
                "security: SecKeychainItemImport: The specified item already exists in the keychain.\n"
                    + "security: everything in \(files.path("chain.p12")) is already in the keychain\n"))
        #expect(again.output.isEmpty)
        // The identity's own certificate is no chain certificate: already there, it fails the import.
        let identity = harness.run(["import", files.path("leaf.der")])
        #expect(identity.exitCode == 0)
        #expect(harness.run(["import", files.path("default.p12"), "-P", "correct-horse"]).exitCode == 45)
        #expect(harness.run(["export", "-t", "privKeys"]).exitCode == 44)
    }

    @Test func aFailedImportForTheOwnerLeavesTheSameKeyInAnotherGroup() throws {
        let owner = CommandHarness(groups: ["LOCAL.security"], isOwner: true)
        #expect(owner.run(["-G", "TEAM2.other", "import", files.path("leaf.key")]).output == "1 key imported.\n")
        #expect(owner.run(["import", files.path("leaf.der")]).exitCode == 0)
        // The key goes in beside TEAM2.other's copy; the certificate, already there, fails the import.
        let failed = owner.run(["import", files.path("default.p12"), "-P", "correct-horse"])
        #expect(failed.exitCode == 45)
        #expect(owner.run(["-G", "LOCAL.security", "export", "-t", "privKeys"]).exitCode == 44)
        let kept = owner.run(["-G", "TEAM2.other", "export", "-t", "privKeys", "-p"])
        #expect(kept.exitCode == 0)
        #expect(kept.output.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(owner.run(["export", "-t", "certs"]).output.components(separatedBy: "BEGIN CERTIFICATE").count == 2)
    }

    /// The owner deletes an identity by its rows, never by value: another app's copy of the same key stays, and
    /// the identity's own key, in the certificate's group, goes.
    @Test func theOwnerDeletingAnIdentityLeavesAnotherAppsCopyOfItsKey() throws {
        let owner = CommandHarness(groups: ["LOCAL.security"], isOwner: true)
        #expect(owner.run(["-G", "TEAM2.other", "import", files.path("leaf.key")]).output == "1 key imported.\n")
        #expect(
            owner.run(["-G", "LOCAL.security", "import", files.path("default.p12"), "-P", "correct-horse"]).exitCode
                == 0)
        #expect(owner.run(["delete-identity", "-c", "www.example.test"]).exitCode == 0)
        #expect(owner.run(["-G", "LOCAL.security", "export", "-t", "privKeys"]).exitCode == 44)
        let kept = owner.run(["-G", "TEAM2.other", "export", "-t", "privKeys", "-p"])
        #expect(kept.exitCode == 0)
        #expect(kept.output.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
    }

    @Test func anRSAIdentityWithAnEmptyPassphraseAndPEMKeysAndCertificates() throws {
        #expect(harness.run(["import", files.path("rsa.p12"), "-P", ""]).output == "1 identity imported.\n")
        #expect(harness.run(["import", files.path("leaf.key")]).output == "1 key imported.\n")
        #expect(harness.run(["import", files.path("chain.pem")]).output == "2 certificates imported.\n")
        #expect(harness.run(["import", files.path("leaf.der")]).output == "1 certificate imported.\n")
        let identities = try json(harness.run(["find-identity", "--json"]).output)
        let labels = (identities["identities"] as? [[String: Any]])?.compactMap { $0["label"] as? String }
        #expect(Set(labels ?? []) == ["RSA Client", "www.example.test"])
        let garbage = harness.run(["import", files.path("ext.cnf")], password: "x")
        #expect(garbage.exitCode == 93)  // errSecDecode, -26275
    }

    @Test func anExportedIdentityOpensInOpenSSL() throws {
        #expect(harness.run(["import", files.path("default.p12"), "-P", "correct-horse"]).exitCode == 0)
        let out = files.path("export-\(UUID().uuidString).p12")
        let exported = harness.run(["export", "-t", "identities", "-f", "pkcs12", "-P", "new pass", "-o", out])
        #expect(exported.exitCode == 0)
        let permissions = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let key = try files.shell(
            "openssl pkcs12 -in '\(out)' -passin 'pass:new pass' -nocerts -nodes | openssl pkey -pubout")
        #expect(key == (try files.shell("openssl pkey -in leaf.key -pubout")))
        let leaf = try files.shell(
            "openssl pkcs12 -in '\(out)' -passin 'pass:new pass' -clcerts -nokeys | openssl x509 -outform DER")
        #expect(leaf == (try files.data("leaf.der")))
        // And it comes back in.
        let other = CommandHarness()
        #expect(other.run(["import", out, "-P", "new pass"]).output == "1 identity imported.\n")
        #expect(harness.run(["export", "-t", "identities", "-f", "pkcs12", "-P", "x", "-o", out]).exitCode == 220)
    }

    @Test func certificatesAndKeysExportAsAPEMSequence() throws {
        #expect(harness.run(["import", files.path("default.p12"), "-P", "correct-horse"]).exitCode == 0)
        let certificates = harness.run(["export", "-t", "certs", "-f", "pemseq"])
        #expect(certificates.exitCode == 0)
        #expect(certificates.output.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 4)
        #expect(!certificates.output.contains("PRIVATE KEY"))
        let keys = harness.run(["export", "-t", "privKeys", "-p"])
        #expect(keys.output.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let file = files.path("exported-\(UUID().uuidString).pem")
        try Data(keys.output.utf8).write(to: URL(fileURLWithPath: file))
        let publicKey = try files.shell("openssl pkey -in leaf.key -pubout")
        #expect(try files.shell("openssl pkey -in '\(file)' -pubout") == publicKey)
        #expect(CommandHarness().run(["export"]).exitCode == 44)
    }

    @Test func addFindAndDeleteCertificates() throws {
        let added = harness.run(["add-certificates", files.path("leaf.pem"), files.path("chain.pem")])
        #expect(added.exitCode == 0)
        let again = harness.run(["add-certificates", files.path("root.pem"), "--json"])
        #expect(again.exitCode == 45)
        #expect(again.errors.hasPrefix("security: SecCertificateAddToKeychain: The specified item already exists"))

        let mail = harness.run(["find-certificate", "-e", "OPS@example.test", "-m"])
        #expect(mail.output.hasPrefix("email addresses: ops@example.test\nkeychain: "))
        #expect(harness.run(["find-certificate", "-e", "nobody@example.test"]).exitCode == 44)
        let all = try harness.run(["find-certificate", "-a", "--json"]).output.split(separator: "\n").map {
            try json(String($0))
        }
        #expect(all.count == 3)
        #expect(
            Set(all.compactMap { $0["sha1"] as? String }) == [
                try fingerprint("leaf.pem"), try fingerprint("intermediate.pem"), try fingerprint("root.pem"),
            ])

        #expect(harness.run(["delete-certificate", "-c", "Example Test Root"]).exitCode == 0)
        #expect(harness.run(["delete-certificate", "-c", "Example Test Root"]).exitCode == 44)
        #expect(harness.run(["delete-certificate", "-Z", try fingerprint("intermediate.pem")]).exitCode == 0)
        #expect(harness.run(["find-certificate", "-a", "--json"]).output.split(separator: "\n").count == 1)
        #expect(harness.run(["delete-identity", "-c", "www.example.test"]).exitCode == 44)  // no key
    }

    @Test func deleteIdentityDeletesTheCertificateAndTheKey() throws {
        #expect(harness.run(["import", files.path("default.p12"), "-P", "correct-horse"]).exitCode == 0)
        #expect(harness.run(["delete-identity", "-Z", try fingerprint("leaf.pem", "sha256")]).exitCode == 0)
        #expect(harness.run(["export", "-t", "privKeys"]).exitCode == 44)
        #expect(harness.run(["find-certificate", "-a", "--json"]).output.split(separator: "\n").count == 2)
        #expect(harness.run(["find-identity", "--json"]).output == #"{"identities":[],"policy":"basic"}"# + "\n")
    }

    @Test(arguments: [("ecc", 256, 65), ("rsa", 2048, 270)])
    func createKeypairStoresAPrivateKey(algorithm: String, size: Int, publicBytes: Int) throws {
        let created = harness.run(["create-keypair", "-a", algorithm, "-s", "\(size)", "--json", "build key"])
        #expect(created.exitCode == 0)
        let object = try json(created.output)
        #expect(object["label"] as? String == "build key")
        #expect((object["publicKey"] as? String)?.count == 2 + 2 * publicBytes)
        let exported = harness.run(["export", "-t", "privKeys"])
        #expect(exported.output.components(separatedBy: "-----BEGIN PRIVATE KEY-----").count == 2)
    }

    @Test func dumpKeychainListsKeysAndCertificatesButNeverTheirData() throws {
        #expect(harness.run(["create-keypair", "-a", "ecc", "dump key"]).exitCode == 0)
        #expect(harness.run(["add-certificates", files.path("leaf.pem")]).exitCode == 0)
        let dumped = harness.run(["dump-keychain", "-d"])
        #expect(dumped.exitCode == 0)
        #expect(dumped.output.contains("class: \"keys\""))
        #expect(dumped.output.contains("class: \"cert\""))
        #expect(dumped.output.contains("\"labl\"<blob>=\"dump key\""))
        #expect(!dumped.output.contains("data:"))
    }

    @Test(arguments: [
        (["import"], "security: name the file"),
        (["export", "-t", "keys"], "security: -t needs one of certs, privKeys, identities, all, not \"keys\""),
        (["export", "-f", "pkcs7"], "security: -f needs one of pemseq, pkcs12, not \"pkcs7\""),
        (["create-keypair"], "security: name the key pair"),
        (["create-keypair", "-a", "dsa", "k"], "security: -a needs one of rsa, ecc, not \"dsa\""),
        (["delete-certificate"], "security: -c is required"),
        (["find-identity", "-p", "smime"], "security: -p needs one of basic, ssl-client, ssl-server"),
        (["find-certificate", "-k", "login.keychain"], "security: naming a keychain"),
    ])
    func usageErrorsExitWith64(arguments: [String], message: String) {
        let run = harness.run(arguments)
        #expect(run.exitCode == 64)
        #expect(run.errors.hasPrefix(message))
    }
}
