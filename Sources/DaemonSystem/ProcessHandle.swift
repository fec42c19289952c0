internal import CDaemonSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A pidfd: names one process for as long as it is held, even after its pid is given to another process.
/// Reading `/proc/<pid>` and then checking ``hasExited`` tells whether what was read was about this process.
package final class ProcessHandle: @unchecked Sendable {  // safe: the descriptor is immutable and closed once
    package let pid: Int32
    private let descriptor: Int32
    /// Whether the kernel bound the handle to the socket's peer at connect time (`SO_PEERPIDFD`), so that it
    /// cannot name a process that reused the pid before the daemon looked.
    package let isBoundAtConnect: Bool

    private init(pid: Int32, descriptor: Int32, isBoundAtConnect: Bool) {
        self.pid = pid
        self.descriptor = descriptor
        self.isBoundAtConnect = isBoundAtConnect
    }

    deinit { close(descriptor) }

    /// The peer of the connected socket `socket`, whose `SO_PEERCRED` pid is `pid`: the kernel's own pidfd for
    /// the peer when it offers one, else `pidfd_open(pid)` taken at once.
    package static func peer(of socket: Int32, pid: Int32) throws(SystemCallError) -> ProcessHandle {
        let bound = kdaemon_peer_pidfd(socket)
        if bound >= 0 { return ProcessHandle(pid: pid, descriptor: bound, isBoundAtConnect: true) }
        let opened = kdaemon_pidfd_open(pid)
        guard opened >= 0 else { throw SystemCallError("pidfd_open(\(pid))") }
        return ProcessHandle(pid: pid, descriptor: opened, isBoundAtConnect: false)
    }

    /// Whether the process has exited (its pidfd is readable); after that its pid may name another process.
    package var hasExited: Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, 0)
        return ready != 0  // an error counts as exited: the answer must not be trusted
    }
}
