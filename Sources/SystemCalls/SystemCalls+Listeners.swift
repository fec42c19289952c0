@_implementationOnly import CSystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Unix stream sockets: listening, accepting, connecting, and their options.
extension SystemCalls {
    /// A Unix stream socket bound to `path` and listening, with `mode` on the socket file; a file already at
    /// `path` (a stale socket) is replaced. The socket is closed again when a step fails.
    package static func listeningUnixSocket(at path: String, mode: mode_t, backlog: Int32) throws(SystemCallError)
        -> Int32
    {
        var address = try unixAddress(path)
        let descriptor = try retrying("socket") {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do throws(SystemCallError) {
            _ = Glibc.unlink(path)
            try retrying("bind", path: path) {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
            try setSocketFileMode(path, mode)
            try retrying("listen", path: path) { listen(descriptor, backlog) }
            return descriptor
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Sets the mode of the socket file just bound at `path`, through a descriptor of that very file: `chmod` of
    /// the path would follow a link put in its place (in a directory others may write to) and change the mode of
    /// whatever it names, with the daemon's rights. The file must be a socket of this process's user.
    private static func setSocketFileMode(_ path: String, _ mode: mode_t) throws(SystemCallError) {
        let file = try retrying("open", path: path) { Glibc.open(path, pathOnly | O_NOFOLLOW | O_CLOEXEC) }
        defer { close(file) }
        let status = try fstat(file, path: path)
        guard status.mode & UInt32(S_IFMT) == UInt32(S_IFSOCK), status.owner == geteuid() else {
            throw SystemCallError(call: "chmod", code: ENOTSOCK, path: path)
        }
        // A path-only descriptor takes no fchmod; its /proc/self/fd link reaches the same file.
        try retrying("chmod", path: path) { chmod("/proc/self/fd/\(file)", mode) }
    }

    /// A Unix stream socket connected to `path`, close-on-exec.
    package static func connectedUnixSocket(to path: String) throws(SystemCallError) -> Int32 {
        var address = try unixAddress(path)
        let descriptor = try retrying("socket") {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        // Not retried: after EINTR the connection goes on in the background.
        do throws(SystemCallError) {
            try once("connect", path: path) {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
            return descriptor
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// The next connection of the listening socket `descriptor`, close-on-exec (`accept4`), waiting for it.
    package static func accept(_ descriptor: Int32) throws(SystemCallError) -> Int32 {
        try retrying("accept4") { ksys_accept_cloexec(descriptor) }
    }

    /// Stops both directions of a socket (a blocked `accept` or read returns).
    package static func shutdown(_ descriptor: Int32) throws(SystemCallError) {
        try retrying("shutdown") { Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    /// Gives up a receive after `seconds` without data (`SO_RCVTIMEO`), and a send after the same time blocked
    /// (`SO_SNDTIMEO`): both then fail with `EAGAIN`.
    package static func setTimeouts(_ descriptor: Int32, seconds: Int) throws(SystemCallError) {
        var interval = timeval(tv_sec: seconds, tv_usec: 0)
        let size = socklen_t(MemoryLayout<timeval>.size)
        try retrying("setsockopt SO_RCVTIMEO") { setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, size) }
        try retrying("setsockopt SO_SNDTIMEO") { setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, size) }
    }

    /// The address of `path`; `ENAMETOOLONG` when it does not fit `sun_path`.
    private static func unixAddress(_ path: String) throws(SystemCallError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SystemCallError(call: "socket path", code: ENAMETOOLONG, path: path)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return address
    }
}
