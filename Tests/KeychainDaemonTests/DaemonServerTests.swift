internal import CryptoKitOpenSSL
import Foundation
import KeychainCore
import KeychainWire
import Testing

@testable import KeychainDaemon

#if canImport(Glibc)
    import Glibc
#endif

/// The built keychaind, started in a temporary directory and talked to over its socket.
@Suite(.serialized) struct DaemonServerTests {
    private var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    }

    private func sha256(ofFile path: String) throws -> [UInt8] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var state = SHA256State()
        data.withUnsafeBytes { state.update($0) }
        return state.finalizedBytes()
    }

    @Test func pingEchoesAndStatusCountsTheClients() throws {
        let daemon = try DaemonProcess()
        let first = try daemon.connect()
        let pong = try first.request(.ping, payload: [1, 2, 3])
        #expect(pong.kind == .pong)
        #expect(pong.payload == [1, 2, 3])
        let second = try daemon.connect()
        _ = try second.request(.ping)
        let answer = try first.request(.status)
        #expect(answer.kind == .statusReply)
        let status = try #require(answer.fieldList.flatMap(DaemonStatus.init(fields:)))
        #expect(status.version == DaemonServer.version)
        #expect(status.protocolVersion == 5)
        #expect(status.clients == 2)
        #expect(status.queueDepth == 0)
        #expect(status.uptimeSeconds >= 0)
    }

    @Test func theDaemonKnowsTheTestProcessFromTheKernel() throws {
        let daemon = try DaemonProcess()
        let fields = try #require(try daemon.connect().request(.identify).fieldList)
        #expect(fields["uid"] == String(getuid()))
        #expect(fields["gid"] == String(getgid()))
        #expect(fields["pid"] == String(getpid()))
        #expect(fields["exe"] == ownExecutable)
        #expect(fields["sha256"] == hexadecimal(try sha256(ofFile: ownExecutable)))
        let group = CallerResolver.privateGroup(uid: getuid(), executablePath: ownExecutable)
        #expect(fields["application-identifier"] == group)
        #expect(fields["access-groups"] == group)
    }

    @Test func aPolicyRuleForThisExecutableAndItsBytesGivesItsGroups() throws {
        let digest = hexadecimal(try sha256(ofFile: ownExecutable))
        let daemon = try DaemonProcess(["--unknown-callers", "refuse"]) { directory in
            PolicyFixtures.write(
                [
                    "Executable": ownExecutable, "SHA256": digest,
                    "Entitlements": PolicyFixtures.entitlements(["TEAM.shared"], application: "TEAM.tests"),
                ],
                named: "tests.plist", in: directory)
        }
        let fields = try #require(try daemon.connect().request(.identify).fieldList)
        #expect(fields["application-identifier"] == "TEAM.tests")
        #expect(fields["access-groups"] == "TEAM.shared TEAM.tests")
    }

    @Test func aPolicyRuleForOtherBytesDoesNotNameThisExecutable() throws {
        let daemon = try DaemonProcess(["--unknown-callers", "refuse"]) { directory in
            PolicyFixtures.write(
                [
                    "Executable": ownExecutable, "SHA256": String(repeating: "0", count: 64),
                    "Entitlements": PolicyFixtures.entitlements(["TEAM.shared"], application: "TEAM.tests"),
                ],
                named: "tests.plist", in: directory)
        }
        let answer = try daemon.connect().request(.ping)
        let reply = try #require(answer.errorReply)
        #expect(reply.status == -34018)
        #expect(reply.reason == "keychaind refuses this process: no policy rule names it")
        #expect(daemon.waitForLog("is refused: no policy rule names it"))
    }

    @Test func aMalformedMessageClosesOnlyItsConnection() throws {
        let daemon = try DaemonProcess()
        let hostile = try daemon.connect()
        let bystander = try daemon.connect()
        _ = try bystander.request(.ping)
        #expect(hostile.send(raw: Array("GET / HTTP/1.1\r\n\r\n".utf8)))
        #expect(throws: DaemonClient.Failure.closed) { try hostile.receive() }
        #expect(daemon.waitForLog("connection closed: the message does not start with the protocol's magic"))
        #expect(try bystander.request(.ping, payload: [7]).payload == [7])
        #expect(try daemon.connect().request(.ping).kind == .pong)
    }

    @Test func anOversizedMessageIsRefusedBeforeItsPayload() throws {
        let daemon = try DaemonProcess(["--max-message", "4096"])
        let client = try daemon.connect()
        #expect(try client.request(.ping, payload: Array(repeating: 1, count: 4096)).payload.count == 4096)
        // Only the header of a 5000-byte message: the daemon closes without waiting for the rest.
        let header = Array(
            Frame(kind: .ping, requestID: 2, payload: Array(repeating: 0, count: 5000)).encoded().prefix(20))
        #expect(client.send(raw: header))
        #expect(throws: DaemonClient.Failure.closed) { try client.receive() }
        #expect(daemon.waitForLog("a 5000-byte payload is over the 4096-byte limit"))
        #expect(!daemon.log.contains("\u{0}"))
    }

    @Test func eachUIDHasAConnectionLimit() throws {
        let daemon = try DaemonProcess(["--max-connections-per-uid", "2"])
        var first: DaemonClient? = try daemon.connect()
        let second = try daemon.connect()
        _ = try first?.request(.ping)
        _ = try second.request(.ping)
        let third = try daemon.connect()
        let reply = try #require(try third.receive().errorReply)
        #expect(reply.status == -25291)
        #expect(reply.reason == "uid \(getuid()) holds its limit of 2 connections")
        #expect(throws: DaemonClient.Failure.closed) { try third.receive() }
        first = nil  // closes it: its place is given back
        _ = first
        let deadline = Date().addingTimeInterval(5)
        var answered = false
        while !answered && Date() < deadline {
            answered = (try? daemon.connect().request(.ping))?.kind == .pong
            if !answered { usleep(20_000) }
        }
        #expect(answered)
    }

    @Test func aSilentConnectionIsClosedAfterTheIdleTime() throws {
        let daemon = try DaemonProcess(["--idle-timeout", "1"])
        let client = try daemon.connect()
        _ = try client.request(.ping)
        #expect(throws: DaemonClient.Failure.closed) { try client.receive() }
        #expect(daemon.waitForLog("connection closed after 1 s without a request"))
    }

    /// A machine's root the daemon cannot look through is said at the start: private groups then follow the
    /// daemon's own view of the files.
    @Test func aHostRootTheDaemonCannotLookThroughIsLogged() throws {
        let daemon = try DaemonProcess(["--host-root", "/nonexistent-root"])
        #expect(daemon.waitForLog("cannot look through /nonexistent-root"))
    }

    @Test func aKindNoHandlerServesIsUnimplemented() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        // A first answer: the daemon serves no request sent before it identified the process.
        #expect(try client.request(.ping).kind == .pong)
        let answer = try client.request(FrameKind(rawValue: 0x0200), payload: [1])
        #expect(answer.errorReply?.status == -4)
    }

    @Test func aClientWhoseEnvironmentLoadsLibrariesIsRefused() throws {
        let daemon = try DaemonProcess()
        let client = Process()
        client.executableURL = URL(fileURLWithPath: try DaemonProcess.executable())
        client.arguments = ["status", "--socket", daemon.socketPath]
        client.environment = ["LD_LIBRARY_PATH": "/nonexistent-keychaind-test"]
        let errors = Pipe()
        client.standardError = errors
        client.standardOutput = FileHandle.nullDevice
        try client.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        client.waitUntilExit()
        #expect(client.terminationStatus == 1)
        #expect(text.contains("its environment sets LD_LIBRARY_PATH, which can load code into it (-34018)"))
        #expect(daemon.waitForLog("is refused: its environment sets LD_LIBRARY_PATH"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate")))
    func socketActivationServesTheSocketSystemdPasses() throws {
        let directory = "/tmp/kd-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let activator = Process()
        activator.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        activator.arguments = [
            "-l", directory + "/activated", try DaemonProcess.executable(), "--foreground", "--state",
            directory + "/state", "--socket", directory + "/unused", "--policy", directory + "/apps.d", "--user",
            DaemonProcess.absentAccount,
        ]
        activator.standardError = FileHandle.nullDevice
        try activator.run()
        defer {
            activator.terminate()
            activator.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(20)
        var answer: Frame?
        while answer == nil && Date() < deadline {
            answer = try? DaemonClient(socketPath: directory + "/activated").request(.ping, payload: [5])
            if answer == nil { usleep(50_000) }
        }
        #expect(answer?.kind == .pong)
        #expect(!FileManager.default.fileExists(atPath: directory + "/unused"))
    }

    private static var rootWithNobody: Bool { getuid() == 0 && getpwnam("nobody") != nil }

    @Test(.enabled(if: rootWithNobody, "needs root and the nobody account"))
    func startedAsRootItBecomesItsUserAndStillIdentifiesOthers() throws {
        let daemon = try DaemonProcess(["--user", "nobody"])
        let nobody = try #require(getpwnam("nobody")).pointee
        let status = try String(contentsOfFile: "/proc/\(daemon.pid)/status", encoding: .utf8)
        let uids = status.split(separator: "\n").first { $0.hasPrefix("Uid:") }?.split(separator: "\t").dropFirst()
        #expect(uids.map(Array.init) == Array(repeating: Substring(String(nobody.pw_uid)), count: 4))
        // Only the two capabilities that reading other users' /proc entries needs.
        let effective = status.split(separator: "\n").first { $0.hasPrefix("CapEff:") }
        #expect(effective == "CapEff:\t0000000000080004")
        var state = stat()
        #expect(stat(daemon.directory + "/state", &state) == 0)
        #expect(state.st_uid == nobody.pw_uid)
        #expect(state.st_mode & 0o777 == 0o700)
        // The test process is root's: the daemon, now nobody, still reads its executable and environment.
        let fields = try #require(try daemon.connect().request(.identify).fieldList)
        #expect(fields["exe"] == ownExecutable)
        #expect(fields["sha256"] == hexadecimal(try sha256(ofFile: ownExecutable)))
        #expect(daemon.log.contains("running as user nobody (uid \(nobody.pw_uid))"))
    }

    @Test(.enabled(if: rootWithNobody && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aClientOfAnotherUIDGetsItsOwnIdentity() throws {
        let daemon = try DaemonProcess()
        let nobody = try #require(getpwnam("nobody")).pointee
        let executable = try DaemonProcess.executable()
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        client.arguments = [
            "--reuid=\(nobody.pw_uid)", "--regid=\(nobody.pw_gid)", "--clear-groups", executable, "status", "--socket",
            daemon.socketPath,
        ]
        client.environment = [:]
        let output = Pipe()
        client.standardOutput = output
        client.standardError = FileHandle.nullDevice
        try client.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        client.waitUntilExit()
        #expect(client.terminationStatus == 0)
        let lines = Set(text.split(separator: "\n").map(String.init))
        let realPath = URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
        let group = CallerResolver.privateGroup(uid: nobody.pw_uid, executablePath: realPath)
        #expect(lines.contains("uid: \(nobody.pw_uid)"))
        #expect(lines.contains("access-groups: \(group)"))
        #expect(group != CallerResolver.privateGroup(uid: 0, executablePath: realPath))
    }
}
