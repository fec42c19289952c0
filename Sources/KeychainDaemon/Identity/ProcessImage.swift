import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The program a process runs now, held by its `/proc/<pid>/environ`, opened and read before anything else about
/// the process is read. The descriptor reads the memory of the program that was running when it was opened, and
/// reads nothing once the process has `exec`ed another; and the environment read again at the end must set the
/// same code-loading variables (a child of `vfork` shares its parent's memory, which the descriptor then keeps
/// reading after the child's `exec`). So the daemon tells whether what it read of a process (its `exe`, its environment) is of one program.
final class ProcessImage {
    private let descriptor: Int32
    private let path: String
    private let limit: Int
    /// The environment as first read, at most the limit, and whether that was all of it.
    let environment: (bytes: [UInt8], isWhole: Bool)

    /// Opens and reads `environ` in the process directory `directory` (`/proc/<pid>`), at most `limit` bytes;
    /// nil when it cannot be opened or read.
    init?(directory: String, limit: Int) {
        path = directory + "/environ"
        self.limit = limit
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { return nil }
        guard let read = ProcFile.readWhole(opened, limit: limit) else {
            SystemCalls.close(opened)
            return nil
        }
        descriptor = opened
        environment = read
    }

    deinit { SystemCalls.close(descriptor) }

    /// Whether the process still runs the program it ran when this was opened: false once it has `exec`ed
    /// another or exited.
    var isCurrent: Bool {
        var byte: UInt8 = 0
        if !environment.bytes.isEmpty && pread(descriptor, &byte, 1, 0) != 1 { return false }
        let again = open(path, O_RDONLY | O_CLOEXEC)
        guard again >= 0 else { return false }
        defer { SystemCalls.close(again) }
        guard let now = ProcFile.readWhole(again, limit: limit) else { return false }
        // An empty environment reads nothing through the first descriptor either way: it must still be empty.
        if environment.bytes.isEmpty { return now.bytes.isEmpty }
        // The variables identification judges, not the whole block: a program may rewrite its original
        // environment block (a process title set over it) while another of its threads connects.
        return now.isWhole == environment.isWhole
            && ProcessFacts.loaderVariables(environ: now.bytes)
                == ProcessFacts.loaderVariables(environ: environment.bytes)
    }
}
