import Foundation
import SystemCalls
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The calls keychaind makes through SystemCalls: Unix sockets and their options, peer credentials, pidfds,
/// accounts and file status without following links.
@Suite struct SocketAndProcessCallsTests {
    private func socketPath() -> String { "/tmp/sc-" + UUID().uuidString.prefix(8).lowercased() }

    @Test func aListenerAcceptsAndNamesItsPeerFromTheKernel() throws {
        let path = socketPath()
        let listener = try SystemCalls.listeningUnixSocket(at: path, mode: 0o666, backlog: 4)
        defer {
            SystemCalls.close(listener)
            try? SystemCalls.unlink(path)
        }
        #expect(try SystemCalls.stat(path).mode & 0o777 == 0o666)
        let client = try SystemCalls.connectedUnixSocket(to: path)
        defer { SystemCalls.close(client) }
        let served = try SystemCalls.accept(listener)
        defer { SystemCalls.close(served) }
        #expect(fcntl(served, F_GETFD) & FD_CLOEXEC != 0)
        let peer = try SystemCalls.peerCredentials(of: served)
        #expect(peer.uid == getuid() && peer.gid == getgid() && peer.pid == getpid())
        // The kernel's own pidfd for the peer (Linux 6.5), or one opened by pid: this process, still running.
        let bound = try? SystemCalls.peerProcessDescriptor(of: served)
        let pidfd = try bound ?? SystemCalls.openProcessDescriptor(pid: getpid())
        defer { SystemCalls.close(pidfd) }
        #expect(try SystemCalls.isReadable(pidfd) == false)
    }

    @Test func aReceiveTimeoutFailsWithEAGAIN() throws {
        let path = socketPath()
        let listener = try SystemCalls.listeningUnixSocket(at: path, mode: 0o600, backlog: 1)
        defer {
            SystemCalls.close(listener)
            try? SystemCalls.unlink(path)
        }
        let client = try SystemCalls.connectedUnixSocket(to: path)
        defer { SystemCalls.close(client) }
        try SystemCalls.setTimeouts(client, seconds: 1)
        var byte: UInt8 = 0
        let received = withUnsafeMutableBytes(of: &byte) { raw in
            Result { () throws(SystemCallError) in try SystemCalls.receive(client, into: raw) }
        }
        #expect(throws: SystemCallError(call: "recv", code: EAGAIN)) { try received.get() }
    }

    @Test func socketFailuresNameTheCallTheErrnoAndThePath() throws {
        let missing = socketPath()
        #expect(throws: SystemCallError(call: "connect", code: ENOENT, path: missing)) {
            try SystemCalls.connectedUnixSocket(to: missing)
        }
        let long = "/tmp/" + String(repeating: "x", count: 200)
        #expect(throws: SystemCallError(call: "socket path", code: ENAMETOOLONG, path: long)) {
            try SystemCalls.listeningUnixSocket(at: long, mode: 0o666, backlog: 1)
        }
        #expect(throws: SystemCallError(call: "getsockopt SO_PEERCRED", code: EBADF)) {
            try SystemCalls.peerCredentials(of: -1)
        }
    }

    @Test func aPidfdBecomesReadableWhenItsProcessExits() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["0.3"]
        try child.run()
        let pidfd = try SystemCalls.openProcessDescriptor(pid: child.processIdentifier)
        defer { SystemCalls.close(pidfd) }
        #expect(try SystemCalls.isReadable(pidfd) == false)
        child.waitUntilExit()
        #expect(try SystemCalls.isReadable(pidfd) == true)
        #expect(throws: SystemCallError(call: "pidfd_open", code: ESRCH)) {
            try SystemCalls.openProcessDescriptor(pid: 0x3FFF_FFF0)
        }
    }

    @Test func accountsAndCapabilityNumbersAreChecked() {
        #expect(SystemCalls.account(named: "root")?.uid == 0)
        #expect(SystemCalls.account(named: "no-such-account-\(UUID().uuidString.prefix(6))") == nil)
        #expect(throws: SystemCallError(call: "capset", code: EINVAL)) { try SystemCalls.setCapabilities([64]) }
    }

    @Test func lstatDescribesTheLinkItselfAndStatItsTarget() throws {
        let directory = NSTemporaryDirectory() + "sc-links-\(UUID().uuidString)"
        try SystemCalls.mkdir(directory, mode: 0o700)
        let file = directory + "/file"
        let descriptor = try SystemCalls.open(file, O_WRONLY | O_CREAT, mode: 0o640)
        try SystemCalls.writeAll(descriptor, [1, 2, 3])
        let opened = try SystemCalls.fstat(descriptor)
        SystemCalls.close(descriptor)
        #expect(symlink(file, directory + "/link") == 0)
        let link = try SystemCalls.lstat(directory + "/link")
        #expect(link.mode & UInt32(S_IFMT) == UInt32(S_IFLNK))
        let target = try SystemCalls.stat(directory + "/link")
        #expect(target.mode & UInt32(S_IFMT) == UInt32(S_IFREG) && target.mode & 0o777 == 0o640)
        #expect(target.inode == opened.inode && target.device == opened.device && target.size == 3)
        #expect(target.owner == getuid())
        #expect(target.modificationSeconds > 0)
        #expect(throws: SystemCallError(call: "lstat", code: ENOENT, path: directory + "/none")) {
            try SystemCalls.lstat(directory + "/none")
        }
    }
}
