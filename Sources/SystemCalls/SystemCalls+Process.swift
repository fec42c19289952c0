#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Child processes.
extension SystemCalls {
    /// How a child ended and what it printed.
    package struct ChildRun: Sendable {
        /// The exit status, or 128 plus the signal that ended it.
        package let status: Int32
        package let output: [UInt8]
        package let errors: [UInt8]
    }

    /// Runs `arguments[0]` (a path) with `arguments` and this process's environment, and waits for it: standard
    /// input on /dev/null, standard output and error captured up to `limit` bytes each. The child starts with no
    /// blocked signal and default handlers, whatever the calling thread has: a Control-C must reach it.
    package static func run(_ arguments: [String], limit: Int = 65_536) throws(SystemCallError) -> ChildRun {
        guard let executable = arguments.first else { throw SystemCallError(call: "posix_spawn", code: EINVAL) }
        let output = try Pipe()
        let errors = try Pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.write, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
        }
        var child: pid_t = 0
        // posix_spawn answers its error instead of setting errno.
        let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        output.closeWrite()
        errors.closeWrite()
        guard spawned == 0 else { throw SystemCallError(call: "posix_spawn", code: spawned, path: executable) }
        // Small outputs: the pipes' buffers hold them, so reading one after the other cannot block the child.
        let printed = (try? readAll(output.read, limit: limit)) ?? []
        let complained = (try? readAll(errors.read, limit: limit)) ?? []
        var status: Int32 = 0
        try retrying("waitpid") { waitpid(child, &status, 0) }
        // WIFEXITED / WEXITSTATUS by hand: the macros are not imported.
        let exit = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ChildRun(status: exit, output: printed, errors: complained)
    }

    /// A pipe whose ends no other child inherits.
    private final class Pipe {
        let read: Int32
        private(set) var write: Int32

        init() throws(SystemCallError) {
            var ends: [Int32] = [-1, -1]
            try once("pipe") { pipe(&ends) }
            read = ends[0]
            write = ends[1]
            _ = fcntl(read, F_SETFD, FD_CLOEXEC)
            _ = fcntl(write, F_SETFD, FD_CLOEXEC)
        }

        deinit {
            SystemCalls.close(read)
            closeWrite()
        }

        func closeWrite() {
            if write >= 0 { SystemCalls.close(write) }
            write = -1
        }
    }
}
