import DaemonSystem
import Foundation
import KeychainCore
import KeychainDaemon
import KeychainRequests
import KeychainStore
import KeychainTestSupport
import KeychainWire
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `keychaind` started by a test, as a child process, in a temporary directory of its own (state, socket,
/// policy and log), and stopped when the test is done.
final class DaemonProcess {
    let directory: String
    let socketPath: String
    let policyDirectory: String
    private let process: Process
    private let logPath: String
    /// The PAM service the daemon authenticates its owner with: a stack that takes ``ownerPassword``.
    private let pam: PAMServiceFixture

    /// The password that gives a client owner rights (`claim-owner`), unless a test gives the daemon its own PAM
    /// service.
    static let ownerPassword = "owner password of the tests"

    /// The built `keychaind`: `KEYCHAIN_DAEMON` if set, else beside the test bundle (SwiftPM puts executables and
    /// the test bundle in one build directory).
    static func executable() throws -> String {
        if let explicit = ProcessInfo.processInfo.environment["KEYCHAIN_DAEMON"] { return explicit }
        var directory = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
        ).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("keychaind").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw DaemonTestError("keychaind not found beside the tests; build with --build-tests or set KEYCHAIN_DAEMON")
    }

    /// The account the daemon is told to become when started as root: one no machine has, so that it stays the
    /// test's user (root in CI) even where a `keychaind` account exists. A test's own `--user` comes later and wins.
    static let absentAccount = "keychaind-tests-none"

    /// Starts the daemon with `arguments` added to its directories, and waits until it answers.
    /// - Parameter policy: writes the policy files before the start (the directory is passed to it).
    /// - Parameter directory: the directory of an earlier daemon (stopped with its state kept), to restart it.
    /// - Parameter launcher: a program and its arguments that `exec`s the daemon, given after them.
    init(
        _ arguments: [String] = [], environment: [String: String] = [:], directory reused: String? = nil,
        launcher: [String] = [], policy: (String) -> Void = { _ in }
    ) throws {
        // Short: a socket path must fit in 108 bytes.
        directory = reused ?? "/tmp/kd-" + UUID().uuidString.prefix(8).lowercased()
        socketPath = directory + "/run/socket"
        policyDirectory = directory + "/apps.d"
        logPath = directory + "/log"
        try FileManager.default.createDirectory(atPath: policyDirectory, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        chmod(policyDirectory, 0o755)
        policy(policyDirectory)
        if !FileManager.default.fileExists(atPath: logPath) {
            FileManager.default.createFile(atPath: logPath, contents: nil)
        }
        pam = try PAMServiceFixture(password: Self.ownerPassword)
        process = Process()
        let daemon = try Self.executable()
        let helper = URL(fileURLWithPath: daemon).deletingLastPathComponent()
            .appendingPathComponent("keychain-authenticate").path
        process.executableURL = URL(fileURLWithPath: launcher.first ?? daemon)
        process.arguments =
            (launcher.isEmpty ? [] : launcher.dropFirst() + [daemon])
            + [
                "--foreground", "--state", directory + "/state", "--socket", socketPath, "--policy", policyDirectory,
                "--policy-owner", String(getuid()), "--user", Self.absentAccount,
                "--pam-service", PAMServiceFixture.service, "--pam-directory", pam.directory.path,
                "--authenticate-helper", helper,
            ] + arguments
        let notify = try NotifySocket(path: directory + "/notify")
        var inherited = ProcessInfo.processInfo.environment
        inherited["LD_PRELOAD"] = nil
        inherited["NOTIFY_SOCKET"] = notify.path
        process.environment = inherited.merging(environment) { $1 }
        let logHandle = FileHandle(forWritingAtPath: logPath)
        logHandle?.seekToEndOfFile()
        process.standardError = logHandle
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Ready when it says so through sd_notify, as systemd learns it (Type=notify).
        let deadline = Date().addingTimeInterval(20)
        var ready = false
        while !ready {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw DaemonTestError("keychaind did not say READY=1: \(log)")
            }
            ready = notify.receive()?.split(separator: "\n").contains("READY=1") == true
        }
    }

    deinit {
        pam.remove()
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if removesDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// The daemon's process id.
    var pid: Int32 { process.processIdentifier }

    /// Stops the daemon (SIGTERM) and removes its directory, unless `keepingState` (to start it again there).
    func stop(keepingState: Bool = false) {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        removesDirectory = !keepingState
        if removesDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Kills the daemon with SIGKILL, as a crash would: it cleans nothing up. Its directory stays.
    func kill() {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        removesDirectory = false
    }

    private var removesDirectory = true

    /// `PRAGMA integrity_check` of the uid's database as a killed daemon left it, run on a copy of its files (the
    /// database and its WAL): the daemon holds its databases alone while it runs, and the next daemon must
    /// recover the original itself.
    func integrityOfLeftDatabase(uid: UInt32 = getuid()) throws -> String {
        let state = directory + "/state/\(uid)/keychain.db"
        let copy = NSTemporaryDirectory() + "kd-integrity-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: state + suffix) {
            try FileManager.default.copyItem(atPath: state + suffix, toPath: copy + "/keychain.db" + suffix)
        }
        let database = try Database(path: copy + "/keychain.db", busyTimeout: 5000)
        defer { database.close() }
        return try database.integrityCheck()
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Waits (up to 5 s) for the log to contain `text`.
    func waitForLog(_ text: String) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if log.contains(text) { return true }
            usleep(20_000)
        }
        return false
    }

    func connect() throws -> DaemonClient { try DaemonClient(socketPath: socketPath) }

    /// A client with owner rights, which alone may change the keychain's protection (its passcode, grace period,
    /// the simulated sensors): it answers the daemon's PAM question with `password`.
    func ownerClient(password: String = DaemonProcess.ownerPassword) throws -> KeychainClient {
        let service = DaemonKeychainService(socketPath: socketPath, systemPrompter: ScriptedRelay([password]))
        let grant = try service.claimOwnerRights(message: "a test acts for the owner")
        guard grant.isGranted else { throw DaemonTestError("owner rights not granted: \(grant.reason)") }
        return KeychainClient(service: service)
    }
}

struct DaemonTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Frame {
    /// The error reply this frame carries, or nil.
    var errorReply: ErrorReply? { kind == .error ? try? ErrorReply.decode(payload) : nil }
    var fieldList: FieldList? { try? FieldList.decode(payload) }
}
