import Foundation
import Testing

@testable import KeychainCore

#if canImport(Glibc)
    import Glibc
#endif

/// A process killed with SIGKILL in the middle of adds loses nothing whose add had returned success, and
/// leaves a sound database.
@Suite(.serialized) struct CrashSafetyTests {
    private static let group = "TEAM1.crash"

    /// Lines the child has written to `file` so far (a final partial line is ignored).
    private func confirmedAccounts(in file: URL) -> [String] {
        guard let data = try? Data(contentsOf: file) else { return [] }
        var lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
        lines.removeLast()  // empty after the last newline, or a partial line
        return lines
    }

    /// Runs the child until it has confirmed at least one add (unless `early`), then kills it after a random
    /// delay.
    private func runAndKill(home: URL, prefix: String, output: URL, early: Bool = false) throws -> [String] {
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = try TestChild.launch(["add-loop", home.path, Self.group, prefix], stdout: handle)
        let deadline = Date().addingTimeInterval(10)
        while !early && confirmedAccounts(in: output).isEmpty && process.isRunning && Date() < deadline {
            usleep(1_000)
        }
        usleep(UInt32.random(in: 0...(early ? 30_000 : 120_000)))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the child ended before it was killed")
        return confirmedAccounts(in: output)
    }

    @Test func everyConfirmedAddSurvivesSIGKILL() throws {
        let home = temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var confirmed: [String] = []
        let rounds = 12
        for round in 0..<rounds {
            let output = home.appendingPathComponent("child-\(round).out")
            let accounts = try runAndKill(home: home, prefix: "round\(round)", output: output)
            #expect(!accounts.isEmpty, "round \(round) confirmed nothing")
            confirmed += accounts

            let keychain = try makeKeychain(groups: [Self.group], home: home)
            defer { keychain.close() }
            #expect(try keychain.integrityCheck() == "ok")
            for account in accounts {
                let query = genericQuery([.service: .string("crash"), .account: .string(account)])
                let secret = try? keychain.secret(query)
                #expect(secret == "secret:\(account)", "round \(round): \(account) lost or damaged")
            }
            // Every stored item opens: nothing half written, at most one unconfirmed add per kill.
            let all = try keychain.copyMatching(
                genericQuery(
                    [.service: .string("crash")], limit: .all,
                    returns: [.data, .attributes]))
            #expect(all.count >= confirmed.count && all.count <= confirmed.count + round + 1)
            for item in all {
                guard case .string(let account) = item.attributes?[.account] else {
                    Issue.record("an item without a text account")
                    continue
                }
                #expect(item.data?.bytes == bytes("secret:\(account)"))
            }
        }
        #expect(confirmed.count >= rounds)
    }

    @Test func killDuringFirstOpenLeavesAUsableHome() throws {
        for round in 0..<8 {
            let home = temporaryHome()
            defer { try? FileManager.default.removeItem(at: home) }
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            let output = home.appendingPathComponent("child.out")
            let accounts = try runAndKill(home: home, prefix: "early", output: output, early: true)
            let keychain = try makeKeychain(groups: [Self.group], home: home)
            defer { keychain.close() }
            #expect(try keychain.integrityCheck() == "ok", "round \(round)")
            for account in accounts {
                let query = genericQuery([.service: .string("crash"), .account: .string(account)])
                #expect(try keychain.secret(query) == "secret:\(account)", "round \(round)")
            }
            try keychain.add(genericPassword(service: "after-crash"))
            #expect(try keychain.count(genericQuery([.service: .string("after-crash")])) == 1)
        }
    }
}
