import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// keychaind under load: sixteen client processes at once, each a `Security` client of its own, doing lookups,
/// adds, updates and deletes of their own items; every answer is the one the client's own history predicts and
/// none is a busy database. `scripts/daemon-load.sh` runs the same clients with more calls and prints figures.
@Suite(.serialized) struct DaemonLoadTests {
    static let clients = 16
    static let callsPerClient = 1_000

    @Test func sixteenClientProcessesGetEveryAnswerRightUnderMixedLoad() throws {
        let daemon = try DaemonProcess()
        let program = try AppIsolationTests.Apps.clientExecutable()
        let started = try (0..<Self.clients).map { client in
            try startClient(program, ["load", "c\(client)", String(Self.callsPerClient)], socket: daemon.socketPath)
        }
        let outputs = started.map { $0.finish() }
        for (client, output) in outputs.enumerated() {
            let fields = Self.fields(output)
            #expect(fields["ops"] == String(Self.callsPerClient), "client \(client): \(output.suffix(400))")
            // `wrong=` lines name each unexpected answer; the last `wrong=` is the count.
            #expect(fields["wrong"] == "0", "client \(client): \(output.prefix(1_000))")
            #expect(fields["busy"] == "0", "client \(client) was answered errSecNotAvailable")
        }
        #expect(!daemon.log.contains("database is locked"))
        // The writes went through the group committer, and some shared a commit.
        let status = try GroupCommitTests.statusFields(daemon)
        let groups = try #require(status["groups-committed"].flatMap { Int($0) })
        let writes = try #require(status["writes-committed"].flatMap { Int($0) })
        #expect(writes > Self.clients * Self.callsPerClient / 10)
        #expect(groups < writes)
    }

    static func fields(_ output: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return fields
    }
}
