#if canImport(Glibc)
    import Glibc
#endif

/// Reads small files of `/proc` and `/proc/sys` with a size cap, so that a process whose environment or
/// cgroup path is huge cannot make the daemon read without end.
enum ProcFile {
    /// The file's bytes, at most `limit` of them (``readWhole(_:limit:)`` tells a longer file apart); nil when it
    /// cannot be opened.
    static func read(_ path: String, limit: Int = 64 * 1024) -> [UInt8]? {
        readWhole(path, limit: limit).map { Array($0.bytes.prefix(limit)) }
    }

    /// The file's bytes and whether they are all of it (false when the file is longer than `limit`).
    static func readWhole(_ path: String, limit: Int) -> (bytes: [UInt8], isWhole: Bool)? {
        guard let bytes = readUpTo(path, count: limit + 1) else { return nil }
        return (Array(bytes.prefix(limit)), bytes.count <= limit)
    }

    private static func readUpTo(_ path: String, count limit: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return Array(bytes.prefix(limit))
    }

    static func text(_ path: String, limit: Int = 64 * 1024) -> String? {
        read(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Where a symbolic link such as `/proc/<pid>/exe` points.
    static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
