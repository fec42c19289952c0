import Foundation
import KeychainCore
import KeychainRequests
import KeychainStore
import KeychainTestSupport
import KeychainWire
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// keychaind's writes go through the group committer: many clients' adds share a COMMIT, a failing write fails
/// only its own caller, and an acknowledged add is durable.
@Suite(.serialized) struct GroupCommitTests {
    /// The daemon's `status-reply` fields for this process.
    static func statusFields(_ daemon: DaemonProcess) throws -> [String: String] {
        let client = try DaemonClient(socketPath: daemon.socketPath)
        let answer = try client.request(.status)
        let fields = try FieldList.decode(answer.payload)
        return Dictionary(fields.fields.map { ($0.name, $0.value) }) { $1 }
    }

    /// Runs `body` on `count` threads at once (threads of their own: a dispatch queue would run as many as there
    /// are cores), each with a client of its own (its own connection).
    static func concurrently(
        _ count: Int, socket: String, _ body: @escaping @Sendable (Int, KeychainClient) -> Void
    ) {
        let group = DispatchGroup()
        for index in 0..<count {
            let client = KeychainClient(service: DaemonKeychainService(socketPath: socket))
            group.enter()
            Thread {
                body(index, client)
                group.leave()
            }.start()
        }
        group.wait()
    }

    @Test func aDuplicateInAGroupFailsOnlyItsCaller() throws {
        let daemon = try DaemonProcess()
        let setup = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        try setup.add(DaemonEngineTests.item("taken"))
        let outcomes = Mutex<[Int: [Int32]]>([:])
        Self.concurrently(16, socket: daemon.socketPath) { index, client in
            var statuses: [Int32] = []
            for round in 0..<20 {
                // Every fourth client adds the taken item in every round: its duplicates land in groups with the
                // others' adds.
                let account = index % 4 == 0 ? "taken" : "c\(index)-r\(round)"
                statuses.append(status { try client.add(DaemonEngineTests.item(account)) })
            }
            outcomes.withLock { $0[index] = statuses }
        }
        let results = outcomes.withLock { $0 }
        for (index, statuses) in results {
            #expect(statuses.allSatisfy { $0 == (index % 4 == 0 ? -25299 : 0) }, "client \(index): \(statuses)")
        }
        let all = try setup.copyMatching(
            ItemQuery(itemClass: .genericPassword, limit: .all, returns: [.attributes]))
        #expect(all.count == 12 * 20 + 1)
        let fields = try Self.statusFields(daemon)
        let groups = try #require(fields["groups-committed"].flatMap { Int($0) })
        let writes = try #require(fields["writes-committed"].flatMap { Int($0) })
        #expect(writes == 12 * 20 + 1)
        // Concurrent writers shared commits: fewer COMMITs (and fsyncs) than acknowledged writes.
        #expect(groups < writes)
    }

    @Test func updatesAndDeletesOfConcurrentClientsApplyEachOnItsOwn() throws {
        let daemon = try DaemonProcess()
        let setup = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        for index in 0..<8 { try setup.add(DaemonEngineTests.item("u\(index)")) }
        let outcomes = Mutex<[Int: Int32]>([:])
        Self.concurrently(16, socket: daemon.socketPath) { index, client in
            let query = DaemonEngineTests.query("u\(index % 8)", returns: [], limit: .all)
            let result: Int32
            if index < 8 {
                result = status { try client.update(query, with: ItemChanges(data: Array("new\(index)".utf8))) }
            } else {
                // Deletes of items no one has: not found, for these callers only.
                let nobodys = DaemonEngineTests.query("none\(index)", returns: [], limit: .all)
                result = status { _ = try client.delete(nobodys) }
            }
            outcomes.withLock { $0[index] = result }
        }
        for (index, result) in outcomes.withLock({ $0 }) { #expect(result == (index < 8 ? 0 : -25300)) }
        for index in 0..<8 {
            #expect(
                try setup.copyMatching(DaemonEngineTests.query("u\(index)")).first?.data?.bytes
                    == Array("new\(index)".utf8))
        }
    }

    @Test func everyAcknowledgedAddOfSixteenClientsSurvivesKill9() throws {
        let daemon = try DaemonProcess()
        let directory = daemon.directory
        let socket = daemon.socketPath
        let acknowledged = Mutex<[String]>([])
        let group = DispatchGroup()
        for index in 0..<16 {
            let client = KeychainClient(service: DaemonKeychainService(socketPath: socket))
            group.enter()
            Thread {
                defer { group.leave() }
                for round in 0..<10_000 {
                    let account = "k\(index)-\(round)"
                    guard status({ try client.add(DaemonEngineTests.item(account)) }) == 0 else { return }
                    acknowledged.withLock { $0.append(account) }
                }
            }.start()
        }
        usleep(700_000)
        daemon.kill()
        group.wait()
        #expect(try daemon.integrityOfLeftDatabase() == "ok")
        let again = try DaemonProcess(directory: directory)
        let client = KeychainClient(service: DaemonKeychainService(socketPath: again.socketPath))
        let stored = Set(
            try client.copyMatching(ItemQuery(itemClass: .genericPassword, limit: .all, returns: [.attributes]))
                .compactMap { result -> String? in
                    guard case .string(let account)? = result.attributes?[.account] else { return nil }
                    return account
                })
        let acked = acknowledged.withLock { $0 }
        #expect(!acked.isEmpty)
        #expect(Set(acked).subtracting(stored).isEmpty)
    }
}
