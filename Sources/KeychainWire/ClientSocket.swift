#if canImport(Glibc)
    import Glibc
#endif

/// A client's end of a Unix stream socket to keychaind: connect, blocking reads and whole writes. Its own small
/// copy of the calls so that the `Security` face, which links statically, needs no system library for it.
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

    /// Bytes that arrived, up to `limit`, waiting for at least one; nil when the daemon closed the connection or
    /// it broke.
    package func read(upTo limit: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: max(1, limit))
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { return Array(buffer[0..<count]) }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }

    /// Writes all of `bytes`; false when the daemon is gone.
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

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
