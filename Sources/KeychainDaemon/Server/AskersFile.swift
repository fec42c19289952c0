import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A file opened for `security apps show` the way its asker could open it, though the daemon can read more: every
/// directory from the root searchable by the asker (theirs with the owner's search bit, or searchable by both
/// group and others, since the daemon does not know the asker's groups), and a regular file readable by them on
/// the same terms. Each name is opened below the directory opened before it, without following a link, so no
/// path swapped in between is read; and a path the asker cannot reach is refused with the same words whether or
/// not anything is there.
struct AskersFile {
    /// Why the file was not opened.
    struct Refusal: Error {
        let reason: String
    }

    let descriptor: Int32
    /// The path opened: the asked path with its links resolved.
    let path: String
    let size: Int64

    /// `O_PATH` (Linux), which Glibc's Swift module leaves out: a descriptor that names a file without opening it.
    private static let pathOnly: Int32 = 0o10_000_000

    private static let unreachable = Refusal(reason: "no regular file you can read at that absolute path")

    static func open(_ asked: String, uid: UInt32) -> Result<AskersFile, Refusal> {
        guard asked.hasPrefix("/"), let resolved = realpath(asked, nil) else { return .failure(unreachable) }
        let path = String(cString: resolved)
        free(resolved)
        var directory = Glibc.open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return .failure(unreachable) }
        let names = path.split(separator: "/").map(String.init)
        for (index, name) in names.enumerated() {
            guard let status = try? SystemCalls.fstat(directory), searchable(status, by: uid) else {
                SystemCalls.close(directory)
                return .failure(unreachable)
            }
            let isLast = index == names.count - 1
            // The last name is opened as a path only: opening a terminal (or a FIFO, or a device) for reading
            // would make it the daemon's controlling terminal, whose ^C stops the daemon.
            let flags = isLast ? pathOnly | O_NOFOLLOW | O_CLOEXEC : O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
            let next = openat(directory, name, flags)
            SystemCalls.close(directory)
            guard next >= 0 else { return .failure(unreachable) }
            directory = next
        }
        guard let status = try? SystemCalls.fstat(directory), status.mode & UInt32(S_IFMT) == UInt32(S_IFREG),
            uid == 0 || (status.owner == uid ? status.mode & 0o400 != 0 : status.mode & 0o044 == 0o044)
        else {
            SystemCalls.close(directory)
            return .failure(unreachable)
        }
        // A regular file, checked on the path descriptor: now opened for reading, through that descriptor.
        let file = Glibc.open("/proc/self/fd/\(directory)", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        SystemCalls.close(directory)
        guard file >= 0 else { return .failure(unreachable) }
        return .success(AskersFile(descriptor: file, path: path, size: status.size))
    }

    /// Whether a directory lets `uid` through: root passes everywhere.
    private static func searchable(_ status: FileStatus, by uid: UInt32) -> Bool {
        guard status.mode & UInt32(S_IFMT) == UInt32(S_IFDIR) else { return false }
        if uid == 0 { return true }
        // Not the owner: the group's bit and the others' must both allow it, since the daemon does not know whether
        // the asker is in the group (whose bit, when it is, is the one that counts).
        return status.owner == uid ? status.mode & 0o100 != 0 : status.mode & 0o011 == 0o011
    }
}
