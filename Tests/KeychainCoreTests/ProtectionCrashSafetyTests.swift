import Foundation
import KeychainTestSupport
import Testing

@testable import KeychainCore

#if canImport(Glibc)
    import Glibc
#endif

/// A process killed with SIGKILL at any point of a passcode change, a lock or unlock, a backup, a restore, an
/// access-control update, an add or an update loses no change it acknowledged and half-does none: after every
/// kill the database passes `PRAGMA integrity_check`, the passcode is the old or the new one, every item holds
/// its last acknowledged secret and access control, every acknowledged backup restores whole, and every
/// restore is all or nothing.
///
/// The unit suite runs a few rounds; `KEYCHAIN_KILL_ROUNDS=300 swift test --skip-build --filter
/// ProtectionCrashSafetyTests` runs hundreds (docs/reliability.md).
@Suite(.serialized) struct ProtectionCrashSafetyTests {
    private static let rounds = ProcessInfo.processInfo.environment["KEYCHAIN_KILL_ROUNDS"].flatMap(Int.init) ?? 6

    @Test func everyAcknowledgedProtectionChangeSurvivesSIGKILL() throws {
        let home = temporaryHome()
        let work = temporaryHome()
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        var model = KilledKeychainModel(passcode: "initial-passcode")
        do {
            let keychain = try fastKDFKeychain(home: home)
            defer { keychain.close() }
            try keychain.setPasscode(Secret(Array(model.passcode.utf8)))
        }
        defer {
            (try? fastKDFKeychain(home: home))?.simulateRestart()  // leaves no class keys in the kernel keyring
            try? FileManager.default.removeItem(at: home)
            try? FileManager.default.removeItem(at: work)
        }
        var killedDuring: [String: Int] = [:]
        for round in 0..<Self.rounds {
            let journal = try runAndKill(home: home, work: work, prefix: "r\(round)", passcode: model.passcode)
            #expect(!journal.acknowledged.isEmpty, "round \(round) acknowledged nothing")
            killedDuring[journal.pending?.first ?? "between changes", default: 0] += 1
            let thorough = round == Self.rounds - 1 || round % 25 == 0
            try verify(home: home, journal: journal, model: &model, round: round, thorough: thorough)
            removeFiles(of: journal)
        }
        // Which operation each kill interrupted, for the record (KEYCHAIN_KILL_ROUNDS runs print it).
        if Self.rounds > 6 {
            print("kill -9 rounds: \(Self.rounds); interrupted: \(killedDuring.sorted { $0.key < $1.key })")
        }
    }

    // MARK: - Running the child

    /// What a kill aims at: a change while it runs, or (nil) any moment.
    private static let aims: [String?] = [
        "add", "update", "acl", "passcode", "lock", "unlock", "backup", "restore", nil,
    ]

    /// Starts `protection-loop`, waits for its first acknowledgement, kills it after a random delay and returns
    /// what it wrote.
    private func runAndKill(home: URL, work: URL, prefix: String, passcode: String) throws -> ChangeJournal {
        let output = work.appendingPathComponent("\(prefix).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = try TestChild.executable()
        process.arguments = ["protection-loop", home.path, protectionTestGroup, prefix, work.path, passcode]
        process.environment = ProcessInfo.processInfo.environment.merging(["KEYCHAIN_TEST_FAST_KDF": "1"]) { $1 }
        process.standardOutput = handle
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while ChangeJournal(file: output).acknowledged.isEmpty && process.isRunning && Date() < deadline {
            usleep(1_000)
        }
        // Most kills aim at one kind of change (fast ones would rarely be hit by chance), the rest at any moment.
        if let aim = Self.aims.randomElement()! {
            // Fast changes may be over before a poll sees them: any start of one is the signal.
            while !begun(aim, in: output) && process.isRunning && Date() < deadline { usleep(100) }
            usleep(UInt32.random(in: 0...3_000))
        } else {
            usleep(UInt32.random(in: 0...400_000))
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the child ended before it was killed")
        return ChangeJournal(file: output)
    }

    /// Whether the child has started a change of kind `aim` yet.
    private func begun(_ aim: String, in output: URL) -> Bool {
        guard let data = try? Data(contentsOf: output) else { return false }
        let text = String(decoding: data, as: UTF8.self)
        return text.contains("begin \(aim) ") || text.contains("begin \(aim)\n")
    }

    // MARK: - Checking after a kill

    private func verify(
        home: URL, journal: ChangeJournal, model: inout KilledKeychainModel, round: Int, thorough: Bool
    ) throws {
        var touched = Set<String>()
        for change in journal.acknowledged {
            model.apply(change)
            if change.count > 1 { touched.insert(change[1]) }
        }
        let pending = journal.pending ?? []
        if pending.count > 1 { touched.insert(pending[1]) }

        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.close() }
        #expect(try keychain.integrityCheck() == "ok", "round \(round)")

        // The lock state is the last acknowledged one (a passcode change leaves the keychain unlocked).
        if kernelKeyringIsAvailable, !["lock", "unlock", "passcode"].contains(pending.first ?? "") {
            let expected: LockState = model.locked ? .locked : .unlocked
            #expect(try keychain.lockState == expected, "round \(round): lock state")
        }

        // The passcode is the acknowledged one, or the one a killed change was setting.
        if status({ try keychain.unlock(passcode: Secret(Array(model.passcode.utf8))) }) != SecurityStatus.success {
            #expect(pending.first == "passcode", "round \(round): the acknowledged passcode \(model.passcode) fails")
            if pending.first == "passcode", pending.count > 1 {
                try keychain.unlock(passcode: Secret(Array(pending[1].utf8)))
                model.passcode = pending[1]
            }
        }
        model.locked = false

        try settlePending(pending, keychain: keychain, model: &model, round: round)
        try verifyItems(keychain: keychain, model: model, touched: touched, thorough: thorough, round: round)
        try verifyBackups(journal: journal, model: model, round: round)
    }

    /// Learns from the keychain which way an interrupted add, update or access-control change went, after
    /// checking it went one of the two ways.
    private func settlePending(
        _ pending: [String], keychain: Keychain, model: inout KilledKeychainModel, round: Int
    ) throws {
        guard pending.count > 1 else { return }
        let account = pending[1]
        switch pending[0] {
        case "add":
            let found = try items(keychain, itemsQuery(account: account, returns: .attributes))
            #expect(found <= 1)
            if found == 1 { model.items[account] = KilledKeychainModel.Item(secret: pending[2]) }
        case "update":
            let secret = readSecret(keychain, account, context: true)
            #expect(secret == pending[2] || secret == model.items[account]?.secret, "round \(round): \(account)")
            if secret == pending[2] { model.items[account]?.secret = pending[2] }
        case "acl":
            let open = readSecret(keychain, account, context: false) != nil
            if !open { model.items[account]?.hasAccessControl = true }
        default:
            break
        }
    }

    private func verifyItems(
        keychain: Keychain, model: KilledKeychainModel, touched: Set<String>, thorough: Bool, round: Int
    ) throws {
        let stored = try items(keychain, itemsQuery(returns: .attributes))
        #expect(stored == model.items.count, "round \(round): \(stored) items stored, \(model.items.count) known")
        for (account, item) in model.items.sorted(by: { $0.key < $1.key }) {
            // An item under an application password opens only with it; its secret costs a PBKDF2 to read, so
            // older ones are read in full every 25 rounds and in the last.
            if item.hasAccessControl {
                #expect(readSecret(keychain, account, context: false) == nil, "round \(round): \(account) is open")
                guard thorough || touched.contains(account) else { continue }
            }
            #expect(readSecret(keychain, account, context: true) == item.secret, "round \(round): \(account)")
        }
    }

    /// Every acknowledged backup restores whole; a killed one left no file or a whole one. Every acknowledged
    /// restore holds all its items; a killed one holds all or none.
    private func verifyBackups(journal: ChangeJournal, model: KilledKeychainModel, round: Int) throws {
        for change in journal.acknowledged where change.first == "backup" && change.count == 3 {
            #expect(restoredCount(from: change[1]) == Int(change[2]), "round \(round): backup \(change[1])")
        }
        for change in journal.acknowledged where change.first == "restore" && change.count == 4 {
            #expect(storedCount(in: change[2]) == Int(change[3]), "round \(round): restore into \(change[2])")
        }
        let pending = journal.pending ?? []
        if pending.first == "backup", pending.count == 2, FileManager.default.fileExists(atPath: pending[1]) {
            #expect(restoredCount(from: pending[1]) != nil, "round \(round): a killed backup left a damaged file")
        }
        if pending.first == "restore", pending.count == 3 {
            let database = URL(fileURLWithPath: pending[2]).appendingPathComponent(Keychain.databaseFileName)
            if FileManager.default.fileExists(atPath: database.path) {
                let count = storedCount(in: pending[2])
                #expect(count == 0 || count == model.backupCounts[pending[1]], "round \(round): half a restore")
            }
        }
    }

    // MARK: - Helpers

    /// Removes the round's backup files and restored homes once checked (hundreds of rounds would pile them up).
    private func removeFiles(of journal: ChangeJournal) {
        for change in journal.acknowledged + [journal.pending ?? []]
        where ["backup", "restore"].contains(change.first ?? "") {
            for path in change.dropFirst().prefix(2) where path.hasPrefix("/") {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    private func itemsQuery(account: String? = nil, returns: ReturnOptions) -> ItemQuery {
        var attributes: [AttributeKey: AttributeValue] = [.service: .string("kill")]
        if let account { attributes[.account] = .string(account) }
        return ItemQuery(itemClass: .genericPassword, attributes: attributes, limit: .all, returns: returns)
    }

    /// How many items match `query` (a search that finds none throws errSecItemNotFound).
    private func items(_ keychain: Keychain, _ query: ItemQuery) throws -> Int {
        do {
            return try keychain.copyMatching(query).count
        } catch let error as KeychainError where error.status == SecurityStatus.itemNotFound {
            return 0
        }
    }

    /// The secret of `account` as text, read with the application password's context or without one.
    private func readSecret(_ keychain: Keychain, _ account: String, context: Bool) -> String? {
        var query = itemsQuery(account: account, returns: .data)
        query.limit = .one
        var authentication: AuthenticationContext?
        if context {
            authentication = AuthenticationContext()
            authentication?.setApplicationPassword(Array("app-pw".utf8))
        }
        guard let secret = try? keychain.copyMatching(query, context: authentication).first?.data else { return nil }
        return String(decoding: secret.bytes, as: UTF8.self)
    }

    /// How many items a restore of `file` brings into an empty keychain, or nil when it fails.
    private func restoredCount(from file: String) -> Int? {
        let home = temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        guard let keychain = try? fastKDFKeychain(home: home) else { return nil }
        defer { keychain.close() }
        let summary = try? keychain.restore(from: URL(fileURLWithPath: file), password: Secret(Array("backup-pw".utf8)))
        return summary?.itemCount
    }

    /// How many "kill" items the keychain at `home` holds, after checking its database.
    private func storedCount(in home: String) -> Int? {
        let keychain: Keychain
        do {
            keychain = try fastKDFKeychain(home: URL(fileURLWithPath: home, isDirectory: true))
        } catch {
            Issue.record("cannot open \(home): \(error)")
            return nil
        }
        defer { keychain.close() }
        #expect((try? keychain.integrityCheck()) == "ok", "\(home)")
        do {
            return try items(keychain, itemsQuery(returns: .attributes))
        } catch {
            Issue.record("cannot search \(home): \(error)")
            return nil
        }
    }
}

/// What the child wrote: the acknowledged changes in order, and the change it had begun when it was killed.
struct ChangeJournal {
    var acknowledged: [[String]] = []
    /// The words of the last `begin` line without its `ack` (nil when the kill fell between changes).
    var pending: [String]?

    init(file: URL) {
        guard let data = try? Data(contentsOf: file) else { return }
        var lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
        lines.removeLast()  // empty after the last newline, or a partial line
        for line in lines {
            let words = line.split(separator: " ").map(String.init)
            guard let kind = words.first else { continue }
            if kind == "begin" { pending = Array(words.dropFirst()) }
            if kind == "ack" {
                acknowledged.append(Array(words.dropFirst()))
                pending = nil
            }
        }
    }
}

/// What the keychain must hold after the acknowledged changes so far.
struct KilledKeychainModel {
    struct Item {
        var secret: String
        var hasAccessControl = false
    }

    var passcode: String
    var locked = false
    var items: [String: Item] = [:]
    /// Items in each acknowledged backup file.
    var backupCounts: [String: Int] = [:]

    mutating func apply(_ change: [String]) {
        switch (change.first, change.count) {
        case ("add", 3): items[change[1]] = Item(secret: change[2])
        case ("update", 3): items[change[1]]?.secret = change[2]
        case ("acl", 2): items[change[1]]?.hasAccessControl = true
        case ("passcode", 2):
            passcode = change[1]
            locked = false
        case ("lock", _): locked = true
        case ("unlock", _): locked = false
        case ("backup", 3): backupCounts[change[1]] = Int(change[2])
        default: break
        }
    }
}
