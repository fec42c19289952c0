import DaemonSystem
import Foundation
import KeychainCore
import KeychainRequests
import KeychainWire
import SystemCalls
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `exec` keeps the pid, so a process can write a request, then `exec` an allowed app and be identified as that
/// app while its request waits to be read; a process it forked holds the socket too and reads the answer. The
/// daemon serves no request that was sent before it had identified the process.
@Suite(.serialized) struct RequestBeforeExecTests {
    @Test func aRequestWrittenBeforeTheProcessExecsAnAllowedAppIsRefused() throws {
        let apps = try AppIsolationTests.Apps()
        #expect(try apps.run(apps.appA, "add", "alpha", "secret-a")["status"] == "0")
        let query = ItemQuery(
            itemClass: .genericPassword, attributes: [.service: .string("shared"), .account: .string("alpha")],
            returns: [.data])
        let request = Frame(
            kind: .request, requestID: 1, payload: try RequestCodec.encode(.search(query), context: nil)
        ).encoded()
        // Not close-on-exec: the program the child becomes holds the connection, and so does this process.
        let descriptor = try SystemCalls.retrying("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0) }
        defer { SystemCalls.close(descriptor) }
        // A stopped daemon identifies the child only after its exec.
        let daemonPid = apps.daemon.pid
        #expect(kill(daemonPid, SIGSTOP) == 0)
        var resumed = false
        defer { if !resumed { kill(daemonPid, SIGCONT) } }
        let child = try Self.spawnWriting(request, on: descriptor, to: apps.daemon.socketPath, thenExec: apps.appA)
        defer {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
        func program() -> String? { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child)/exe") }
        let deadline = Date().addingTimeInterval(10)
        while program() != apps.appA && Date() < deadline { usleep(5_000) }
        #expect(program() == apps.appA, "the child did not exec app A")
        #expect(kill(daemonPid, SIGCONT) == 0)
        resumed = true
        try SystemCalls.setTimeouts(descriptor, seconds: 10)
        let answer = try HandedOnSocketTests.nextFrame(on: descriptor)
        #expect(answer?.kind == .error, "the request was served: \(answer?.kind.description ?? "closed")")
        // App A holds the connection in a descriptor that survived the exec (no close-on-exec): it is refused as
        // soon as it is identified, before its early request is even looked at.
        #expect(answer?.errorReply?.status == ErrorReply.missingEntitlement)
        #expect(apps.daemon.waitForLog("without close-on-exec"), "\(apps.daemon.log)")
        #expect(try HandedOnSocketTests.nextFrame(on: descriptor) == nil, "the connection goes on")
        #expect(!apps.daemon.log.contains("pid \(child) (uid \(getuid())) running \(apps.appA) is TEAM.a.app"))
    }

    /// Even a frame of the daemon's own kind (a ping) that began before identification ended, and ends after it,
    /// ends the connection: its payload would take in what the process wrote after an `exec`, and line up what
    /// follows as a request.
    @Test func anEarlyPingWhosePayloadRunsPastIdentificationEndsTheConnection() throws {
        let daemon = try DaemonProcess()
        let ping = Frame(kind: .ping, requestID: 1, payload: Array(repeating: 7, count: 100)).encoded()
        #expect(kill(daemon.pid, SIGSTOP) == 0)
        var resumed = false
        defer { if !resumed { kill(daemon.pid, SIGCONT) } }
        let descriptor = try UnixConnector.connect(to: daemon.socketPath)
        defer { SystemCalls.close(descriptor) }
        try SystemCalls.sendAll(descriptor, Array(ping.prefix(60)))
        #expect(kill(daemon.pid, SIGCONT) == 0)
        resumed = true
        #expect(daemon.waitForLog("pid \(getpid()) (uid \(getuid())) running"))
        try SystemCalls.sendAll(descriptor, Array(ping.dropFirst(60)))
        try SystemCalls.setTimeouts(descriptor, seconds: 10)
        let answer = try HandedOnSocketTests.nextFrame(on: descriptor)
        #expect(answer?.kind == .error, "answered with \(answer?.kind.description ?? "nothing")")
        #expect(try HandedOnSocketTests.nextFrame(on: descriptor) == nil, "the connection goes on")
        #expect(daemon.waitForLog("connection closed: a ping was written before the process was identified"))
    }

    /// A child that connects `descriptor` to `path`, writes `bytes`, and execs `program` (`wait 30`): between fork
    /// and exec only calls that are safe there.
    private static func spawnWriting(
        _ bytes: [UInt8], on descriptor: Int32, to path: String, thenExec program: String
    ) throws -> pid_t {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let arguments: [UnsafeMutablePointer<CChar>?] =
            ([program, "wait", "30"] as [String]).map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        let child = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bytes.withUnsafeBytes { raw in
                    let child = fork()
                    if child == 0 {
                        guard connect(descriptor, generic, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0,
                            write(descriptor, raw.baseAddress, raw.count) == raw.count
                        else { _exit(1) }
                        execv(program, arguments)
                        _exit(2)
                    }
                    return child
                }
            }
        }
        guard child > 0 else { throw DaemonTestError("fork failed") }
        return child
    }
}
