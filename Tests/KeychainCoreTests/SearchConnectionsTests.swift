import Foundation
import Testing

@testable import KeychainCore

/// With group commit (keychaind) searches run on connections of their own, side by side: each still sees every
/// write acknowledged before it started, and a closed keychain answers errSecNotAvailable on all of them.
@Suite struct SearchConnectionsTests {
    private func groupCommitKeychain(home: URL) throws -> Keychain {
        try fastKDFKeychain(home: home) { configuration in
            configuration.classKeysInProcessMemory = true
            configuration.soleWriterOfHome = true
            configuration.groupCommit = true
        }
    }

    @Test func concurrentSearchesSeeEveryAcknowledgedWriteOfTheirOwnThread() throws {
        let keychain = try groupCommitKeychain(home: temporaryHome())
        defer { keychain.close() }
        let threads = 8
        let perThread = 40
        let wrong = SleepingCounter()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                let account = "t\(thread)-\(index)"
                do {
                    try keychain.addToken(account, .whenUnlocked)
                } catch {
                    wrong.add()
                    continue
                }
                // Read back at once, on whichever search connection is free.
                if keychain.secretText(account) != account { wrong.add() }
                if index > 0, keychain.secretText("t\(thread)-\(index - 1)") != "t\(thread)-\(index - 1)" {
                    wrong.add()
                }
            }
        }
        #expect(wrong.value == 0)
        let all = try keychain.copyMatching(ItemQuery(itemClass: .genericPassword, limit: .all, returns: .attributes))
        #expect(all.count == threads * perThread)
    }

    @Test func aClosedKeychainRefusesSearchesOnEveryConnection() throws {
        let keychain = try groupCommitKeychain(home: temporaryHome())
        try keychain.addToken("kept", .whenUnlocked)
        keychain.close()
        for _ in 0..<8 {
            #expect(keychain.readStatus("kept") == SecurityStatus.notAvailable)
        }
    }
}

/// A count several threads add to.
private final class SleepingCounter: @unchecked Sendable {  // safe: `count` is only touched under `lock`
    private let lock = NSLock()
    private var count = 0

    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
