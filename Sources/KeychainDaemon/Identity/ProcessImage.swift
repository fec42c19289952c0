import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The program a process runs now, held by its `/proc/<pid>/environ` opened before anything else about it is read:
/// the descriptor reads the memory of the program that was running when it was opened, and reads nothing once the
/// process has `exec`ed another (the old memory is gone). So the daemon tells whether what it read of a process
/// (its `exe`, its environment) belongs to one program.
final class ProcessImage {
    private let descriptor: Int32
    /// Whether the environment had a byte to read when it was opened: an empty one cannot tell an `exec`.
    private var hasBytes = false

    /// Opens `environ` in the process directory `directory` (`/proc/<pid>`); nil when it cannot be opened.
    init?(directory: String) {
        let opened = open(directory + "/environ", O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { return nil }
        descriptor = opened
    }

    deinit { SystemCalls.close(descriptor) }

    /// The environment, at most `limit` bytes, and whether that was all of it; nil when it cannot be read.
    func environment(limit: Int) -> (bytes: [UInt8], isWhole: Bool)? {
        guard let bytes = try? SystemCalls.readAll(descriptor, path: "environ", limit: limit + 1) else { return nil }
        hasBytes = !bytes.isEmpty
        return (Array(bytes.prefix(limit)), bytes.count <= limit)
    }

    /// Whether the process still runs the program it ran when this was opened: false once it has `exec`ed
    /// another or exited. True for an empty environment, which shows nothing either way.
    var isCurrent: Bool {
        guard hasBytes else { return true }
        var byte: UInt8 = 0
        return pread(descriptor, &byte, 1, 0) == 1
    }
}
