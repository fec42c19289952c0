import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Whether a peer holds its connection as a program handed it across `execve(2)` would. A process can connect,
/// put the socket on the standard output of an allowed program it then execs, and feed that program's input from
/// a child it forked: the program's output would be served as its own requests. A descriptor that survived an
/// exec has no close-on-exec flag, and the client library always sets it.
package enum InheritedConnection {
    /// `O_CLOEXEC` as the `flags:` line of `/proc/<pid>/fdinfo/N` shows it (octal).
    private static let closeOnExec = 0o2_000_000
    /// More descriptors than this are not looked through: each is a link to read.
    private static let descriptorLimit = 1 << 16

    /// Why the process `pid` may hold the connection accepted as `connection` from a program that ran before its
    /// last exec, or nil.
    package static func refusal(connection: Int32, pid: Int32, procRoot: String = "/proc") -> String? {
        let peerSocket: UInt64
        do {
            let own = try SystemCalls.fstat(connection)
            guard let inode = try SystemCalls.unixPeerInode(ofSocketInode: own.inode) else {
                return "it closed its end of the connection"
            }
            peerSocket = inode
        } catch  where error.code == ENOENT {
            // The kernel shows only the sockets of keychaind's network namespace. A process in a namespace of its
            // own (a Flatpak app without network access) made its socket there; any other's socket came from one.
            let own = ProcFile.link("\(procRoot)/self/ns/net")
            let its = ProcFile.link("\(procRoot)/\(pid)/ns/net")
            if let own, let its, own != its { return nil }
            return "its connection was made in another network namespace, so keychaind cannot tell how it holds it"
        } catch {
            return "keychaind cannot learn which socket is its end of the connection (\(error))"
        }
        let directory = "\(procRoot)/\(pid)"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/fd") else {
            return "its descriptors cannot be read"
        }
        guard names.count <= descriptorLimit else {
            return "it holds more than \(descriptorLimit) descriptors, too many to look through"
        }
        for name in names where ProcFile.link("\(directory)/fd/\(name)") == "socket:[\(peerSocket)]" {
            // A descriptor closed meanwhile has no fdinfo: it holds nothing.
            guard let info = ProcFile.text("\(directory)/fdinfo/\(name)") else { continue }
            guard let flags = Self.flags(fdinfo: info) else { return "its descriptor \(name) cannot be read" }
            if flags & closeOnExec == 0 {
                return "it holds its connection in descriptor \(name) without close-on-exec, as one handed to it "
                    + "across an exec: the program that connected may not be the one it runs"
            }
        }
        return nil
    }

    /// The `flags:` of a `/proc/<pid>/fdinfo/N` (octal).
    static func flags(fdinfo: String) -> Int? {
        fdinfo.split(separator: "\n").first { $0.hasPrefix("flags:") }
            .flatMap { Int($0.dropFirst("flags:".count).trimming(" \t"), radix: 8) }
    }
}
