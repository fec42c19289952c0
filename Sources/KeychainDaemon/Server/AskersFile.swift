import DaemonSystem
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A file opened for `security apps show` the way its asker could open it, though the daemon can read more: the
/// path resolved as the asker would resolve it (``AskersPath``), from the asker's own root, and a regular file
/// readable by them (theirs with the owner's read bit, else readable by both group and others, without an access
/// control list). A path the asker cannot reach is refused with the same words whether or not anything is there.
struct AskersFile {
    /// Why the file was not opened.
    struct Refusal: Error {
        let reason: String
    }

    let descriptor: Int32
    /// The path opened: the asked path with its links resolved.
    let path: String
    let size: Int64

    private static let unreachable = Refusal(reason: "no regular file you can read at that absolute path")

    /// The file `asked` names for the process `asker` of `uid`: looked up from its root (`/proc/<pid>/root`), so
    /// that the daemon's own mounts (the shipped unit hides `/home` and `/tmp` from it) and the machine's (which a
    /// sandboxed app does not see) count for nothing.
    static func open(_ asked: String, uid: UInt32, asker: ProcessHandle) -> Result<AskersFile, Refusal> {
        let root = Glibc.open("/proc/\(asker.pid)/root", SystemCalls.pathOnly | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { return .failure(unreachable) }
        defer { SystemCalls.close(root) }
        // The root is held now: it was the asker's if the asker still runs (its pid is no one else's).
        guard !asker.hasExited, let found = AskersPath.resolve(asked, for: uid, from: root) else {
            return .failure(unreachable)
        }
        defer { SystemCalls.close(found.descriptor) }
        guard let status = try? SystemCalls.fstat(found.descriptor),
            status.mode & UInt32(S_IFMT) == UInt32(S_IFREG),
            AskersPath.allows(uid, status, of: found.descriptor, ownerBit: 0o400, othersBits: 0o044)
        else { return .failure(unreachable) }
        // A regular file, checked on the path descriptor: now opened for reading, through that descriptor.
        let file = SystemCalls.openForReading(pathDescriptor: found.descriptor)
        guard file >= 0 else { return .failure(unreachable) }
        return .success(AskersFile(descriptor: file, path: found.path, size: status.size))
    }
}
