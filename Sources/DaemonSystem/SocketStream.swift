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

    /// The outcome of one ``receive(into:)``.
    package enum Received: Equatable, Sendable {
        case count(Int)
        case endOfStream
        case timedOut
        case failed(Int32)
    }

    /// Reads what is there into `buffer` (the caller's, kept between reads), waiting for at least one byte; the
    /// wait polls first, as `spin` allows, unless `mayPoll` is false.
    /// `sender`, when given, receives the pid of the process that sent the bytes, as the kernel stamped them (nil: unstamped).
    package func receive(
        into buffer: UnsafeMutableRawBufferPointer, spinning spin: inout AdaptiveSpin, mayPoll: Bool = true,
        sender: UnsafeMutablePointer<Int32?>? = nil
    ) -> Received {
        do {
            let count = try SystemCalls.receive(
                descriptor, into: buffer, spinning: &spin, mayPoll: mayPoll, sender: sender)
            return count > 0 ? .count(count) : .endOfStream
        } catch {
            return error.code == EAGAIN || error.code == EWOULDBLOCK ? .timedOut : .failed(error.code)
        }
    }

    /// Writes all of `bytes`; false when the peer is gone or the write timed out.
    package func write(_ bytes: [UInt8]) -> Bool {
        (try? SystemCalls.sendAll(descriptor, bytes)) != nil
    }

    /// Writes all of `bytes`, laid out by the caller; false when the peer is gone or the write timed out.
    package func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (try? SystemCalls.sendAll(descriptor, bytes)) != nil
    }

    package func close() { SystemCalls.close(descriptor) }
}
