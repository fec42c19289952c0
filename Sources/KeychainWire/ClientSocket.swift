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
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw ConnectError(description: "the socket path \(path) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ConnectError(description: "socket: \(Self.errnoText())") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let reason = "connect \(path): \(Self.errnoText())"
            Glibc.close(descriptor)
            throw ConnectError(description: reason)
        }
        self.descriptor = descriptor
    }

    deinit { Glibc.close(descriptor) }

    /// Reads what arrived into `buffer` (the caller's, kept between reads), waiting for at least one byte: how
    /// many came, or 0 when the daemon closed the connection or it broke.
    package func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        (try? SystemCalls.receive(descriptor, into: buffer)) ?? 0
    }

    /// Writes all of `bytes`; false when the daemon is gone.
    package func write(_ bytes: [UInt8]) -> Bool {
        (try? SystemCalls.sendAll(descriptor, bytes)) != nil
    }

    /// Writes all of `bytes`, laid out by the caller; false when the daemon is gone.
    package func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (try? SystemCalls.sendAll(descriptor, bytes)) != nil
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
