import DaemonSystem
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

    /// Why the process `process` may hold the connection accepted as `connection` from a program that ran before
    /// its last exec, or nil.
    package static func refusal(connection: Int32, process: ProcessHandle, procRoot: String = "/proc") -> String? {
        let pid = process.pid
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
            if let own, let its, own != its {
                return refusalInAnotherNamespace(connection: connection, process: process, procRoot: procRoot)
            }
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

    /// The check for a process in another network namespace, where the diagnostics cannot say which of its
    /// sockets is its end of the connection: every socket it holds without close-on-exec is looked at instead. One
    /// that the diagnostics find in keychaind's namespace is not the connection (the client's end and the
    /// daemon's, which they did not find, belong to one namespace: the one the client's end was made in). Any
    /// other is taken from the process (`pidfd_getfd(2)`, a duplicate the daemon closes at once) and asked for its
    /// peer's address: a socket connected to keychaind's own refuses the process, whichever of its connections it
    /// is, since the client library holds none without close-on-exec. Where the kernel gives no duplicate (no
    /// `pidfd_getfd`, before Linux 5.6; no ptrace attach access, Yama's `ptrace_scope` 3) the process is not
    /// checked, as where the diagnostics are all there is.
    private static func refusalInAnotherNamespace(
        connection: Int32, process: ProcessHandle, procRoot: String
    ) -> String? {
        let directory = "\(procRoot)/\(process.pid)"
        guard let ours = try? SystemCalls.socketAddress(of: connection) else {
            return "keychaind cannot read the address of its end of the connection"
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/fd") else {
            return "its descriptors cannot be read"
        }
        guard names.count <= descriptorLimit else {
            return "it holds more than \(descriptorLimit) descriptors, too many to look through"
        }
        for name in names {
            guard let number = Int32(name), let link = ProcFile.link("\(directory)/fd/\(name)"),
                link.hasPrefix("socket:["), link.hasSuffix("]"), let inode = UInt64(link.dropFirst(8).dropLast())
            else { continue }
            // A descriptor closed meanwhile has no fdinfo: it holds nothing.
            guard let info = ProcFile.text("\(directory)/fdinfo/\(name)") else { continue }
            guard let flags = Self.flags(fdinfo: info) else { return "its descriptor \(name) cannot be read" }
            if flags & closeOnExec != 0 || isInDaemonsNamespace(socketInode: inode) { continue }
            let duplicate: Int32
            do {
                duplicate = try process.duplicate(descriptor: number)
            } catch  where error.code == EBADF {
                continue
            } catch {
                return nil
            }
            defer { SystemCalls.close(duplicate) }
            // Not connected (ENOTCONN), or not a socket of an address family that has peers: not keychaind's.
            guard let peer = try? SystemCalls.socketAddress(of: duplicate, peer: true) else { continue }
            if peer == ours {
                return "it holds a connection to keychaind in descriptor \(name) without close-on-exec, as one "
                    + "handed to it across an exec: the program that connected may not be the one it runs"
            }
        }
        return nil
    }

    /// Whether the diagnostics find the Unix socket of inode `socketInode` in keychaind's network namespace.
    private static func isInDaemonsNamespace(socketInode: UInt64) -> Bool {
        do {
            _ = try SystemCalls.unixPeerInode(ofSocketInode: socketInode)
            return true
        } catch {
            return false
        }
    }

    /// The `flags:` of a `/proc/<pid>/fdinfo/N` (octal).
    static func flags(fdinfo: String) -> Int? {
        fdinfo.split(separator: "\n").first { $0.hasPrefix("flags:") }
            .flatMap { Int($0.dropFirst("flags:".count).trimming(" \t"), radix: 8) }
    }
}
