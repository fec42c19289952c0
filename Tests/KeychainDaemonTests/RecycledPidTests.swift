import DaemonSystem
import Foundation
import KeychainWire
import SystemCalls
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A recycled pid: a process connects and exits before the daemon looks at it, and another process is given its
/// pid (forced through `/proc/sys/kernel/ns_last_pid`). The daemon must not take the connection for the new
/// process: its pidfd names the process that connected, which is gone, so the connection is refused.
@Suite(.serialized) struct RecycledPidTests {
    static let lastPid = "/proc/sys/kernel/ns_last_pid"
    static let canForcePids = getuid() == 0 && access(lastPid, W_OK) == 0

    @Test(.enabled(if: canForcePids, "needs root and a writable /proc/sys/kernel/ns_last_pid"))
    func aConnectionWhosePidWasRecycledBeforeTheDaemonLookedIsRefused() throws {
        let daemon = try DaemonProcess()
        // A stopped daemon accepts nothing: the connection waits in the listen queue while its process is
        // replaced, as under load.
        #expect(kill(daemon.pid, SIGSTOP) == 0)
        var resumed = false
        defer { if !resumed { kill(daemon.pid, SIGCONT) } }
        let connection = try Self.connectFromAChildThatExits(to: daemon.socketPath)
        defer { SystemCalls.close(connection.descriptor) }
        guard let impostor = Self.processWithPid(connection.pid) else { return }
        defer { Self.reap(impostor) }
        #expect(kill(daemon.pid, SIGCONT) == 0)
        resumed = true
        // The daemon's answer on the connection: a refusal, never an identity for the impostor.
        try SystemCalls.setTimeouts(connection.descriptor, seconds: 10)
        var decoder = FrameDecoder(payloadLimit: 1 << 16)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var frame: Frame?
        while frame == nil {
            let received = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(SystemCallError) in try SystemCalls.receive(connection.descriptor, into: raw) }
            }
            guard case .success(let count) = received, count > 0 else { break }
            decoder.append(Array(buffer[0..<count]))
            frame = try decoder.next()
        }
        #expect(frame?.errorReply?.status == ErrorReply.missingEntitlement)
        #expect(daemon.waitForLog("pid \(connection.pid) (uid \(getuid())) is refused"))
        #expect(!daemon.log.contains("pid \(connection.pid) (uid \(getuid())) running"))
        // Linux 6.9 and later give a pidfd of the reaped process, which shows it exited; 6.5 to 6.8 none at all.
        let refusal = daemon.log.split(separator: "\n").first { $0.contains("pid \(connection.pid) (uid") }
        #expect(
            refusal?.contains("process \(connection.pid) exited while it was identified") == true
                || refusal?.contains("no pidfd for it") == true, "\(refusal ?? "no log line")")
    }

    /// A process connects, is identified and exits; another is given its pid and sends on the socket (which a
    /// third process passed it, or which it inherited): the sender's pid is the one that connected, but its
    /// pidfd shows that process exited, so the bytes end the connection.
    @Test(.enabled(if: canForcePids, "needs root and a writable /proc/sys/kernel/ns_last_pid"))
    func bytesFromAProcessGivenThePidOfOneThatExitedAreRefused() throws {
        let daemon = try DaemonProcess()
        let identify = Frame(kind: .identify, requestID: 1, payload: []).encoded()
        let connection = try Self.connectFromAChildThatExits(to: daemon.socketPath, sending: identify)
        defer { SystemCalls.close(connection.descriptor) }
        #expect(daemon.waitForLog("pid \(connection.pid) (uid \(getuid())) running"))
        let again = Frame(kind: .identify, requestID: 2, payload: []).encoded()
        guard let impostor = Self.processWithPid(connection.pid, writing: again, to: connection.descriptor) else {
            return
        }
        defer { Self.reap(impostor) }
        try SystemCalls.setTimeouts(connection.descriptor, seconds: 10)
        #expect(try HandedOnSocketTests.nextFrame(on: connection.descriptor) == nil, "the impostor was answered")
        #expect(daemon.waitForLog("after the process that connected with that pid exited"))
    }

    /// A socket connected to `path` by a child process (so `SO_PEERCRED` names the child), which then exits and
    /// is reaped; the socket stays open here. With `request`, the child first sends it and reads the answer.
    private static func connectFromAChildThatExits(
        to path: String, sending request: [UInt8] = []
    ) throws -> (descriptor: Int32, pid: Int32) {
        let descriptor = try SystemCalls.retrying("socket") {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        let address = UnsafeMutablePointer<sockaddr_un>.allocate(capacity: 1)
        defer { address.deallocate() }
        address.initialize(to: sockaddr_un())
        address.pointee.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.pointee.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let generic = UnsafeRawPointer(address).assumingMemoryBound(to: sockaddr.self)
        let size = socklen_t(MemoryLayout<sockaddr_un>.size)
        var answer = [UInt8](repeating: 0, count: 64 * 1024)
        // The child only connects, writes, reads and exits: nothing that is unsafe after fork. The answer is one
        // write of the daemon's, so one read takes it whole.
        let child = request.withUnsafeBytes { bytes in
            answer.withUnsafeMutableBytes { room in
                let child = fork()
                if child == 0 {
                    guard connect(descriptor, generic, size) == 0 else { _exit(1) }
                    if bytes.count > 0 {
                        guard write(descriptor, bytes.baseAddress, bytes.count) == bytes.count,
                            read(descriptor, room.baseAddress, room.count) > 0
                        else { _exit(2) }
                    }
                    _exit(0)
                }
                return child
            }
        }
        var status: Int32 = 0
        waitpid(child, &status, 0)
        guard child > 0, status == 0 else { throw DaemonTestError("the child could not connect") }
        return (descriptor, child)
    }

    /// Kills and reaps a process of the test's.
    private static func reap(_ pid: Int32) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// A new process (it waits to be killed) with `pid`, or nil, recorded as an issue, when another process took
    /// the pid first. With `bytes`, that process first writes them to `descriptor` (no other process does).
    private static func processWithPid(_ pid: Int32, writing bytes: [UInt8] = [], to descriptor: Int32 = -1)
        -> Int32?
    {
        let text = Array(String(pid - 1).utf8)
        for _ in 0..<50 {
            guard let file = try? SystemCalls.open(lastPid, O_WRONLY) else { break }
            let written = (try? SystemCalls.writeAll(file, text)) != nil
            SystemCalls.close(file)
            guard written else { break }
            let child = bytes.withUnsafeBytes { bytes in
                let child = fork()
                if child == 0 {
                    if getpid() == pid && bytes.count > 0 { _ = write(descriptor, bytes.baseAddress, bytes.count) }
                    while true { pause() }
                }
                return child
            }
            if child == pid { return child }
            reap(child)
        }
        Issue.record("pid \(pid) could not be given to a new process (another process took it)")
        return nil
    }
}
