@_implementationOnly import CSystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Which socket is the other end of a Unix connection: the kernel's socket diagnostics (`sock_diag(7)`).
extension SystemCalls {
    /// The inode of the socket at the other end of the connected Unix socket whose inode is `inode`; nil when it
    /// has none (the other end is closed).
    /// - Throws: ``SystemCallError`` named `sock_diag`: `ENOENT` when no socket of that inode is in this process's
    ///   network namespace (a socket belongs to the namespace of the process that made it, or connected it).
    package static func unixPeerInode(ofSocketInode inode: UInt64) throws(SystemCallError) -> UInt64? {
        guard let narrow = UInt32(exactly: inode) else { throw SystemCallError(call: "sock_diag", code: EINVAL) }
        let peer = try retrying("sock_diag") { ksys_unix_peer_inode(narrow) }
        return peer == 0 ? nil : UInt64(peer)
    }
}
