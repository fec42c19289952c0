import Foundation
import KeychainCore
import Security
import Synchronization
import Testing

/// Identities: not stored, but certificate items joined with the private key items whose `klbl` is the
/// certificate's `pkhh`, in the caller's groups; `SecIdentity` and its functions; adding, deleting and updating
/// both halves.
@Suite struct IdentityItemTests {
    private func lookUp(_ query: [CFString: Any]) -> (OSStatus, AnyObject?) {
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    private func add(_ attributes: [CFString: Any]) -> OSStatus { SecItemAdd(attributes as CFDictionary, nil) }

    /// The certificate and private key of an identity, each copied out with success expected.
    private func halves(of identity: SecIdentity) -> (SecCertificate?, SecKey?) {
        var certificate: SecCertificate?
        var key: SecKey?
        #expect(SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess)
        #expect(SecIdentityCopyPrivateKey(identity, &key) == errSecSuccess)
        return (certificate, key)
    }

    private func addHalves(_ fixture: IdentityFixture, tag: String = "tag.one") {
        #expect(
            add([
                kSecClass: kSecClassKey, kSecValueRef: fixture.privateKey,
                kSecAttrApplicationTag: Data(tag.utf8),
            ])
                == errSecSuccess)
        #expect(add([kSecValueRef: fixture.certificate]) == errSecSuccess)
    }

    @Test func aCertificateAndItsPrivateKeyAreAnIdentity() throws {
        let fixture = try IdentityFixture.make(commonName: "Identity One")
        try withFreshKeychain {
            addHalves(fixture)
            let (status, found) = lookUp([kSecClass: kSecClassIdentity, kSecReturnRef: true])
            #expect(status == errSecSuccess)
            let identity = try #require(found as? SecIdentity)
            #expect(CFGetTypeID(identity) == SecIdentityGetTypeID())
            #expect(SecIdentityGetTypeID() != SecCertificateGetTypeID() && SecIdentityGetTypeID() != SecKeyGetTypeID())
            let (certificate, key) = halves(of: identity)
            #expect(certificate == fixture.certificate)
            #expect(key == fixture.privateKey)
            // The key signs what the certificate's key verifies.
            let message = Data("mutual TLS".utf8) as CFData
            let privateKey = try #require(key)
            let signature = try #require(
                SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, message, nil))
            let publicKey = try #require(SecCertificateCopyKey(fixture.certificate))
            #expect(SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, message, signature, nil))
        }
    }

    /// `SecIdentityCreate` pairs a certificate with its private key, without the keychain; another key, or the
    /// certificate's own public key, gives nil.
    @Test func anIdentityCreatedFromACertificateAndItsKey() throws {
        let fixture = try IdentityFixture.make(commonName: "Made In Memory")
        let other = try IdentityFixture.make(commonName: "Someone Else")
        let identity = try #require(SecIdentityCreate(nil, fixture.certificate, fixture.privateKey))
        let (certificate, key) = halves(of: identity)
        #expect(certificate == fixture.certificate)
        #expect(key == fixture.privateKey)
        #expect(SecIdentityCreate(nil, fixture.certificate, other.privateKey) == nil)
        let publicKey = try #require(SecCertificateCopyKey(fixture.certificate))
        #expect(SecIdentityCreate(nil, fixture.certificate, publicKey) == nil)
    }

    @Test func aCertificateWithoutItsPrivateKeyIsNoIdentity() throws {
        let fixture = try IdentityFixture.make(commonName: "Lonely")
        let other = try IdentityFixture.make(commonName: "Other")
        try withFreshKeychain {
            #expect(add([kSecValueRef: fixture.certificate]) == errSecSuccess)
            #expect(lookUp([kSecClass: kSecClassIdentity]).0 == errSecItemNotFound)
            // Another certificate's key, and the certificate's own public key, do not make it one.
            #expect(add([kSecClass: kSecClassKey, kSecValueRef: other.privateKey]) == errSecSuccess)
            let publicKey = try #require(SecKeyCopyPublicKey(fixture.privateKey))
            #expect(add([kSecClass: kSecClassKey, kSecValueRef: publicKey]) == errSecSuccess)
            #expect(lookUp([kSecClass: kSecClassIdentity, kSecMatchLimit: kSecMatchLimitAll]).0 == errSecItemNotFound)
            var identity: SecIdentity?
            #expect(SecIdentityCreateWithCertificate(nil, fixture.certificate, &identity) == errSecItemNotFound)
            #expect(identity == nil)
            #expect(add([kSecClass: kSecClassKey, kSecValueRef: fixture.privateKey]) == errSecSuccess)
            #expect(SecIdentityCreateWithCertificate(nil, fixture.certificate, &identity) == errSecSuccess)
            var key: SecKey?
            _ = identity.map { SecIdentityCopyPrivateKey($0, &key) }
            #expect(key == fixture.privateKey)
            #expect(lookUp([kSecClass: kSecClassIdentity]).0 == errSecSuccess)
        }
    }

    @Test func aQueryTakesTheAttributesOfBothHalves() throws {
        let one = try IdentityFixture.make(commonName: "Identity One")
        let two = try IdentityFixture.make(commonName: "Identity Two")
        try withFreshKeychain {
            addHalves(one, tag: "tag.one")
            addHalves(two, tag: "tag.two")
            // kSecAttrLabel is the certificate's; kSecAttrApplicationTag the key's.
            let byLabel = lookUp([kSecClass: kSecClassIdentity, kSecAttrLabel: "Identity Two", kSecReturnRef: true])
            #expect(
                (byLabel.1 as? SecIdentity).map { identity in
                    var certificate: SecCertificate?
                    _ = SecIdentityCopyCertificate(identity, &certificate)
                    return certificate == two.certificate
                } == true)
            #expect(
                lookUp([kSecClass: kSecClassIdentity, kSecAttrApplicationTag: Data("tag.one".utf8)]).0
                    == errSecSuccess)
            #expect(
                lookUp([
                    kSecClass: kSecClassIdentity, kSecAttrApplicationTag: Data("tag.one".utf8),
                    kSecAttrLabel: "Identity Two",
                ]).0 == errSecItemNotFound)
            let all = lookUp([kSecClass: kSecClassIdentity, kSecMatchLimit: kSecMatchLimitAll, kSecReturnRef: true])
            #expect((all.1 as? [Any])?.compactMap { $0 as? SecIdentity }.count == 2)
            // The attributes: the certificate's over the key's, without the class, as Apple's server returns them.
            let (_, found) = lookUp([
                kSecClass: kSecClassIdentity, kSecAttrLabel: "Identity One", kSecReturnAttributes: true,
            ])
            let attributes = try #require(found as? [String: Any])
            #expect(attributes[kSecAttrLabel as String] as? String == "Identity One")
            #expect((attributes[kSecAttrPublicKeyHash as String] as? Data)?.count == 20)
            #expect(
                attributes[kSecAttrPublicKeyHash as String] as? Data
                    == attributes[kSecAttrApplicationLabel as String] as? Data)
            #expect(
                attributes[kSecAttrKeyClass as String] as? String == kSecAttrKeyClassPrivate as String
                    || attributes[kSecAttrKeyClass as String] as? NSNumber == 1)
            #expect(attributes[kSecAttrApplicationTag as String] as? Data == Data("tag.one".utf8))
            #expect(attributes[kSecClass as String] == nil)
            #expect(attributes[kSecAttrAccessGroup as String] as? String == "TEAM1.com.example.app")
            // A persistent reference names the identity and finds it again.
            let (_, reference) = lookUp([
                kSecClass: kSecClassIdentity, kSecAttrLabel: "Identity One", kSecReturnPersistentRef: true,
            ])
            let bytes = try #require(reference as? Data)
            #expect(bytes.count == 20 && bytes.prefix(4) == Data("idnt".utf8))
            let (status, byReference) = lookUp([kSecValuePersistentRef: bytes, kSecReturnRef: true])
            #expect(status == errSecSuccess)
            #expect(byReference.map { ($0 as? SecIdentity).map(label) ?? nil } == "Identity One")
        }
    }

    private func label(_ identity: SecIdentity) -> String? {
        var certificate: SecCertificate?
        _ = SecIdentityCopyCertificate(identity, &certificate)
        return certificate.flatMap { SecCertificateCopySubjectSummary($0) as String? }
    }

    @Test func anIdentityWhoseKeyIsInAnotherGroupIsNotFound() throws {
        let fixture = try IdentityFixture.make(commonName: "Split")
        let groups = ["TEAM1.com.example.app", "TEAM1.com.example.other"]
        try withFreshKeychainHandle(groups: groups) { keychain in
            #expect(add([kSecValueRef: fixture.certificate, kSecAttrAccessGroup: groups[0]]) == errSecSuccess)
            #expect(
                add([kSecClass: kSecClassKey, kSecValueRef: fixture.privateKey, kSecAttrAccessGroup: groups[1]])
                    == errSecSuccess)
            // The caller holds both groups: the identity is theirs.
            #expect(lookUp([kSecClass: kSecClassIdentity]).0 == errSecSuccess)
            // Within one group, the certificate has no key.
            #expect(lookUp([kSecClass: kSecClassIdentity, kSecAttrAccessGroup: groups[0]]).0 == errSecItemNotFound)
            // An app that holds only the certificate's group sees no identity, nor can it make one.
            let app = CallerIdentity(applicationIdentifier: groups[0], accessGroups: [groups[0]])
            #expect(throws: KeychainError.itemNotFound) {
                try keychain.copyMatching(ItemQuery(itemClass: .identity), as: app)
            }
            let certificates = try keychain.copyMatching(ItemQuery(itemClass: .certificate), as: app)
            #expect(certificates.count == 1)
            let other = CallerIdentity(applicationIdentifier: groups[1], accessGroups: [groups[1]])
            #expect(throws: KeychainError.itemNotFound) {
                try keychain.copyMatching(ItemQuery(itemClass: .identity), as: other)
            }
        }
    }

    /// The keychain's owner sees every app's items, but an identity is still one app's: its certificate is paired
    /// with the key of the certificate's own group, never with another app's copy of the key.
    @Test func theOwnerPairsACertificateWithTheKeyOfItsOwnGroup() throws {
        let fixture = try IdentityFixture.make(commonName: "Two Apps")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString)")
        func keychain(_ group: String, owner: Bool = false) throws -> Keychain {
            try Keychain(
                configuration: KeychainConfiguration(
                    home: home,
                    identity: CallerIdentity(applicationIdentifier: group, accessGroups: [group], isOwner: owner)))
        }
        let (appA, appB, owner) = (
            try keychain("TEAM1.a"), try keychain("TEAM2.b"), try keychain("LOCAL.o", owner: true)
        )
        defer {
            for opened in [appA, appB, owner] { opened.close() }
            try? FileManager.default.removeItem(at: home)
        }
        // B holds only the key, stored first; A holds the certificate and its own copy of the key.
        SecurityRuntime.withKeychain(appB) {
            #expect(add([kSecClass: kSecClassKey, kSecValueRef: fixture.privateKey]) == errSecSuccess)
        }
        SecurityRuntime.withKeychain(appA) { addHalves(fixture) }
        SecurityRuntime.withKeychain(owner) {
            #expect(SecItemDelete([kSecClass: kSecClassIdentity] as CFDictionary) == errSecSuccess)
        }
        SecurityRuntime.withKeychain(appB) { #expect(lookUp([kSecClass: kSecClassKey]).0 == errSecSuccess) }
        SecurityRuntime.withKeychain(appA) {
            #expect(lookUp([kSecClass: kSecClassKey]).0 == errSecItemNotFound)
            #expect(lookUp([kSecClass: kSecClassCertificate]).0 == errSecItemNotFound)
        }
    }

    @Test func addingAnIdentityAddsBothHalvesAndDeletingItDeletesBoth() throws {
        let fixture = try IdentityFixture.make(commonName: "Both Halves")
        let identity = SecIdentity(certificate: fixture.certificate, privateKey: fixture.privateKey)
        try withFreshKeychain {
            var added: AnyObject?
            let attributes: [CFString: Any] = [kSecValueRef: identity, kSecReturnPersistentRef: true]
            #expect(SecItemAdd(attributes as CFDictionary, &added) == errSecSuccess)
            #expect((added as? Data)?.prefix(4) == Data("idnt".utf8))
            #expect(lookUp([kSecValueRef: fixture.certificate]).0 == errSecSuccess)
            #expect(lookUp([kSecClass: kSecClassKey, kSecAttrKeyClass: kSecAttrKeyClassPrivate]).0 == errSecSuccess)
            let (status, found) = lookUp([kSecClass: kSecClassIdentity, kSecReturnRef: true])
            #expect(status == errSecSuccess)
            #expect(found as? SecIdentity == identity)
            #expect(SecItemDelete([kSecClass: kSecClassIdentity] as CFDictionary) == errSecSuccess)
            #expect(lookUp([kSecClass: kSecClassCertificate]).0 == errSecItemNotFound)
            #expect(lookUp([kSecClass: kSecClassKey]).0 == errSecItemNotFound)
            #expect(SecItemDelete([kSecClass: kSecClassIdentity] as CFDictionary) == errSecItemNotFound)
        }
    }

    @Test func aQueryByAnIdentityReferenceAnswersOnlyWithAPersistentReference() throws {
        // Apple's client splits an identity reference into its certificate and its key: both must be found,
        // and only a persistent reference to the certificate comes back, as the identity's; data, attributes
        // and references come back as nothing.
        let fixture = try IdentityFixture.make(commonName: "By Reference")
        let identity = SecIdentity(certificate: fixture.certificate, privateKey: fixture.privateKey)
        try withFreshKeychain {
            #expect(lookUp([kSecValueRef: identity]).0 == errSecItemNotFound)
            addHalves(fixture)
            let persistent = lookUp([kSecValueRef: identity, kSecReturnPersistentRef: true])
            #expect(persistent.0 == errSecSuccess)
            #expect((persistent.1 as? Data)?.prefix(4) == Data("idnt".utf8))
            for returned in [kSecReturnData, kSecReturnAttributes, kSecReturnRef] {
                let (status, found) = lookUp([kSecValueRef: identity, returned: true])
                #expect(status == errSecSuccess && found == nil, "\(returned)")
            }
            let every = lookUp([
                kSecValueRef: identity, kSecReturnPersistentRef: true, kSecReturnAttributes: true,
                kSecReturnData: true, kSecReturnRef: true,
            ])
            #expect(every.0 == errSecSuccess && every.1 == nil)
            // A query for the identity class, without a reference, answers as before.
            #expect(lookUp([kSecClass: kSecClassIdentity, kSecReturnRef: true]).1 is SecIdentity)
            // Without its key the reference finds nothing.
            #expect(SecItemDelete([kSecClass: kSecClassKey] as CFDictionary) == errSecSuccess)
            #expect(lookUp([kSecValueRef: identity, kSecReturnPersistentRef: true]).0 == errSecItemNotFound)
        }
    }

    @Test func anIdentityIsADuplicateOnlyWhenBothHalvesAreThere() throws {
        let fixture = try IdentityFixture.make(commonName: "Twice")
        let identity = SecIdentity(certificate: fixture.certificate, privateKey: fixture.privateKey)
        try withFreshKeychain {
            #expect(add([kSecValueRef: identity]) == errSecSuccess)
            #expect(add([kSecValueRef: identity]) == errSecDuplicateItem)
            #expect(
                add([kSecClass: kSecClassIdentity, kSecValueRef: identity, kSecAttrLabel: "again"])
                    == errSecDuplicateItem)
            // As Apple's SecItemAdd does, a half already stored is kept and the other added.
            #expect(SecItemDelete([kSecValueRef: fixture.certificate] as CFDictionary) == errSecSuccess)
            #expect(lookUp([kSecClass: kSecClassIdentity]).0 == errSecItemNotFound)
            #expect(add([kSecValueRef: identity]) == errSecSuccess)
            #expect(lookUp([kSecClass: kSecClassIdentity]).0 == errSecSuccess)
            let (_, keys) = lookUp([kSecClass: kSecClassKey, kSecMatchLimit: kSecMatchLimitAll, kSecReturnRef: true])
            #expect((keys as? [Any])?.count == 1)
        }
    }

    @Test func anIdentityThatCannotBeAddedAddsNothing() throws {
        let one = try IdentityFixture.make(commonName: "Mismatch One")
        let two = try IdentityFixture.make(commonName: "Mismatch Two")
        try withFreshKeychain {
            // A certificate with another certificate's key is no identity.
            let mismatched = SecIdentity(certificate: one.certificate, privateKey: two.privateKey)
            #expect(add([kSecValueRef: mismatched]) == errSecParam)
            // A half refused (no passcode for WhenPasscodeSet) leaves the other out too.
            let identity = SecIdentity(certificate: one.certificate, privateKey: one.privateKey)
            #expect(
                add([kSecValueRef: identity, kSecAttrAccessible: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly])
                    == errSecAuthFailed)
            // An attribute neither half has.
            #expect(add([kSecValueRef: identity, kSecAttrService: "svc"]) == errSecNoSuchAttr)
            #expect(lookUp([kSecClass: kSecClassCertificate]).0 == errSecItemNotFound)
            #expect(lookUp([kSecClass: kSecClassKey]).0 == errSecItemNotFound)
        }
    }

    @Test func deletingAnIdentityKeepsAKeyAnotherCertificateStillUses() throws {
        let fixture = try IdentityFixture.make(commonName: "First")
        let second = try fixture.anotherCertificate(commonName: "Second")
        try withFreshKeychain {
            addHalves(fixture)
            #expect(add([kSecValueRef: second]) == errSecSuccess)
            let (_, all) = lookUp([
                kSecClass: kSecClassIdentity, kSecMatchLimit: kSecMatchLimitAll, kSecReturnRef: true,
            ])
            #expect((all as? [Any])?.count == 2)
            let first = SecIdentity(certificate: fixture.certificate, privateKey: fixture.privateKey)
            #expect(SecItemDelete([kSecValueRef: first] as CFDictionary) == errSecSuccess)
            #expect(lookUp([kSecValueRef: fixture.certificate]).0 == errSecItemNotFound)
            #expect(lookUp([kSecClass: kSecClassKey]).0 == errSecSuccess)
            #expect(lookUp([kSecClass: kSecClassIdentity, kSecAttrLabel: "Second"]).0 == errSecSuccess)
            #expect(
                SecItemDelete([kSecClass: kSecClassIdentity, kSecAttrLabel: "Second"] as CFDictionary)
                    == errSecSuccess)
            #expect(lookUp([kSecClass: kSecClassKey]).0 == errSecItemNotFound)
        }
    }

    /// A delete decides whether the key is still paired inside its own transaction: an identity added meanwhile
    /// with the same key (the add keeps the key that is there) must not lose it to the delete of the first one.
    @Test func anIdentityAddedWhileAnotherWithItsKeyIsDeletedKeepsTheKey() throws {
        let fixture = try IdentityFixture.make(commonName: "Leaving")
        let staying = try fixture.anotherCertificate(commonName: "Staying")
        let leaving = SecIdentity(certificate: fixture.certificate, privateKey: fixture.privateKey)
        let joining = SecIdentity(certificate: staying, privateKey: fixture.privateKey)
        try withFreshKeychainHandle { keychain in
            for _ in 0..<60 {
                #expect(add([kSecValueRef: leaving]) == errSecSuccess)
                let statuses = Mutex<[OSStatus]>([0, 0])
                // Threads of their own: the keychain a task installs is the task's, so each installs it again.
                DispatchQueue.concurrentPerform(iterations: 2) { turn in
                    let status = SecurityRuntime.withKeychain(keychain) {
                        turn == 0
                            ? SecItemDelete([kSecValueRef: leaving] as CFDictionary)
                            : SecItemAdd([kSecValueRef: joining] as CFDictionary, nil)
                    }
                    statuses.withLock { $0[turn] = status }
                }
                #expect(statuses.withLock { $0 } == [errSecSuccess, errSecSuccess])
                // Whichever came first, the identity added is whole: its certificate and its key.
                #expect(lookUp([kSecClass: kSecClassIdentity, kSecAttrLabel: "Staying"]).0 == errSecSuccess)
                #expect(SecItemDelete([kSecClass: kSecClassIdentity] as CFDictionary) == errSecSuccess)
                #expect(lookUp([kSecClass: kSecClassKey]).0 == errSecItemNotFound)
            }
        }
    }

    @Test func anUpdateChangesBothHalves() throws {
        let fixture = try IdentityFixture.make(commonName: "Before")
        try withFreshKeychain {
            addHalves(fixture)
            let query: [CFString: Any] = [kSecClass: kSecClassIdentity, kSecAttrLabel: "Before"]
            let changes: [CFString: Any] = [kSecAttrLabel: "After", kSecAttrApplicationTag: Data("tag.new".utf8)]
            #expect(SecItemUpdate(query as CFDictionary, changes as CFDictionary) == errSecSuccess)
            #expect(lookUp([kSecClass: kSecClassCertificate, kSecAttrLabel: "After"]).0 == errSecSuccess)
            let renamedKey: [CFString: Any] = [
                kSecClass: kSecClassKey, kSecAttrLabel: "After", kSecAttrApplicationTag: Data("tag.new".utf8),
            ]
            #expect(lookUp(renamedKey).0 == errSecSuccess)
            #expect(lookUp([kSecClass: kSecClassIdentity, kSecAttrLabel: "After"]).0 == errSecSuccess)
            #expect(SecItemUpdate(query as CFDictionary, changes as CFDictionary) == errSecItemNotFound)
            // An identity's certificate or key is not replaced by an update: the reference expands to attributes,
            // kSecClass among them, which an update refuses (errSecNoSuchAttr, as Apple's securityd answers).
            let other = try IdentityFixture.make(commonName: "Other")
            let replacement = SecIdentity(certificate: other.certificate, privateKey: other.privateKey)
            #expect(
                SecItemUpdate(
                    [kSecClass: kSecClassIdentity] as CFDictionary,
                    [kSecValueRef: replacement] as CFDictionary) == errSecNoSuchAttr)
        }
    }
}
