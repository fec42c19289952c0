import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// An absolute path resolved for an asker the way the kernel would resolve it for them, though by the daemon,
/// which may search more: from the asker's own root, one name at a time below the directory opened before it,
/// each directory searched only when the asker may search it, links read and followed here (at most 40, as the
/// kernel allows) rather than by the kernel with the daemon's rights, `..` taken back up the names opened. So a
/// name behind a directory closed to the asker is never looked up, and whether it exists is not told by the
/// answer. Nothing under `/proc` is looked up: its links read with the daemon's right to look into processes,
/// and `/proc/self` names the daemon.
struct AskersPath {
    private static let linkLimit = 40
    /// The most names one walk looks up, links' included: far more than any real path, and a bound on what a
    /// request of `..` repeated can cost.
    private static let stepLimit = 4096
    /// The most directories open at once, one per level below the root: far deeper than any real program's, and a
    /// bound on the descriptors one request holds.
    static let depthLimit = 256
    /// The walks under way, at most eight at once.
    static let walks = ConcurrencyLimit(8)

    private let uid: UInt32
    private let root: Int32
    /// The directories opened below the root, with their names.
    private var directories: [(name: String, descriptor: Int32)] = []

    private init(uid: UInt32, root: Int32) {
        self.uid = uid
        self.root = root
    }

    /// A path-only descriptor of the file `asked` names for `uid`, looked up from the directory `root` (the
    /// caller's, and the caller closes it), and its path with links resolved; nil when the asker could not reach
    /// it or it does not exist (one answer for both).
    static func resolve(_ asked: String, for uid: UInt32, from root: Int32) -> (descriptor: Int32, path: String)? {
        guard asked.hasPrefix("/"), asked.utf8.count < PATH_MAX else { return nil }
        var walk = AskersPath(uid: uid, root: root)
        defer { walk.closeDirectories() }
        return walk.follow(Self.names(of: asked))
    }

    /// The names of `path`; a trailing slash is a last `.`, so that it names a directory, as for the kernel.
    private static func names(of path: String) -> [String] {
        path.split(separator: "/").map(String.init) + (path.hasSuffix("/") ? ["."] : [])
    }

    private var current: Int32 { directories.last?.descriptor ?? root }

    private mutating func follow(_ names: [String]) -> (descriptor: Int32, path: String)? {
        // The names still to look up, the next one last.
        var pending = Array(names.reversed())
        var links = 0
        var steps = 0
        while let name = pending.popLast() {
            steps += 1
            guard steps <= Self.stepLimit, !Self.isProc(current), let status = try? SystemCalls.fstat(current),
                status.mode & UInt32(S_IFMT) == UInt32(S_IFDIR),
                Self.allows(uid, status, of: current, ownerBit: 0o100, othersBits: 0o011)
            else { return nil }
            if name == "." { continue }
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
            let flags = SystemCalls.pathOnly | O_NOFOLLOW | O_CLOEXEC | (isLast ? 0 : O_DIRECTORY)
            let next = openat(current, name, flags)
            guard next >= 0 else { return nil }
            if isLast {
                let path = "/" + (directories.map(\.name) + [name]).joined(separator: "/")
                return (next, path)
            }
            guard directories.count < Self.depthLimit else {
                SystemCalls.close(next)
                return nil
            }
            directories.append((name, next))
        }
        return nil  // the path ends at a directory
    }

    /// Whether `uid` may use the file open as `descriptor`, whose status is `status`, as its owner's `ownerBit`
    /// or everyone else's `othersBits` allow: root passes everywhere. Not the owner: both the group's bit and the
    /// others' must allow it, since the daemon does not know whether the asker is in the group; and a file with
    /// an access control list is closed, since its group bits are then the list's mask and the list may name the
    /// asker.
    static func allows(
        _ uid: UInt32, _ status: FileStatus, of descriptor: Int32, ownerBit: UInt32, othersBits: UInt32
    ) -> Bool {
        if uid == 0 { return true }
        if status.owner == uid { return status.mode & ownerBit != 0 }
        return status.mode & othersBits == othersBits && !hasAccessControlList(descriptor)
    }

    /// Whether the file has a POSIX access control list (read through `/proc/self/fd`, which a path-only
    /// descriptor allows). An error counts as one.
    private static func hasAccessControlList(_ descriptor: Int32) -> Bool {
        (try? SystemCalls.hasAccessControlList("/proc/self/fd/\(descriptor)")) ?? true
    }

    /// Whether the directory is in `/proc`; unknown counts as yes, and the walk stops.
    private static func isProc(_ directory: Int32) -> Bool {
        (try? SystemCalls.fileSystemType(directory)).map { $0 == SystemCalls.procFileSystemType } ?? true
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
}
