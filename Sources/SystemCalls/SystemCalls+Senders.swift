@_implementationOnly import CSystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The process that sent bytes on a Unix socket, as the kernel stamped them (`SCM_CREDENTIALS`).
package struct MessageSender: Equatable, Sendable {
    package let pid: Int32
    package let uid: UInt32
    package let gid: UInt32

    package init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

extension SystemCalls {
    /// Has the kernel stamp each process's bytes on `descriptor` with its credentials (`SO_PASSCRED`); sockets
    /// a listener accepts inherit it, so no byte reaches the daemon unstamped.
    package static func passCredentials(_ descriptor: Int32) throws(SystemCallError) {
        try retrying("setsockopt SO_PASSCRED") { ksys_pass_credentials(descriptor) }
    }

    /// `recv` with `flags`, or, when `sender` is given, `recvmsg` that also stores who sent the bytes (nil when
    /// they came unstamped).
    static func receive(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, flags: Int32,
        sender: UnsafeMutablePointer<MessageSender?>?
    ) throws(SystemCallError) -> Int {
        guard let sender else {
            return try retrying("recv") { Glibc.recv(descriptor, buffer.baseAddress, buffer.count, flags) }
        }
        var known: Int32 = 0
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        let count = try retrying("recvmsg") {
            ksys_receive_with_sender(descriptor, buffer.baseAddress, buffer.count, flags, &known, &pid, &uid, &gid)
        }
        sender.pointee = known != 0 ? MessageSender(pid: pid, uid: uid, gid: gid) : nil
        return count
    }
}
