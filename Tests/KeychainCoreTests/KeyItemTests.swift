import Foundation
import KeychainStore
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// Key items in the engine: Apple's primary key, the value sealed like a password, protection classes, lock
/// states and backups. The key bytes here are opaque to the engine (the face makes them from `SecKey`).
@Suite(.serialized) struct KeyItemTests {
    /// A fake EC private key's external representation: `04 ‖ X ‖ Y ‖ K` with recognizable bytes.
    static let privateBytes: [UInt8] = [4] + Array(repeating: 0xA1, count: 64) + Array(repeating: 0x5C, count: 32)

    private func keyItem(
        tag: String = "com.example.key", label: String? = nil, applicationLabel: [UInt8] = [1, 2, 3],
        accessibility: Accessibility? = nil, returns: ReturnOptions = []
    ) -> NewItem {
        var item = NewItem(
            itemClass: .key,
            attributes: [.applicationTag: .data(bytes(tag)), .applicationLabel: .data(applicationLabel)],
            accessibility: accessibility, returns: returns)
        if let label { item.attributes[.label] = .string(label) }
        item.value = .key(
            KeyValue(
                keyType: "73", keyClass: "1", sizeInBits: 256,
                externalRepresentation: Secret(Self.privateBytes)))
        return item
    }

    private func tagQuery(_ tag: String = "com.example.key", returns: ReturnOptions = [], limit: MatchLimit = .one)
        -> ItemQuery
    {
        ItemQuery(itemClass: .key, attributes: [.applicationTag: .data(bytes(tag))], limit: limit, returns: returns)
    }

    @Test func aKeyItemIsAddedFoundByTagAndReturnsItsValue() throws {
        let keychain = try makeKeychain()
        try keychain.add(keyItem())
        let found = try #require(try keychain.copyMatching(tagQuery(returns: [.data, .attributes])).first)
        guard case .key(let value)? = found.value else {
            Issue.record("no key value")
            return
        }
        #expect(value.externalRepresentation.bytes == Self.privateBytes)
        #expect(value.keyType == "73" && value.keyClass == "1" && value.sizeInBits == 256)
        let attributes = try #require(found.attributes)
        #expect(attributes[.keyClass] == .number(1))
        #expect(attributes[.keyType] == .number(73))
        #expect(attributes[.keySizeInBits] == .number(256))
        #expect(attributes[.effectiveKeySize] == .number(256))
        #expect(attributes[.accessible] == .string("ak"))
        #expect(found.data == nil)
    }

    @Test func aReferenceAloneReadsTheValue() throws {
        let keychain = try makeKeychain()
        try keychain.add(keyItem())
        let found = try #require(try keychain.copyMatching(tagQuery(returns: .reference)).first)
        guard case .key(let value)? = found.value else {
            Issue.record("no key value")
            return
        }
        #expect(value.externalRepresentation.bytes == Self.privateBytes)
    }

    @Test func theSameKeyWithAnotherLabelIsADuplicate() throws {
        let keychain = try makeKeychain()
        try keychain.add(keyItem(label: "first"))
        #expect(status { try keychain.add(keyItem(label: "second")) } == SecurityStatus.duplicateItem)
        // Another tag, or another application label, is another key.
        try keychain.add(keyItem(tag: "other", label: "first"))
        try keychain.add(keyItem(label: "first", applicationLabel: [9]))
        #expect(try keychain.count(ItemQuery(itemClass: .key)) == 3)
    }

    @Test func valuesOfTheWrongKindAreRefused() throws {
        let keychain = try makeKeychain()
        var secretKey = NewItem(itemClass: .key, attributes: [.applicationTag: .string("t")], data: [1, 2])
        #expect(status { try keychain.add(secretKey) } == SecurityStatus.param)
        secretKey.value = nil
        #expect(status { try keychain.add(secretKey) } == SecurityStatus.param)
        var password = genericPassword()
        password.value = keyItem().value
        #expect(status { try keychain.add(password) } == SecurityStatus.param)
        #expect(try keychain.count(ItemQuery(itemClass: .key)) == 0)
        #expect(try keychain.count(genericQuery([:])) == 0)
    }

    /// The caller's class, type and size are stored as given, as Apple's SecItemAdd lets a caller's attributes
    /// override the ones a reference gives; only those left out come from the key.
    @Test func theCallersDescribingAttributesAreStoredAsGiven() throws {
        let keychain = try makeKeychain()
        var item = keyItem()
        item.attributes[.keyType] = .number(42)
        item.attributes[.keySizeInBits] = .number(2048)
        try keychain.add(item)
        let attributes = try keychain.attributes(tagQuery())
        #expect(attributes[.keyType] == .number(42))
        #expect(attributes[.keySizeInBits] == .number(2048))
        #expect(attributes[.keyClass] == .number(1))
        #expect(attributes[.effectiveKeySize] == .number(256))
    }

    @Test func updatesChangeLabelsButNeverWhatDescribesTheKey() throws {
        let keychain = try makeKeychain()
        try keychain.add(keyItem(label: "old"))
        try keychain.update(tagQuery(limit: .all), with: ItemChanges(attributes: [.label: .string("new")]))
        #expect(try keychain.attributes(tagQuery())[.label] == .string("new"))
        #expect(
            status {
                try keychain.update(tagQuery(limit: .all), with: ItemChanges(attributes: [.keyClass: .number(0)]))
            } == SecurityStatus.param)
        var replacing = ItemChanges()
        replacing.value = keyItem().value
        #expect(status { try keychain.update(tagQuery(limit: .all), with: replacing) } == SecurityStatus.unimplemented)
        #expect(try keychain.delete(tagQuery(limit: .all)) == 1)
        #expect(try keychain.count(ItemQuery(itemClass: .key)) == 0)
    }

    @Test func privateKeyUsageIsForKeyItemsOnly() throws {
        let keychain = try makeKeychain()
        var item = keyItem()
        item.accessControl = AccessControlPolicy(accessibility: .whenUnlockedThisDeviceOnly, flags: .privateKeyUsage)
        try keychain.add(item)
        #expect(try keychain.attributes(tagQuery())[.accessible] == .string("aku"))
        var password = genericPassword()
        password.accessControl = item.accessControl
        #expect(status { try keychain.add(password) } == SecurityStatus.param)
    }

    @Test func aLockedClassKeepsKeysOut() throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        try keychain.setGracePeriod(0)
        try keychain.add(keyItem(accessibility: .whenUnlocked))
        try keychain.add(keyItem(tag: "always", accessibility: .always))
        try keychain.lock()
        #expect(
            status { _ = try keychain.copyMatching(tagQuery(returns: .reference)) }
                == SecurityStatus.interactionNotAllowed)
        #expect(try keychain.copyMatching(tagQuery("always", returns: .reference)).count == 1)
        try keychain.unlock(passcode: testPasscode)
        #expect(try keychain.copyMatching(tagQuery(returns: .reference)).count == 1)
    }

    @Test func thisDeviceOnlyKeysNeverLeaveInABackup() throws {
        let source = try fastKDFKeychain()
        try source.add(keyItem(tag: "migratable", accessibility: .afterFirstUnlock))
        try source.add(keyItem(tag: "device", accessibility: .afterFirstUnlockThisDeviceOnly))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("key-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let password = Secret(bytes("backup password"))
        let summary = try source.backup(to: url, password: password)
        #expect(summary.itemCount == 1 && summary.excludedCount == 1)
        let file = try Data(contentsOf: url)
        #expect(file.range(of: Data(Self.privateBytes.suffix(32))) == nil)
        let target = try fastKDFKeychain()
        _ = try target.restore(from: url, password: password)
        let restored = try target.copyMatching(tagQuery("migratable", returns: .data))
        #expect(
            restored.first.flatMap {
                if case .key(let key)? = $0.value {
                    key.externalRepresentation.bytes
                } else {
                    nil
                }
            } == Self.privateBytes)
        #expect(try target.count(tagQuery("device")) == 0)
    }
}
