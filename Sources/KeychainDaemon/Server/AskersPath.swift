import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// An absolute path resolved for an asker the way the kernel would resolve it for them, though by the daemon,
/// which may search more: from the host's root (``HostView``), one name at a time below the directory opened
/// before it, each directory searched only when the asker may search it, links read and followed here (at most
/// 40, as the kernel allows) rather than by the kernel with the daemon's rights, `..` taken back up the names
/// opened. So a name behind a directory closed to the asker is never looked up, and whether it exists is not
/// told by the answer.
struct AskersPath {
    /// `O_PATH` (Linux), which Glibc's Swift module leaves out: a descriptor that names a file without opening it.
    static let pathOnly: Int32 = 0o10_000_000
    private static let linkLimit = 40

    private let uid: UInt32
    private let root: Int32
    /// The directories opened below the root, with their names.
    private var directories: [(name: String, descriptor: Int32)] = []

    private init(uid: UInt32, root: Int32) {
        self.uid = uid
        self.root = root
    }

    /// A path-only descriptor of the file `asked` names for `uid`, and its path with links resolved; nil when the
    /// asker could not reach it or it does not exist (one answer for both).
    static func resolve(_ asked: String, for uid: UInt32, in host: HostView) -> (descriptor: Int32, path: String)? {
        guard asked.hasPrefix("/") else { return nil }
        let root = host.openRoot()
        guard root >= 0 else { return nil }
        var walk = AskersPath(uid: uid, root: root)
        defer { walk.closeAll() }
        return walk.follow(Self.names(of: asked))
    }

    private static func names(of path: String) -> [String] {
        path.split(separator: "/").map(String.init).filter { $0 != "." }
    }

    private var current: Int32 { directories.last?.descriptor ?? root }

    private mutating func follow(_ names: [String]) -> (descriptor: Int32, path: String)? {
        // The names still to look up, the next one last.
        var pending = Array(names.reversed())
        var links = 0
        while let name = pending.popLast() {
            guard let status = try? SystemCalls.fstat(current), Self.searchable(status, by: uid) else { return nil }
            if name == ".." {
                if let parent = directories.popLast() { SystemCalls.close(parent.descriptor) }
                continue
            }
            var entry = stat()
            guard fstatat(current, name, &entry, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            if entry.st_mode & S_IFMT == S_IFLNK {
                links += 1
                guard links <= Self.linkLimit, let target = Self.readLink(name, in: current) else { return nil }
                if target.hasPrefix("/") { closeDirectories() }
                pending.append(contentsOf: Self.names(of: target).reversed())
                continue
            }
            let isLast = pending.isEmpty
            // The last name is opened as a path only: opening a terminal (or a FIFO, or a device) for reading
            // would make it the daemon's controlling terminal, whose ^C stops the daemon. No link is followed: one
            // swapped in since the look is refused.
            let flags = Self.pathOnly | O_NOFOLLOW | O_CLOEXEC | (isLast ? 0 : O_DIRECTORY)
            let next = openat(current, name, flags)
            guard next >= 0 else { return nil }
            if isLast {
                let path = "/" + (directories.map(\.name) + [name]).joined(separator: "/")
                return (next, path)
            }
            directories.append((name, next))
        }
        return nil  // the path ends at a directory
    }

    private static func readLink(_ name: String, in directory: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(directory, name, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private mutating func closeDirectories() {
        for directory in directories { SystemCalls.close(directory.descriptor) }
        directories = []
    }

    private mutating func closeAll() {
        closeDirectories()
        SystemCalls.close(root)
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
