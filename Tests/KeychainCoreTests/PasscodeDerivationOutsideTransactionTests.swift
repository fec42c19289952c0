import Foundation
import Synchronization
import Testing

@testable import KeychainCore

/// A passcode set, change or removal derives its keys from the passcodes (PBKDF2 tuned to the derivation target,
/// 80 ms by default and up to a minute) before it takes the write lock: another caller's write does not wait for
/// them. Under keychaind's group commit it would otherwise hold back every client's writes.
@Suite(.serialized) struct PasscodeDerivationOutsideTransactionTests {
    enum Change: String, CaseIterable, CustomTestStringConvertible {
        case set, change, removal
        var testDescription: String { rawValue }
    }

    /// The derivation target: long enough that a write started during it finishes well before it ends.
    private static let slowDerivation = 1.0

    @Test(arguments: Change.allCases)
    func anotherWriteDoesNotWaitForTheDerivations(_ change: Change) throws {
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

        let writeTook = Mutex<Duration?>(nil)
        let writeError = Mutex<(any Error)?>(nil)
        let writer = Thread {
            Thread.sleep(forTimeInterval: 0.1)
            let writeStart = ContinuousClock.now
            do {
                try keychain.add(item("during"))
            } catch {
                writeError.withLock { $0 = error }
            }
            writeTook.withLock { $0 = .now - writeStart }
        }
        let start = ContinuousClock.now
        writer.start()
        switch change {
        case .set: try keychain.setPasscode(testPasscode)
        case .change: try keychain.setPasscode(Secret(Array("5678".utf8)), current: testPasscode)
        case .removal: try keychain.removePasscode(current: testPasscode)
        }
        let changeFinished = ContinuousClock.now
        while writeTook.withLock({ $0 }) == nil { Thread.sleep(forTimeInterval: 0.01) }

        let changeTook = changeFinished - start
        try #require(changeTook > .milliseconds(400), "the derivation was not slow enough to tell")
        #expect(writeError.withLock { $0 } == nil)
        // Without the derivations in its way an add takes milliseconds; behind them, most of the change's time.
        let took = try #require(writeTook.withLock { $0 })
        #expect(took * 4 < changeTook, "the write waited for the passcode derivations")
        #expect(keychain.secretText("during") == "during")
        #expect(keychain.secretText("before") == "before")
    }

    /// Another caller's unlock or devicePasscode check derives before it takes the keybag's lock, which a change
    /// takes inside its write section: a write does not wait for their derivations either. Three changes, while
    /// another thread checks the passcode without a pause and a third adds an item every 20 ms.
    @Test func aWriteDoesNotWaitForAnotherCallersPasscodeCheckThroughAChange() throws {
        let home = temporaryHome()
        try fastKDFKeychain(home: home).setPasscode(testPasscode)
        let keychain = try fastKDFKeychain(home: home) { $0.passcodeDerivationTarget = Self.slowDerivation }
        defer { keychain.simulateRestart() }
        let second = Secret(Array("5678".utf8))
        try keychain.setPasscode(second, current: testPasscode)  // checks now take the slow derivation

        let stop = Atomic<Bool>(false)
        let checker = Thread {
            // The other passcode after a wrong one: one wrong attempt per change, too few to be held back.
            var guesses = [second, testPasscode]
            while !stop.load(ordering: .relaxed) {
                do {
                    try keychain.dataProtection.verifyPasscode(guesses[0].storage)
                } catch {
                    guesses.swapAt(0, 1)
                }
            }
        }
        let worstWrite = Mutex<Duration>(.zero)
        let writer = Thread {
            var count = 0
            while !stop.load(ordering: .relaxed) {
                let start = ContinuousClock.now
                try? keychain.add(item("w\(count)"))
                let took = ContinuousClock.now - start
                worstWrite.withLock { $0 = max($0, took) }
                count += 1
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        checker.start()
        writer.start()
        defer {
            stop.store(true, ordering: .relaxed)
            while !checker.isFinished || !writer.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        }
        var passcodes = [second, testPasscode]
        for _ in 0..<3 {
            try keychain.setPasscode(passcodes[1], current: passcodes[0])
            passcodes.swapAt(0, 1)
        }
        // Behind a check's derivation a write waits for what is left of it: up to the whole second.
        #expect(worstWrite.withLock { $0 } < .seconds(Self.slowDerivation * 0.3))
    }

    private func item(_ account: String) -> NewItem {
        NewItem(
            itemClass: .genericPassword, attributes: [.account: .string(account)], accessibility: .afterFirstUnlock,
            data: Array(account.utf8))
    }
}
