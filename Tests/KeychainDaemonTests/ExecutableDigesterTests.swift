import Foundation
import Synchronization
import Testing

@testable import KeychainDaemon

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon reads an executable's bytes for its SHA-256: never more than a bound, since a file padded with a
/// sparse tail costs its maker nothing and the daemon seconds of processor time per connection.
@Suite(.serialized) struct ExecutableDigesterTests {
    /// A sparse file of `size` bytes in a fresh directory (removed by the caller through the returned directory).
    private func sparseFile(size: Int64) throws -> (directory: String, path: String) {
        let directory = "/tmp/kd-digest-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        let path = directory + "/padded"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o755)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(ftruncate(descriptor, off_t(size)) == 0)
        return (directory, path)
    }

    @Test func aFileOverTheBoundIsNotReadAndKeepsItsIdentity() throws {
        let file = try sparseFile(size: ExecutableDigester.largestExecutable + 1)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let padded = try #require(try ExecutableDigester().digest(ofExecutableAt: file.path, uid: getuid()))
        #expect(padded.sha256 == nil)
        var status = stat()
        try #require(stat(file.path, &status) == 0)
        #expect(padded.file == FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)))
        let small = file.directory + "/small"
        FileManager.default.createFile(atPath: small, contents: Data("abc".utf8))
        #expect(
            try ExecutableDigester().digest(ofExecutableAt: small, uid: getuid())?.sha256.map(hexadecimal)
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// A program padded past the bound (a sparse tail) is not hashed, and still has its private group: its path
    /// and file identity are enough for that.
    @Test func aProgramOverTheBoundHasItsPrivateGroup() throws {
        let apps = try AppIsolationTests.Apps()
        let program = apps.directory + "/padded-app"
        try AppIsolationTests.Apps.install(try Data(contentsOf: URL(fileURLWithPath: apps.appA)), at: program)
        try #require(truncate(program, off_t(ExecutableDigester.largestExecutable + 1)) == 0)
        let added = try apps.run(program, "add", "large", "x")
        #expect(added["status"] == "0", "\(added)")
        #expect(try apps.run(program, "get", "large")["data"] == "x")
        #expect(try apps.run(apps.appA, "get", "large")["status"] == "-25300")
    }

    /// Without its bytes read, a file still has its path and identity: what a process running it would get, a
    /// private group here (no hash rule can name it).
    @Test func explainingAFileOverTheBoundSaysSoWithoutReadingIt() throws {
        let file = try sparseFile(size: 4 * ExecutableDigester.largestExecutable)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let apps = try AppIsolationTests.Apps()
        let shown = try apps.run(apps.appA, "explain", file.path)
        #expect(shown["sha256"]?.contains("more than keychaind reads") == true, "\(shown)")
        #expect(shown["decision"] == "allowed" && shown["basis"] == "private group", "\(shown)")
    }

    /// A sparse file of the largest size read (a second or so of reading), last changed over a second ago: a
    /// digest of a file changed within the last second is neither remembered nor shared.
    private func settledLargestFile() throws -> (directory: String, path: String) {
        let file = try sparseFile(size: ExecutableDigester.largestExecutable)
        usleep(1_100_000)
        return file
    }

    private typealias Outcome = Result<ExecutableDigester.Digest?, ExecutableDigester.Unavailable>

    /// A digest asked for on a thread of its own: its outcome once it is there.
    private final class Pending: Sendable {
        private let outcome = Mutex<Outcome?>(nil)

        init(_ digester: ExecutableDigester, _ path: String, uid: UInt32 = getuid()) {
            Thread { [self] in
                let result = Result { () throws(ExecutableDigester.Unavailable) in
                    try digester.digest(ofExecutableAt: path, uid: uid)
                }
                outcome.withLock { $0 = result }
            }.start()
        }

        var value: Outcome? { outcome.withLock { $0 } }
    }

    @Test func callersOfOneFileAtOnceWaitForOneReading() throws {
        let file = try settledLargestFile()
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let digester = ExecutableDigester(turns: HashTurns(slots: 2))
        let outcomes = (0..<4).map { _ in Pending(digester, file.path) }
        #expect(HashTurnsTests.waitUntil(seconds: 120) { outcomes.allSatisfy { $0.value != nil } })
        let digests = outcomes.map { try? $0.value?.get()?.sha256 }
        #expect(digests.allSatisfy { $0 != nil && $0 == digests[0] })
        #expect(digester.readingsStarted == 1)
        #expect(digester.readingsJoined >= 1)
        // Remembered: another uid's caller does not read it again either.
        #expect(try digester.digest(ofExecutableAt: file.path, uid: getuid() + 1)?.sha256 == digests[0])
        #expect(digester.readingsStarted == 1)
    }

    @Test func aFileChangedWhileItIsReadHasNoDigestAndIsReadAgainNextTime() throws {
        let file = try settledLargestFile()
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let digester = ExecutableDigester(turns: HashTurns(slots: 2))
        let outcome = Pending(digester, file.path)
        // The reading has its turn, so the status it compares with was taken: a change of mode changes the
        // change time.
        try #require(HashTurnsTests.waitUntil { digester.turns.counts.running == 1 })
        try #require(chmod(file.path, 0o700) == 0)
        #expect(HashTurnsTests.waitUntil(seconds: 120) { outcome.value != nil })
        #expect(outcome.value == .failure(.changedWhileRead))
        #expect(try digester.digest(ofExecutableAt: file.path, uid: getuid())?.sha256 != nil)
        #expect(digester.readingsStarted == 2)
    }

    @Test func aFileChangedInTheLastSecondIsReadEachTime() throws {
        let file = try sparseFile(size: 3)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let digester = ExecutableDigester()
        for _ in 0..<2 { _ = try digester.digest(ofExecutableAt: file.path, uid: getuid()) }
        #expect(digester.readingsStarted == 2)
        usleep(1_100_000)
        for _ in 0..<2 { _ = try digester.digest(ofExecutableAt: file.path, uid: getuid()) }
        #expect(digester.readingsStarted == 3)
    }

    /// A number field of the daemon's status.
    private func statusNumber(_ daemon: DaemonProcess, _ name: String) throws -> Int {
        let fields = try GroupCommitTests.statusFields(daemon)
        return try #require(fields[name].flatMap { Int($0) }, "\(fields)")
    }

    /// Four processes of one program of 1 GiB (a sparse tail) connect at once: the daemon reads it once, the
    /// others wait for that reading (or find it remembered), and all are served.
    @Test func connectionsOfOneLargeProgramAtOnceReadItOnce() throws {
        let apps = try AppIsolationTests.Apps()
        let program = apps.directory + "/large-app"
        try AppIsolationTests.Apps.install(try Data(contentsOf: URL(fileURLWithPath: apps.appA)), at: program)
        try #require(truncate(program, off_t(ExecutableDigester.largestExecutable)) == 0)
        usleep(1_100_000)
        // The test's own program is read by this first status, before.
        let read = try statusNumber(apps.daemon, "executables-read")
        let joined = try statusNumber(apps.daemon, "executable-readings-joined")
        let clients = try (0..<4).map { _ in
            try startClient(program, ["get", "large"], socket: apps.daemon.socketPath)
        }
        let statuses = clients.map { $0.fields["status"] }
        #expect(statuses.allSatisfy { $0 == "-25300" }, "\(statuses)")
        #expect(try statusNumber(apps.daemon, "executables-read") == read + 1)
        #expect(try statusNumber(apps.daemon, "executable-readings-joined") >= joined + 1)
    }

    /// With two slots, one uid reads one file at a time: while root's three large programs wait for that turn in
    /// line, a program of another uid is identified and served at once.
    @Test(.enabled(if: getuid() == 0, "needs root: it drops to a system user with setpriv"))
    func anotherUsersCallerIsServedWhileOneUsersReadingsWait() throws {
        let user = try OtherUidTests.testUser()
        let directory = "/tmp/kd-turns-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let client = try Data(contentsOf: URL(fileURLWithPath: try AppIsolationTests.Apps.clientExecutable()))
        let large = try (0..<3).map { index in
            let path = directory + "/large-\(index)"
            try AppIsolationTests.Apps.install(client + Data("large \(index)".utf8), at: path)
            try #require(truncate(path, off_t(ExecutableDigester.largestExecutable)) == 0)
            return path
        }
        let small = directory + "/small"
        try AppIsolationTests.Apps.install(client + Data("small".utf8), at: small)
        let daemon = try DaemonProcess(["--hash-slots", "2"])
        let fields = try GroupCommitTests.statusFields(daemon)
        #expect(fields["executable-read-slots"] == "2 (1 per uid)", "\(fields)")
        let clients = try large.map { try startClient($0, ["get", "x"], socket: daemon.socketPath) }
        let lined = HashTurnsTests.waitUntil(seconds: 60) {
            let fields = try? GroupCommitTests.statusFields(daemon)
            return fields?["executables-reading"] == "1" && fields?["executables-waiting"] == "2"
        }
        #expect(lined, "\((try? GroupCommitTests.statusFields(daemon)) ?? [:])")
        let other = try OtherUidTests.runAs(user, small, "get", "x", socket: daemon.socketPath)
        #expect(other["status"] == "-25300", "\(other)")
        // Root's readings were still waiting in line when the other uid's program had been served.
        let waiting = try statusNumber(daemon, "executables-waiting")
        #expect(waiting >= 1)
        for client in clients { #expect(client.fields["status"] == "-25300") }
    }

    /// A caller that waits its connection's idle limit (1 s here) for a turn is refused with errSecNotAvailable and
    /// the reason, while the files before it are still being read; the daemon goes on. Four programs of one uid,
    /// one turn for it: the last in line waits for three readings of 1 GiB, longer than a second on any machine.
    @Test func aCallerWithNoTurnWithinItsPatienceIsNotAvailable() throws {
        let apps = try AppIsolationTests.Apps()
        apps.daemon.stop()
        apps.daemon = try DaemonProcess(["--hash-slots", "2", "--idle-timeout", "1"])
        let client = try Data(contentsOf: URL(fileURLWithPath: apps.appA))
        let large = try (0..<4).map { index in
            let path = apps.directory + "/large-\(index)"
            try AppIsolationTests.Apps.install(client + Data("large \(index)".utf8), at: path)
            try #require(truncate(path, off_t(ExecutableDigester.largestExecutable)) == 0)
            return path
        }
        _ = try GroupCommitTests.statusFields(apps.daemon)
        let first = try startClient(large[0], ["get", "x"], socket: apps.daemon.socketPath)
        #expect(HashTurnsTests.waitUntil { (try? statusNumber(apps.daemon, "executables-reading")) == 1 })
        let rest = try large.dropFirst().map { try startClient($0, ["get", "x"], socket: apps.daemon.socketPath) }
        let statuses = rest.map { $0.fields["status"] }
        #expect(statuses.contains("-25291"), "\(statuses)")
        #expect(statuses.allSatisfy { $0 == "-25291" || $0 == "-25300" }, "\(statuses)")
        #expect(apps.daemon.waitForLog("had no turn for this one in 1 s"), "\(apps.daemon.log)")
        #expect(first.fields["status"] == "-25300")
    }
}
