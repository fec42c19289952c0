import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Blocking reads and writes on one connected socket, owned by this value's creator and closed by ``close()``.
package struct SocketStream: Sendable {
    package let descriptor: Int32

    package init(descriptor: Int32) { self.descriptor = descriptor }

    /// Gives up a read after `seconds` without data (SO_RCVTIMEO), and a write after the same time blocked.
    package func setTimeout(seconds: Int) {
        try? SystemCalls.setTimeouts(descriptor, seconds: seconds)
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
        let received = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemCalls.CallError) in try SystemCalls.receive(descriptor, into: raw) }
        }
        switch received {
        case .success(let count):
            return count > 0 ? .bytes(Array(buffer[0..<count])) : .endOfStream
        case .failure(let error):
            return error.code == EAGAIN || error.code == EWOULDBLOCK ? .timedOut : .failed(error.code)
        }
    }

    /// Writes all of `bytes`; false when the peer is gone or the write timed out.
    package func write(_ bytes: [UInt8]) -> Bool {
        (try? SystemCalls.sendAll(descriptor, bytes)) != nil
    }

    package func close() { SystemCalls.close(descriptor) }
}
