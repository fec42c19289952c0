import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A client's end of a Unix stream socket to keychaind: connect, blocking reads and whole writes, through
/// SystemCalls (no system library, so the statically linked `Security` face can use it).
package final class ClientSocket: @unchecked Sendable {  // safe: the descriptor is immutable; close is idempotent
    private let descriptor: Int32
    /// The process that connected: keychaind ends a connection on which any other process sends.
    private let connectingProcess = getpid()

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

    /// The uid of the process that made the listening socket (`SO_PEERCRED`), or nil when the kernel does not say.
    package var serverUID: UInt32? { try? SystemCalls.peerCredentials(of: descriptor).uid }

    /// Whether this process made the connection: false in a child that inherited it across `fork`, which must
    /// connect for itself (closing its copy leaves the parent's connection alone).
    package var belongsToThisProcess: Bool { getpid() == connectingProcess }

    /// Reads what arrived into `buffer` (the caller's, kept between reads), waiting for at least one byte: how
    /// many came, or 0 when the daemon closed the connection or it broke. The wait polls first, as `spin` allows.
    package func receive(into buffer: UnsafeMutableRawBufferPointer, spinning spin: inout AdaptiveSpin) -> Int {
        (try? SystemCalls.receive(descriptor, into: buffer, spinning: &spin)) ?? 0
    }

    /// Writes all of `bytes`; false when the daemon is gone.
    package func write(_ bytes: [UInt8]) -> Bool {
        (try? SystemCalls.sendAll(descriptor, bytes)) != nil
    }

    /// Writes all of `bytes`, laid out by the caller; false when the daemon is gone.
    package func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (try? SystemCalls.sendAll(descriptor, bytes)) != nil
    }
}
