import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Reads small files of `/proc` and `/proc/sys` with a size cap, so that a process whose environment or
/// cgroup path is huge cannot make the daemon read without end.
enum ProcFile {
    /// The file's bytes, at most `limit` of them; nil when it cannot be opened or read.
    static func read(_ path: String, limit: Int = 64 * 1024) -> [UInt8]? { readWhole(path, limit: limit)?.bytes }

    /// The file's bytes, at most `limit` of them, and whether they are all of it; nil when it cannot be opened or
    /// read.
    static func readWhole(_ path: String, limit: Int) -> (bytes: [UInt8], isWhole: Bool)? {
        guard let descriptor = try? SystemCalls.open(path, O_RDONLY) else { return nil }
        defer { SystemCalls.close(descriptor) }
        return readWhole(descriptor, limit: limit)
    }

    /// The bytes of the file open as `descriptor`, at most `limit` of them, and whether they are all of it (false
    /// when the file is longer); nil when it cannot be read.
    static func readWhole(_ descriptor: Int32, limit: Int) -> (bytes: [UInt8], isWhole: Bool)? {
        guard let bytes = try? SystemCalls.readAll(descriptor, limit: limit + 1) else { return nil }
        return (Array(bytes.prefix(limit)), bytes.count <= limit)
    }

    /// The bytes (at most `limit`) of the regular file `name` right inside `directory`, such as a process's root,
    /// which the process may have made itself: no link is followed (an absolute one would be followed in the
    /// daemon's root, with its rights), and only a regular file is opened for reading, so no FIFO is waited on, no
    /// terminal made the daemon's controlling one, and no device's own open (a watchdog's, a tape's) is run.
    static func regularFile(_ name: String, in directory: String, limit: Int = 64 * 1024) -> [UInt8]? {
        let base = open(directory, SystemCalls.pathOnly | O_DIRECTORY | O_CLOEXEC)
        guard base >= 0 else { return nil }
        defer { SystemCalls.close(base) }
        let path = openat(base, name, SystemCalls.pathOnly | O_NOFOLLOW | O_CLOEXEC)
        guard path >= 0 else { return nil }
        defer { SystemCalls.close(path) }
        guard let status = try? SystemCalls.fstat(path), status.mode & UInt32(S_IFMT) == UInt32(S_IFREG) else {
            return nil
        }
        // A regular file, checked on the path descriptor: now opened for reading, through that descriptor.
        let file = SystemCalls.openForReading(pathDescriptor: path)
        guard file >= 0 else { return nil }
        defer { SystemCalls.close(file) }
        return readWhole(file, limit: limit)?.bytes
    }

    static func text(_ path: String, limit: Int = 64 * 1024) -> String? {
        read(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Where a symbolic link such as `/proc/<pid>/exe` points.
    static func link(_ path: String) -> String? {
        guard let target = try? SystemCalls.readLink(path), !target.isEmpty else { return nil }
        return target
    }

    /// Seconds since boot on the clock `/proc/<pid>/stat` start times count from (CLOCK_BOOTTIME).
    static func secondsSinceBoot() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Clock ticks per second, the unit of `/proc/<pid>/stat` times.
    static let ticksPerSecond = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
}
