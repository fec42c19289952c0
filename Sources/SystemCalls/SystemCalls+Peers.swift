@_implementationOnly import CSystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Who is at the other end of a Unix socket, and pidfds: descriptors that keep naming one process.
extension SystemCalls {
    /// What the kernel recorded of the peer of the connected Unix socket `descriptor` when it connected
    /// (`SO_PEERCRED`).
    package static func peerCredentials(of descriptor: Int32) throws(SystemCallError)
        -> (uid: UInt32, gid: UInt32, pid: Int32)
    {
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        var pid: Int32 = 0
        try retrying("getsockopt SO_PEERCRED") { ksys_peer_credentials(descriptor, &uid, &gid, &pid) }
        return (uid, gid, pid)
    }

    /// The pidfd the kernel took for the peer of `descriptor` at connect time (`SO_PEERPIDFD`, Linux 6.5), which
    /// can never name a process that reused the pid. - Throws: `ENOPROTOOPT` on older kernels.
    package static func peerProcessDescriptor(of descriptor: Int32) throws(SystemCallError) -> Int32 {
        try retrying("getsockopt SO_PEERPIDFD") { ksys_peer_pidfd(descriptor) }
    }

    /// `pidfd_open(2)`: a descriptor naming the process `pid` is now, close-on-exec.
    package static func openProcessDescriptor(pid: Int32) throws(SystemCallError) -> Int32 {
        try retrying("pidfd_open") { ksys_pidfd_open(pid) }
    }

    /// `pidfd_getfd(2)`: a duplicate, close-on-exec, of descriptor `number` of the process `processDescriptor` (a
    /// pidfd) names. Needs ptrace's attach access to that process.
    /// - Throws: `EPERM` without that access, `EBADF` when it has no such descriptor, `ENOSYS` before Linux 5.6.
    package static func duplicateDescriptor(_ number: Int32, ofProcess processDescriptor: Int32)
        throws(SystemCallError) -> Int32
    {
        try retrying("pidfd_getfd") { ksys_pidfd_getfd(processDescriptor, number) }
    }

    /// The address of the socket `descriptor` (`getsockname(2)`), or of its peer with `peer` (`getpeername(2)`),
    /// as the kernel gives it: the family, then a Unix socket's path or abstract name.
    package static func socketAddress(of descriptor: Int32, peer: Bool = false) throws(SystemCallError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
        defer { buffer.deallocate() }
        let length = try retrying(peer ? "getpeername" : "getsockname") {
            ksys_socket_address(descriptor, peer ? 1 : 0, buffer.baseAddress, UInt32(buffer.count))
        }
        return Array(buffer.prefix(Int(length)))
    }

    /// Whether `descriptor` is readable now, without waiting (`poll` with a zero timeout): for a pidfd, whether
    /// its process has exited.
    package static func isReadable(_ descriptor: Int32) throws(SystemCallError) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return try retrying("poll") { poll(&poller, 1, 0) } > 0
    }
}
