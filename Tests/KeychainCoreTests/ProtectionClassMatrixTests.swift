import Foundation
import KeychainTestSupport
import Testing

@testable import KeychainCore

/// Every protection class × lock state × operation, with the exact status an iOS device returns (issue 4).
///
/// One keychain per lock state holds, for each class, a "keep" item (read, attributes-only query, update) and a
/// "drop" item (delete); each operation's status is compared with the table, and afterwards the keychain is
/// unlocked to check that every refused operation left its item untouched.
@Suite struct ProtectionClassMatrixTests {
    enum State: String, CaseIterable, Sendable {
        case noPasscode, unlocked, locked, beforeFirstUnlock, passcodeRemoved

        /// What `Keychain.lockState` reports in this state.
        var lockState: LockState {
            switch self {
            case .noPasscode, .passcodeRemoved: .noPasscode
            case .unlocked: .unlocked
            case .locked: .locked
            case .beforeFirstUnlock: .beforeFirstUnlock
            }
        }
    }

    enum Operation: String, CaseIterable {
        case add, read, attributes, update, delete
    }

    private static let ok = SecurityStatus.success
    private static let nai = SecurityStatus.interactionNotAllowed  // -25308
    private static let auth = SecurityStatus.authFailed  // -25293
    private static let none = SecurityStatus.itemNotFound  // -25300

    /// Expected status of add, read, attributes-only query, update and delete, in that order. Delete needs no
    /// class key: it removes rows without decrypting them, in every state.
    static let expected: [State: [Accessibility: [Int32]]] = [
        .noPasscode: [
            //                                 add   read  attrs update delete
            .whenUnlocked: [ok, ok, ok, ok, ok],
            .whenUnlockedThisDeviceOnly: [ok, ok, ok, ok, ok],
            .whenPasscodeSetThisDeviceOnly: [auth, none, none, none, none],
            .afterFirstUnlock: [ok, ok, ok, ok, ok],
            .afterFirstUnlockThisDeviceOnly: [ok, ok, ok, ok, ok],
            .always: [ok, ok, ok, ok, ok],
            .alwaysThisDeviceOnly: [ok, ok, ok, ok, ok],
        ],
        .unlocked: [
            .whenUnlocked: [ok, ok, ok, ok, ok],
            .whenUnlockedThisDeviceOnly: [ok, ok, ok, ok, ok],
            .whenPasscodeSetThisDeviceOnly: [ok, ok, ok, ok, ok],
            .afterFirstUnlock: [ok, ok, ok, ok, ok],
            .afterFirstUnlockThisDeviceOnly: [ok, ok, ok, ok, ok],
            .always: [ok, ok, ok, ok, ok],
            .alwaysThisDeviceOnly: [ok, ok, ok, ok, ok],
        ],
        .locked: [
            .whenUnlocked: [nai, nai, nai, nai, ok],
            .whenUnlockedThisDeviceOnly: [nai, nai, nai, nai, ok],
            .whenPasscodeSetThisDeviceOnly: [nai, nai, nai, nai, ok],
            .afterFirstUnlock: [ok, ok, ok, ok, ok],
            .afterFirstUnlockThisDeviceOnly: [ok, ok, ok, ok, ok],
            .always: [ok, ok, ok, ok, ok],
            .alwaysThisDeviceOnly: [ok, ok, ok, ok, ok],
        ],
        .beforeFirstUnlock: [
            .whenUnlocked: [nai, nai, nai, nai, ok],
            .whenUnlockedThisDeviceOnly: [nai, nai, nai, nai, ok],
            .whenPasscodeSetThisDeviceOnly: [nai, nai, nai, nai, ok],
            .afterFirstUnlock: [nai, nai, nai, nai, ok],
            .afterFirstUnlockThisDeviceOnly: [nai, nai, nai, nai, ok],
            .always: [ok, ok, ok, ok, ok],
            .alwaysThisDeviceOnly: [ok, ok, ok, ok, ok],
        ],
        // The akpu class key is destroyed with the passcode and its items purged; nothing else is lost.
        .passcodeRemoved: [
            .whenUnlocked: [ok, ok, ok, ok, ok],
            .whenUnlockedThisDeviceOnly: [ok, ok, ok, ok, ok],
            .whenPasscodeSetThisDeviceOnly: [auth, none, none, none, none],
            .afterFirstUnlock: [ok, ok, ok, ok, ok],
            .afterFirstUnlockThisDeviceOnly: [ok, ok, ok, ok, ok],
            .always: [ok, ok, ok, ok, ok],
            .alwaysThisDeviceOnly: [ok, ok, ok, ok, ok],
        ],
    ]

    @Test(arguments: State.allCases)
    func everyClassAndOperation(in state: State) throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try enter(state, keychain)
        #expect(try keychain.lockState == state.lockState)

        for protection in Accessibility.allCases {
            let row = try #require(Self.expected[state]?[protection])
            let observed = Operation.allCases.map { perform($0, protection, keychain) }
            #expect(observed == row, "\(protection.rawValue) while \(state.rawValue): add, read, attrs, update, delete")
        }

        // Refused operations changed nothing: look with every class available.
        if state == .locked || state == .beforeFirstUnlock { try keychain.unlock(passcode: testPasscode) }
        for protection in Accessibility.allCases {
            let row = try #require(Self.expected[state]?[protection])
            let name = protection.rawValue
            let kept: String? = row[3] == Self.ok ? "updated" : row[1] == Self.none ? nil : "keep-\(name)"
            #expect(keychain.secretText("keep-\(name)") == kept, "keep-\(name) after \(state.rawValue)")
            #expect(try keychain.count(accountQuery("new-\(name)")) == (row[0] == Self.ok ? 1 : 0))
            #expect(try keychain.count(accountQuery("drop-\(name)")) == 0)
        }
    }

    /// Fills a fresh keychain with a "keep" and a "drop" item of every class it accepts, then enters `state`.
    private func enter(_ state: State, _ keychain: Keychain) throws {
        if state != .noPasscode {
            try keychain.setPasscode(testPasscode)
            try keychain.setGracePeriod(0)
        }
        for protection in Accessibility.allCases
        where state != .noPasscode || protection != .whenPasscodeSetThisDeviceOnly {
            try keychain.addToken("keep-\(protection.rawValue)", protection)
            try keychain.addToken("drop-\(protection.rawValue)", protection)
        }
        switch state {
        case .noPasscode, .unlocked: break
        case .locked: try keychain.lock()
        case .beforeFirstUnlock: keychain.simulateRestart()
        case .passcodeRemoved: try keychain.removePasscode(current: testPasscode)
        }
    }

    private func perform(_ operation: Operation, _ protection: Accessibility, _ keychain: Keychain) -> Int32 {
        let name = protection.rawValue
        return switch operation {
        case .add: status { try keychain.addToken("new-\(name)", protection) }
        case .read: keychain.readStatus("keep-\(name)")
        case .attributes: status { _ = try keychain.copyMatching(accountQuery("keep-\(name)", returns: .attributes)) }
        case .update:
            status { try keychain.update(accountQuery("keep-\(name)"), with: ItemChanges(data: Array("updated".utf8))) }
        case .delete: status { try keychain.delete(accountQuery("drop-\(name)")) }
        }
    }

    /// A query whose matches span classes returns what is readable and says what the lock state left out.
    @Test func searchAcrossClassesBeforeFirstUnlockSaysWhatItLeftOut() throws {
        let keychain = try fastKDFKeychain()
        defer { keychain.simulateRestart() }
        try enter(.beforeFirstUnlock, keychain)
        let report = try keychain.search(ItemQuery(itemClass: .genericPassword, limit: .all, returns: .attributes))
        let readable = Set(report.results.compactMap { $0.attributes?[.accessible] })
        #expect(readable == [.string("dk"), .string("dku")])
        #expect(report.results.count == 4)
        #expect(report.leftOut == 10)
        #expect(report.note?.contains("before first unlock") == true)
    }
}
