@_implementationOnly import CSystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension SystemCalls {
    /// Has the kernel stamp each process's bytes on `descriptor` with its credentials (`SO_PASSCRED`); sockets
    /// a listener accepts inherit it, so no byte reaches the daemon unstamped.
    package static func passCredentials(_ descriptor: Int32) throws(SystemCallError) {
        try retrying("setsockopt SO_PASSCRED") { ksys_pass_credentials(descriptor) }
    }

    /// How many bytes have arrived on the connected socket `descriptor` and are not yet read (`FIONREAD`): every
    /// byte a peer's `write` returned for before this call.
    package static func queuedBytes(_ descriptor: Int32) throws(SystemCallError) -> Int {
        Int(try retrying("ioctl FIONREAD") { ksys_queued_bytes(descriptor) })
    }

    /// `recv` with `flags`, or, when `sender` is given, `recvmsg` that also stores the pid of the process that
    /// sent the bytes, as the kernel stamped them (nil when they came unstamped).
    static func receive(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, flags: Int32,
        sender: UnsafeMutablePointer<Int32?>?
    ) throws(SystemCallError) -> Int {
        guard let sender else {
            return try retrying("recv") { Glibc.recv(descriptor, buffer.baseAddress, buffer.count, flags) }
        }
        var known: Int32 = 0
        var pid: Int32 = 0
        let count = try retrying("recvmsg") {
            ksys_receive_with_sender(descriptor, buffer.baseAddress, buffer.count, flags, &known, &pid)
        }
        sender.pointee = known != 0 ? pid : nil
        return count
    }
}
