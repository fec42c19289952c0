#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension SystemCalls {
    /// ``SystemCallError`` by a name that modules with an error type of the same name can still write.
    package typealias CallError = SystemCallError

    /// Receives what has arrived on a connected socket into `buffer`, waiting for at least one byte.
    /// - Returns: the number of bytes received; 0 when the peer closed the connection.
    /// - Throws: ``SystemCallError`` named `recv` (`EAGAIN` when a receive timeout passed).
    /// - Parameter sender: when given, receives the pid of the process that sent the bytes (see ``passCredentials(_:)``).
    package static func receive(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer,
        sender: UnsafeMutablePointer<Int32?>? = nil
    ) throws(SystemCallError) -> Int {
        try receive(descriptor, into: buffer, flags: 0, sender: sender)
    }

    /// Sends every byte of `bytes` on a connected socket, continuing after short sends, without SIGPIPE when the
    /// peer is gone.
    /// - Throws: ``SystemCallError`` named `send` (`EPIPE` when the peer closed, `EAGAIN` when a send timeout
    ///   passed).
    package static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(SystemCallError) {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(SystemCallError) in try sendAll(descriptor, raw) }
        }.get()
    }

    /// ``sendAll(_:_:)-([UInt8])`` for bytes laid out by the caller.
    package static func sendAll(_ descriptor: Int32, _ raw: UnsafeRawBufferPointer) throws(SystemCallError) {
        guard let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
            offset += try retrying("send") {
                Glibc.send(descriptor, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
        }
    }
}
