import SystemCalls

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

    deinit { SystemCalls.close(descriptor) }

    /// The peer of the connected socket `socket`, whose `SO_PEERCRED` pid is `pid`: the kernel's own pidfd for
    /// the peer, else, on a kernel without `SO_PEERPIDFD` (before Linux 6.5), `pidfd_open(pid)` taken at once.
    /// - Throws: when the kernel has the option but gives no pidfd: the process that connected has exited and been
    ///   reaped (Linux 6.5 to 6.8 answer `EINVAL`), so `pid` may already name another process.
    package static func peer(of socket: Int32, pid: Int32) throws(SystemCallError) -> ProcessHandle {
        do {
            let bound = try SystemCalls.peerProcessDescriptor(of: socket)
            return ProcessHandle(pid: pid, descriptor: bound, isBoundAtConnect: true)
        } catch let error where error.code == ENOPROTOOPT {
            return try opened(pid: pid)
        }
    }

    /// `pidfd_open(pid)`: the process that has `pid` now (tests use it to name a process of their own).
    package static func opened(pid: Int32) throws(SystemCallError) -> ProcessHandle {
        ProcessHandle(pid: pid, descriptor: try SystemCalls.openProcessDescriptor(pid: pid), isBoundAtConnect: false)
    }

    /// A duplicate, close-on-exec, of the process's descriptor `number` (`pidfd_getfd(2)`), for the caller to close.
    /// - Throws: `EPERM` without ptrace's attach access to the process, `EBADF` when it has no such descriptor
    ///   (any more), `ESRCH` once it has exited, `ENOSYS` before Linux 5.6.
    package func duplicate(descriptor number: Int32) throws(SystemCallError) -> Int32 {
        try SystemCalls.duplicateDescriptor(number, ofProcess: descriptor)
    }

    /// Whether the process has exited (its pidfd is readable); after that its pid may name another process.
    package var hasExited: Bool {
        // An error counts as exited: the answer must not be trusted.
        (try? SystemCalls.isReadable(descriptor)) ?? true
    }
}
