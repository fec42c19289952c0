import Foundation
import KeychainCrypto
import KeychainStore
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// The constraints are cryptographic: what the keychain holds after an enrollment change cannot open a
/// biometryCurrentSet item, even with the engine's own checks bypassed.
@Suite struct ConstraintCryptographyTests {
    private func keychainWithPasscode() throws -> Keychain {
        let keychain = try fastKDFKeychain()
        try keychain.setPasscode(testPasscode)
        try keychain.authenticators.biometry.enroll()
        return keychain
    }

    /// The stored row of the only generic password.
    private func storedRow(_ keychain: Keychain) throws -> StoredRow {
        let query = ItemQuery(itemClass: .genericPassword, limit: .all)
        let schema = try keychain.schema(.genericPassword)
        let rows = try keychain.withStore { store in
            try keychain.matchingRows(
                query, schema: schema, groups: .only([protectionTestGroup]), limit: .all,
                reading: [.metadata, .secret], store: store
            ).map(\.row)
        }
        return try #require(rows.first)
    }

    @Test func currentSetItemIsUnreadableAfterEnrollmentChangeWithEverythingTheKeychainHolds() throws {
        let keychain = try keychainWithPasscode()
        defer { keychain.simulateRestart() }
        let policy = AccessControlPolicy(accessibility: .whenUnlocked, flags: .biometryCurrentSet)
        try keychain.add(
            NewItem(
                itemClass: .genericPassword, attributes: [.account: .string("a")],
                accessControl: policy, data: Array("secret".utf8)))
        let row = try storedRow(keychain)
        let sealer = ItemSealer(table: "genp", uuid: row.uuid, protection: .whenUnlocked, version: row.version)
        let itemKey = try sealer.itemKey(wrapped: row.wrappedKey, classKey: try keychain.classKey(.whenUnlocked))
        // The envelope is sealed under the item key: the class key is needed first, then the factor.
        let (envelope, sealed) = try ConstraintEnvelope.unframing(
            try keychain.constrainedEnvelopeColumn(row.secret, sealer: sealer, itemKey: itemKey))
        let associated = sealer.constrainedSecretAssociatedData(policy)

        // Before the change, the biometry secret opens it (the engine does exactly this after a match).
        let before = try #require(envelope.alternatives.first)
        func open(with key: SecureBytes) -> Bool {
            var material: [UInt8] = []
            key.withUnsafeBytes { material += $0 }
            guard
                let kek = try? KeyDerivation.hkdfSHA256(
                    key: SecureBytes(material), salt: Array(before.salt),
                    info: Array("keychain constraint v1 bc".utf8)),
                let secretKey = try? AESKeyWrap.unwrap(Array(before.wrapped), kek: kek)
            else { return false }
            return (try? AESGCM.open(sealed, key: secretKey, authenticating: associated)) != nil
        }
        #expect(open(with: try #require(try keychain.authenticators.biometry.keys().currentSetKey)))

        try keychain.authenticators.biometry.changeEnrollment()
        // Every key the keychain can produce now: the biometry keys, the passcode constraint key, the device
        // key, the class keys. None opens the secret.
        var candidates: [SecureBytes] = [
            try #require(try keychain.authenticators.biometry.keys().currentSetKey),
            try keychain.authenticators.biometry.anyKey(),
            try keychain.dataProtection.passcodeConstraintKey(),
            keychain.dataProtection.deviceKey, keychain.dataProtection.indexKey,
        ]
        for protection in Accessibility.allCases {
            if let key = try keychain.dataProtection.store.get(protection) { candidates.append(key) }
        }
        for candidate in candidates {
            #expect(!open(with: candidate))
            #expect((try? AESKeyWrap.unwrap(Array(before.wrapped), kek: candidate)) == nil)
        }
        // And the item's own key, which the class key unwraps, does not open the secret either.
        #expect((try? AESGCM.open(sealed, key: itemKey, authenticating: associated)) == nil)
        #expect(
            !String(
                decoding: try Data(
                    contentsOf: keychain.configuration.home.appendingPathComponent(
                        "biometry.json")), as: UTF8.self
            ).contains(before.wrapped.base64EncodedString()))
    }

    @Test func backupsLeaveConstrainedItemsOut() throws {
        let keychain = try keychainWithPasscode()
        defer { keychain.simulateRestart() }
        try keychain.add(
            NewItem(
                itemClass: .genericPassword, attributes: [.account: .string("a")],
                accessControl: AccessControlPolicy(accessibility: .whenUnlocked, flags: .biometryAny),
                data: Array("secret".utf8)))
        try keychain.addToken("plain", .whenUnlocked)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ac-\(UUID().uuidString).backup")
        defer { try? FileManager.default.removeItem(at: file) }
        let summary = try keychain.backup(to: file, password: Secret(Array("pw".utf8)))
        #expect(summary.itemCount == 1 && summary.excludedCount == 1)
    }

    @Test func applicationPasswordItemIsSealedUnderThePassword() throws {
        let keychain = try fastKDFKeychain()
        let context = AuthenticationContext()
        context.setApplicationPassword(Array("pw".utf8))
        let item = NewItem(
            itemClass: .genericPassword, attributes: [.account: .string("a")],
            accessControl: AccessControlPolicy(accessibility: .whenUnlocked, flags: .applicationPassword),
            data: Array("secret".utf8))
        try keychain.add(item, context: context)
        let query = accountQuery("a", returns: .data)
        #expect(status { _ = try keychain.copyMatching(query) } == SecurityStatus.authFailed)
        #expect(try keychain.copyMatching(query, context: context).first?.data?.bytes == Array("secret".utf8))
        let row = try storedRow(keychain)
        #expect(!row.secret.contains(Array("secret".utf8)))
    }
}

extension Array where Element == UInt8 {
    fileprivate func contains(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
