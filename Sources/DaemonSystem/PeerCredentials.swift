internal import CDaemonSystem

#if canImport(Glibc)
    import Glibc
#endif

/// What the kernel recorded about the process at the other end of a Unix socket when it connected
/// (`SO_PEERCRED`): not what the client says about itself.
package struct PeerCredentials: Sendable, Hashable {
    package let uid: UInt32
    package let gid: UInt32
    package let pid: Int32

    package init(uid: UInt32, gid: UInt32, pid: Int32) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
    }

    /// The credentials of the peer of the connected socket `descriptor`.
    package static func of(socket descriptor: Int32) throws(SystemCallError) -> PeerCredentials {
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        var pid: Int32 = 0
        guard kdaemon_peer_credentials(descriptor, &uid, &gid, &pid) == 0 else {
            throw SystemCallError("getsockopt SO_PEERCRED")
        }
        return PeerCredentials(uid: uid, gid: gid, pid: pid)
    }
}
