import Foundation
import KeychainStore
import Synchronization
import Testing

@testable import KeychainCore

/// A passcode set, change or removal derives its keys from the passcodes (PBKDF2 tuned to the derivation target,
/// 80 ms by default and up to a minute) before it takes the write lock, and an unlock or passcode check before it
/// takes the keybag's lock: another caller's write does not wait for them. Under keychaind's group commit it would
/// otherwise hold back every client's writes.
@Suite(.serialized) struct PasscodeDerivationOutsideTransactionTests {
    enum Change: String, CaseIterable, CustomTestStringConvertible {
        case set, change, removal
        var testDescription: String { rawValue }
    }

    /// The derivation target: long enough that a lock held through a derivation cannot pass for a brief one.
    private static let slowDerivation = 1.0

    /// The database's write lock is held for the change's reseal and keybag save, not for its derivations: watched
    /// while the change runs, it is never held for half the change's time (before, it was held nearly all of it).
    @Test(arguments: Change.allCases)
    func theWriteLockIsNotHeldWhileThePasscodesAreDerived(_ change: Change) throws {
        let home = temporaryHome()
        // The passcode already set is derived fast; the one this test sets or checks is slow.
        if change != .set { try fastKDFKeychain(home: home).setPasscode(testPasscode) }
        let keychain = try fastKDFKeychain(home: home) { $0.passcodeDerivationTarget = Self.slowDerivation }
        defer { keychain.simulateRestart() }
        try keychain.add(item("before"))
        if change == .change || change == .removal {
            // Re-set with the slow target, so that checking the current passcode is slow too.
            try keychain.setPasscode(testPasscode, current: testPasscode)
        }

        let finished = Atomic<Bool>(false)
        let longest = Mutex<Duration>(.zero)
        let database = home.appendingPathComponent(Keychain.databaseFileName).path
        let watcher = Thread {
            let held = (try? Self.longestWriteLock(of: database) { finished.load(ordering: .relaxed) }) ?? .seconds(999)
            longest.withLock { $0 = held }
        }
        watcher.start()
        let start = ContinuousClock.now
        switch change {
        case .set: try keychain.setPasscode(testPasscode)
        case .change: try keychain.setPasscode(Secret(Array("5678".utf8)), current: testPasscode)
        case .removal: try keychain.removePasscode(current: testPasscode)
        }
        let changeTook = ContinuousClock.now - start
        finished.store(true, ordering: .relaxed)
        while !watcher.isFinished { Thread.sleep(forTimeInterval: 0.01) }

        try #require(changeTook > .milliseconds(400), "the derivation was not slow enough to tell")
        #expect(longest.withLock { $0 } * 2 < changeTook, "the write lock was held through the derivations")
        #expect(keychain.secretText("before") == "before")
    }

    /// The longest time, sampled every 5 ms until `done`, that another connection held `path`'s write lock.
    private static func longestWriteLock(of path: String, until done: () -> Bool) throws -> Duration {
        let probe = try Database(path: path, busyTimeout: 0)
        defer { probe.close() }
        var longest = Duration.zero
        var heldSince: ContinuousClock.Instant?
        while !done() {
            do {
                try probe.execute("BEGIN IMMEDIATE")
                try probe.execute("ROLLBACK")
                if let since = heldSince { longest = max(longest, .now - since) }
                heldSince = nil
            } catch {
                if heldSince == nil { heldSince = .now }
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        if let since = heldSince { longest = max(longest, .now - since) }
        return longest
    }

    /// An unlock or a devicePasscode check derives before it takes the keybag's lock, which a passcode change takes
    /// inside its write section: otherwise every writer would wait, behind the change, for another caller's
    /// derivation. Checked by watching the lock while another thread checks the passcode without a pause: it is
    /// never held for anything near a derivation.
    @Test(arguments: [false, true])
    func theKeybagLockIsNotHeldWhileAPasscodeIsDerived(unlocking: Bool) throws {
        let home = temporaryHome()
        try fastKDFKeychain(home: home).setPasscode(testPasscode)
        let keychain = try fastKDFKeychain(home: home) { $0.passcodeDerivationTarget = Self.slowDerivation }
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode, current: testPasscode)  // checks now take the slow derivation

        let stop = Atomic<Bool>(false)
        let checks = Atomic<Int>(0)
        let checker = Thread {
            while !stop.load(ordering: .relaxed) {
                if unlocking {
                    try? keychain.unlock(passcode: testPasscode)
                } else {
                    try? keychain.dataProtection.verifyPasscode(testPasscode.storage)
                }
                checks.add(1, ordering: .relaxed)
            }
        }
        checker.start()
        defer {
            stop.store(true, ordering: .relaxed)
            while !checker.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        }
        let longest = try longestHold(of: home.appendingPathComponent("keybag.lock")) {
            checks.load(ordering: .relaxed) >= 2
        }
        // Holding the lock through a derivation keeps it for the whole derivation target or more.
        #expect(longest < .seconds(Self.slowDerivation / 2))
    }

    /// The longest time, sampled every 5 ms until `done`, that another holder kept the flock on `lockFile` (back to
    /// back holds with too short a gap between them to sample count as one).
    private func longestHold(of lockFile: URL, until done: () -> Bool) throws -> Duration {
        let descriptor = open(lockFile.path, O_RDWR)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var longest = Duration.zero
        var heldSince: ContinuousClock.Instant?
        while !done() {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                flock(descriptor, LOCK_UN)
                if let since = heldSince { longest = max(longest, .now - since) }
                heldSince = nil
            } else if heldSince == nil {
                heldSince = .now
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        if let since = heldSince { longest = max(longest, .now - since) }
        return longest
    }

    private func item(_ account: String) -> NewItem {
        NewItem(
            itemClass: .genericPassword, attributes: [.account: .string(account)], accessibility: .afterFirstUnlock,
            data: Array(account.utf8))
    }
}
