internal import CDaemonSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A listening Unix stream socket: one the daemon binds itself, or one systemd handed over.
package final class UnixListener: @unchecked Sendable {  // safe: the descriptor is immutable; close is idempotent
    package let descriptor: Int32
    /// The path the daemon bound and removes when it stops (nil for a socket systemd owns).
    private let ownedPath: String?

    /// Adopts a socket systemd passed (socket activation).
    package init(adopting descriptor: Int32) {
        self.descriptor = descriptor
        self.ownedPath = nil
    }

    /// Binds `path` (a stale socket there is replaced), readable and writable by everyone (0666: who may do
    /// what is decided per connection), in a directory created 0755 when missing.
    package init(path: String, backlog: Int32 = 128) throws(SystemCallError) {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty, access(directory, F_OK) != 0, mkdir(directory, 0o755) != 0 {
            throw SystemCallError("mkdir \(directory)")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SystemCallError("socket path \(path)", code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketDescriptor >= 0 else { throw SystemCallError("socket") }
        unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let error = SystemCallError("bind \(path)")
            close(socketDescriptor)
            throw error
        }
        guard chmod(path, 0o666) == 0, listen(socketDescriptor, backlog) == 0 else {
            let error = SystemCallError("listen \(path)")
            close(socketDescriptor)
            unlink(path)
            throw error
        }
        self.descriptor = socketDescriptor
        self.ownedPath = path
    }

    /// Waits for the next connection; nil when the listener was shut down.
    package func accept() -> Int32? {
        while true {
            let connection = kdaemon_accept(descriptor)
            if connection >= 0 { return connection }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                usleep(50_000)  // out of descriptors: wait for connections to close rather than spin
                continue
            default: return nil
            }
        }
    }

    /// Stops accepting (a blocked ``accept()`` returns nil) and removes the socket file the daemon made.
    package func shutDown() {
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        if let ownedPath { unlink(ownedPath) }
    }
}

/// The client's side: a connection to a Unix stream socket.
package enum UnixConnector {
    /// A socket connected to `path`.
    package static func connect(to path: String) throws(SystemCallError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SystemCallError("socket path \(path)", code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SystemCallError("socket") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let error = SystemCallError("connect \(path)")
            close(descriptor)
            throw error
        }
        return descriptor
    }
}
