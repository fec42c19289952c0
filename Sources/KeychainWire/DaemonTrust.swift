import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Whether the process serving a keychaind socket may be sent secrets (items, passwords typed at prompts): a
/// socket path can be taken by whoever creates it first, and a socket in a directory others may write to (such as
/// `/tmp`) may be another user's, listening in keychaind's place. The daemon is trusted when it runs as root, as
/// this process's user, or as the owner of the socket's directory when no one else may write to that directory
/// (the shipped `/run/keychaind`, owned by the `keychaind` account) — as gpg trusts its agent's socket only in a
/// directory of the user's own.
package enum DaemonTrust {
    /// Why the daemon of uid `daemonUID` serving `socketPath` is not trusted, or nil when it is.
    package static func doubt(daemonUID: UInt32, socketPath: String) -> String? {
        if daemonUID == 0 || daemonUID == getuid() || daemonUID == geteuid() { return nil }
        let directory = Self.directory(of: socketPath)
        if let status = try? SystemCalls.stat(directory), status.owner == daemonUID, status.mode & 0o022 == 0 {
            return nil
        }
        return "it runs as uid \(daemonUID), which is neither root, this process's user, nor the owner of "
            + "\(directory) with no one else allowed to write there, so it may not be keychaind: nothing is sent to it"
    }

    /// The directory holding `path` (`.` for a bare name).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
