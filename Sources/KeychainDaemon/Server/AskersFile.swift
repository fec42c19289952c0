import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A file opened for `security apps show` the way its asker could open it, though the daemon can read more: the
/// path resolved as the asker would resolve it (``AskersPath``), and a regular file readable by them (theirs with
/// the owner's read bit, or readable by both group and others, since the daemon does not know the asker's
/// groups). A path the asker cannot reach is refused with the same words whether or not anything is there.
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

    static func open(_ asked: String, uid: UInt32, in host: HostView) -> Result<AskersFile, Refusal> {
        guard let found = AskersPath.resolve(asked, for: uid, in: host) else { return .failure(unreachable) }
        defer { SystemCalls.close(found.descriptor) }
        guard let status = try? SystemCalls.fstat(found.descriptor),
            status.mode & UInt32(S_IFMT) == UInt32(S_IFREG),
            uid == 0 || (status.owner == uid ? status.mode & 0o400 != 0 : status.mode & 0o044 == 0o044)
        else { return .failure(unreachable) }
        // A regular file, checked on the path descriptor: now opened for reading, through that descriptor.
        let file = Glibc.open("/proc/self/fd/\(found.descriptor)", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return .failure(unreachable) }
        return .success(AskersFile(descriptor: file, path: found.path, size: status.size))
    }
}
