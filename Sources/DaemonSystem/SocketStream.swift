#if canImport(Glibc)
    import Glibc
#endif

/// Blocking reads and writes on one connected socket, owned by this value's creator and closed by ``close()``.
package struct SocketStream: Sendable {
    package let descriptor: Int32

    package init(descriptor: Int32) { self.descriptor = descriptor }

    /// Gives up a read after `seconds` without data (SO_RCVTIMEO), and a write after the same time blocked.
    package func setTimeout(seconds: Int) {
        var interval = timeval(tv_sec: seconds, tv_usec: 0)
        let size = socklen_t(MemoryLayout<timeval>.size)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, size)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, size)
    }

    /// The outcome of one read.
    package enum ReadResult: Equatable, Sendable {
        case bytes([UInt8])
        case endOfStream
        case timedOut
        case failed(Int32)
    }

    /// Reads what is there, up to `limit` bytes, waiting for at least one.
    package func read(upTo limit: Int) -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: max(1, limit))
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .bytes(Array(buffer[0..<count])) }
            if count == 0 { return .endOfStream }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .timedOut
            default: return .failed(errno)
            }
        }
    }

    /// Writes all of `bytes`; false when the peer is gone or the write timed out.
    package func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.send(descriptor, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    package func close() { _ = Glibc.close(descriptor) }
}
