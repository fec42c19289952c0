import SystemCalls

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
        let peer = try SystemCalls.peerCredentials(of: descriptor)
        return PeerCredentials(uid: peer.uid, gid: peer.gid, pid: peer.pid)
    }
}
