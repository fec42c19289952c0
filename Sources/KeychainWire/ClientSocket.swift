import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A client's end of a Unix stream socket to keychaind: connect, blocking reads and whole writes, through
/// SystemCalls (no system library, so the statically linked `Security` face can use it).
package final class ClientSocket: @unchecked Sendable {  // safe: the descriptor is immutable; close is idempotent
    private let descriptor: Int32

    /// Why a connection could not be made: the call and the errno's text.
    package struct ConnectError: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// A socket connected to `path`.
    package init(path: String) throws(ConnectError) {
        do {
            descriptor = try SystemCalls.connectedUnixSocket(to: path)
        } catch {
            throw ConnectError(description: error.description)
        }
    }

    deinit { Glibc.close(descriptor) }

    /// Bytes that arrived, up to `limit`, waiting for at least one; nil when the daemon closed the connection or
    /// it broke.
    package func read(upTo limit: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: max(1, limit))
        let received = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemCallError) in try SystemCalls.receive(descriptor, into: raw) }
        }
        guard case .success(let count) = received, count > 0 else { return nil }
        return Array(buffer[0..<count])
    }

    /// Writes all of `bytes`; false when the daemon is gone.
    package func write(_ bytes: [UInt8]) -> Bool {
        (try? SystemCalls.sendAll(descriptor, bytes)) != nil
    }
}
