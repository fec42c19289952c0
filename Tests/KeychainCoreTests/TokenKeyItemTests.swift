import Foundation
import KeychainStore
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// Key items of a token (`kSecAttrTokenID`, the Secure Enclave's `com.apple.setoken`): their value is bound to
/// this machine's enclave, so whatever their protection class they never leave in a backup and are never
/// synchronizable; the token ID is stored and matched like any attribute.
@Suite(.serialized) struct TokenKeyItemTests {
    static let token = AttributeValue.string("com.apple.setoken")
    private let password = Secret(Array("correct horse battery staple".utf8))

    private func enclaveKey(
        tag: String = "com.example.se", accessibility: Accessibility = .whenUnlocked, synchronizable: Bool = false
    ) -> NewItem {
        var item = NewItem(
            itemClass: .key,
            attributes: [
                .applicationTag: .data(bytes(tag)), .applicationLabel: .data([7, 7, 7]), .tokenID: Self.token,
            ],
            synchronizable: synchronizable, accessibility: accessibility)
        item.value = .key(
            KeyValue(
                keyType: "73", keyClass: "1", sizeInBits: 256,
                externalRepresentation: Secret(bytes("KSWE an enclave's stored form"))))
        return item
    }

    @Test func aTokenKeyIsFoundByItsTokenIDAndReturnsIt() throws {
        let keychain = try makeKeychain()
        try keychain.add(enclaveKey())
        var plain = enclaveKey(tag: "com.example.software")
        plain.attributes[.tokenID] = nil
        plain.attributes[.applicationLabel] = .data([8, 8, 8])
        try keychain.add(plain)
        let byToken = ItemQuery(itemClass: .key, attributes: [.tokenID: Self.token], limit: .all, returns: .attributes)
        let found = try keychain.copyMatching(byToken)
        #expect(found.count == 1)
        #expect(found.first?.attributes?[.tokenID] == Self.token)
        #expect(found.first?.attributes?[.applicationTag] == .data(bytes("com.example.se")))
        let other = ItemQuery(itemClass: .key, attributes: [.tokenID: .string("com.example.token")])
        #expect(status { _ = try keychain.copyMatching(other) } == SecurityStatus.itemNotFound)
    }

    @Test func aTokenKeyNeverLeavesInABackupWhateverItsClass() throws {
        let keychain = try makeKeychain()
        for (index, protection) in [Accessibility.whenUnlocked, .afterFirstUnlock, .always].enumerated() {
            var item = enclaveKey(tag: "com.example.se.\(index)", accessibility: protection)
            item.attributes[.applicationLabel] = .data([UInt8(index)])
            try keychain.add(item)
        }
        try keychain.add(genericPassword(accessibility: .whenUnlocked))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("token-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let summary = try keychain.backup(to: url, password: password)
        #expect(summary.itemCount == 1)
        #expect(summary.excludedCount == 3)
        // Restored elsewhere: the password only, and the count of what stayed behind.
        let other = try makeKeychain()
        let restored = try other.restore(from: url, password: password)
        #expect(restored.itemCount == 1 && restored.excludedCount == 3)
        #expect(status { _ = try other.copyMatching(ItemQuery(itemClass: .key)) } == SecurityStatus.itemNotFound)
    }

    @Test func aTokenKeyCannotBeSynchronizable() throws {
        let keychain = try makeKeychain()
        #expect(status { try keychain.add(enclaveKey(synchronizable: true)) } == SecurityStatus.param)
        try keychain.add(enclaveKey())
        let query = ItemQuery(
            itemClass: .key, attributes: [.applicationTag: .data(bytes("com.example.se"))], limit: .all)
        #expect(status { try keychain.update(query, with: ItemChanges(synchronizable: true)) } == SecurityStatus.param)
        #expect(try keychain.attributes(query)[.synchronizable] == .bool(false))
        // Its token cannot be changed or removed by an update either.
        let retoken = ItemChanges(attributes: [.tokenID: .string("com.example.token")])
        #expect(status { try keychain.update(query, with: retoken) } == SecurityStatus.param)
        // Other changes go through.
        try keychain.update(query, with: ItemChanges(attributes: [.label: .string("renamed")]))
        #expect(try keychain.attributes(query)[.label] == .string("renamed"))
    }
}
