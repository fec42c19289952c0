import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A listening Unix stream socket: one the daemon binds itself, or one systemd handed over. Either passes
/// credentials (`SO_PASSCRED`), so that every read on a connection it accepts says which process sent the bytes.
package final class UnixListener: @unchecked Sendable {  // safe: the descriptor is immutable; close is idempotent
    package let descriptor: Int32
    /// The path the daemon bound and removes when it stops (nil for a socket systemd owns).
    private let ownedPath: String?

    /// Adopts a socket systemd passed (socket activation).
    package init(adopting descriptor: Int32) throws(SystemCallError) {
        try SystemCalls.passCredentials(descriptor)
        self.descriptor = descriptor
        self.ownedPath = nil
    }

    /// Binds `path` (a stale socket there is replaced), readable and writable by everyone (0666: who may do
    /// what is decided per connection), in a directory created 0755 when missing.
    package init(path: String, backlog: Int32 = 128) throws(SystemCallError) {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty, (try? SystemCalls.stat(directory)) == nil {
            try SystemCalls.mkdir(directory, mode: 0o755)
        }
        let descriptor = try SystemCalls.listeningUnixSocket(at: path, mode: 0o666, backlog: backlog)
        do {
            try SystemCalls.passCredentials(descriptor)
        } catch {
            SystemCalls.close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.ownedPath = path
    }

    /// Waits for the next connection; nil when the listener was shut down.
    package func accept() -> Int32? {
        while true {
            do {
                return try SystemCalls.accept(descriptor)
            } catch {
                switch error.code {
                case ECONNABORTED, EPROTO: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    usleep(50_000)  // out of descriptors: wait for connections to close rather than spin
                    continue
                default: return nil
                }
            }
        }
    }

    /// Stops accepting (a blocked ``accept()`` returns nil) and removes the socket file the daemon made.
    package func shutDown() {
        try? SystemCalls.shutdown(descriptor)
        if let ownedPath { try? SystemCalls.unlink(ownedPath) }
    }
}

/// The client's side: a connection to a Unix stream socket.
package enum UnixConnector {
    /// A socket connected to `path`.
    package static func connect(to path: String) throws(SystemCallError) -> Int32 {
        try SystemCalls.connectedUnixSocket(to: path)
    }
}
