import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A file opened for `security apps show` the way its asker could open it, though the daemon can read more: every
/// directory from the root searchable by the asker (theirs with the owner's search bit, or searchable by all;
/// group bits are not counted, since the daemon does not know the asker's groups), and the file theirs or
/// readable by all. Each name is opened below the directory opened before it, without following a link, so no
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
            // O_NONBLOCK: a FIFO put at the path must not hold the daemon's thread.
            let flags =
                isLast
                ? O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC : O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
            let next = openat(directory, name, flags)
            SystemCalls.close(directory)
            guard next >= 0 else { return .failure(unreachable) }
            directory = next
        }
        guard let status = try? SystemCalls.fstat(directory), status.mode & UInt32(S_IFMT) == UInt32(S_IFREG),
            uid == 0 || (status.owner == uid ? status.mode & 0o400 != 0 : status.mode & 0o004 != 0)
        else {
            SystemCalls.close(directory)
            return .failure(unreachable)
        }
        return .success(AskersFile(descriptor: directory, path: path, size: status.size))
    }

    /// Whether a directory lets `uid` through: root passes everywhere.
    private static func searchable(_ status: FileStatus, by uid: UInt32) -> Bool {
        guard status.mode & UInt32(S_IFMT) == UInt32(S_IFDIR) else { return false }
        if uid == 0 { return true }
        return status.owner == uid ? status.mode & 0o100 != 0 : status.mode & 0o001 != 0
    }
}
