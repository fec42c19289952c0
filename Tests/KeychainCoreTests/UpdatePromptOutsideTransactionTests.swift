import Foundation
import KeychainCrypto
import KeychainStore
import Synchronization
import Testing

@testable import KeychainCore

/// A prompter that notes, for each prompt, whether the keychain's database was write-locked while it asked, and
/// on its first passcode prompt adds an item that matches the update under way and needs biometry.
private final class LockNotingPrompter: UserPrompter {
    let databasePath: String
    let asked = Mutex<[(prompt: String, whileWriteLocked: Bool)]>([])
    let onFirstPasscode = Mutex<(@Sendable () throws -> Void)?>(nil)

    init(databasePath: String) { self.databasePath = databasePath }

    func ask(_ prompt: UserPrompt) throws -> PromptAnswer {
        asked.withLock { $0.append((prompt.name, Self.isWriteLocked(databasePath))) }
        switch prompt {
        case .devicePasscode:
            let first = onFirstPasscode.withLock { first in
                defer { first = nil }
                return first
            }
            try first?()
            return .passcode(SecureBytesBox(Array("1234".utf8)))
        case .biometry, .companion:
            return .confirmed
        }
    }

    /// Whether another connection is refused the write lock at once.
    private static func isWriteLocked(_ path: String) -> Bool {
        guard let probe = try? Database(path: path, busyTimeout: 0) else { return true }
        defer { probe.close() }
        do {
            try probe.execute("BEGIN IMMEDIATE")
            try probe.execute("ROLLBACK")
            return false
        } catch {
            return true
        }
    }
}

extension UserPrompt {
    fileprivate var name: String {
        switch self {
        case .biometry: "biometry"
        case .companion: "companion"
        case .devicePasscode: "passcode"
        }
    }
}

@Suite struct UpdatePromptOutsideTransactionTests {
    /// An update defers its prompts, asks them with nothing locked, and runs again. When the run after the
    /// prompts finds an item that needs another (added meanwhile), that prompt is deferred too: no prompt is
    /// ever asked while the update holds the database's write lock, and the update reaches both items.
    @Test func aPromptNeededAgainAfterTheFirstRoundIsStillAskedOutsideTheTransaction() throws {
        let home = temporaryHome()
        let prompter = LockNotingPrompter(databasePath: home.appendingPathComponent(Keychain.databaseFileName).path)
        let keychain = try fastKDFKeychain(home: home) { $0.userPrompter = prompter }
        defer { keychain.close() }
        try keychain.setPasscode(testPasscode)
        try keychain.authenticators.biometry.enroll()
        @Sendable func constrained(_ account: String, _ flags: AccessControlFlags) -> NewItem {
            NewItem(
                itemClass: .genericPassword, attributes: [.service: .string("s"), .account: .string(account)],
                accessControl: AccessControlPolicy(accessibility: .whenUnlocked, flags: flags),
                data: Array("\(account)-secret".utf8))
        }
        try keychain.add(constrained("a", .devicePasscode))
        prompter.onFirstPasscode.withLock { $0 = { try keychain.add(constrained("b", .biometryAny)) } }

        var changes = ItemChanges(data: Array("new".utf8))
        changes.attributes[.label] = .string("changed")
        try keychain.update(
            ItemQuery(itemClass: .genericPassword, attributes: [.service: .string("s")], limit: .all), with: changes)

        let prompts = prompter.asked.withLock { $0 }
        #expect(prompts.map(\.prompt) == ["passcode", "biometry"])
        #expect(prompts.allSatisfy { !$0.whileWriteLocked })
        let labels = try keychain.search(
            ItemQuery(itemClass: .genericPassword, limit: .all, returns: .attributes)
        ).results.compactMap { $0.attributes?[.label] }
        #expect(labels == [.string("changed"), .string("changed")])
    }
}
