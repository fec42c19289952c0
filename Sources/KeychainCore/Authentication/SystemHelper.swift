import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How a system authentication ended (the `keychain-authenticate` helper's exit status).
public enum SystemAuthenticationOutcome: Sendable, Equatable {
    case authenticated
    case notAuthenticated
    case canceled
    /// There is no terminal to ask at.
    case noTerminal
    /// There is no fingerprint reader, or no finger is enrolled.
    case noReader
    /// PAM, fprintd or the helper could not be used; the text says why.
    case unavailable(String)
}

extension SystemAuthenticationOutcome {
    /// Returns on success; otherwise throws what `LAContext` and the keychain report for the outcome.
    /// - Throws: `AuthenticationFailure`: not authenticated → `.authenticationFailed`, canceled → `.userCancel`,
    ///   no reader or no finger → `.biometryNotEnrolled`, no terminal or an unusable service → `.notInteractive`.
    func requireSuccess() throws {
        switch self {
        case .authenticated: return
        case .notAuthenticated: throw AuthenticationFailure.authenticationFailed
        case .canceled: throw AuthenticationFailure.userCancel
        case .noReader: throw AuthenticationFailure.biometryNotEnrolled
        case .noTerminal, .unavailable: throw AuthenticationFailure.notInteractive
        }
    }
}

/// The `keychain-authenticate` helper: where it is, and one run of it.
public enum SystemHelper {
    /// The helper's file name.
    public static let name = "keychain-authenticate"

    /// The helper of this installation: `KEYCHAIN_AUTHENTICATE` (a path), else `keychain-authenticate` beside the
    /// running executable, else on `PATH`. - Returns: nil when there is none.
    public static func locate(_ environment: EnvironmentVariables) -> URL? {
        let manager = FileManager.default
        var candidates: [String] = []
        if let explicit = environment["KEYCHAIN_AUTHENTICATE"] { candidates.append(explicit) }
        if let directory = RunningExecutable.directory { candidates.append(directory.appendingPathComponent(name).path) }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(String(directory) + "/" + name)
        }
        return candidates.first { manager.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }

    /// What one run printed and how it ended.
    struct Run {
        let status: Int32
        let output: String
        let errors: String

        var outcome: SystemAuthenticationOutcome {
            switch status {
            case 0: .authenticated
            case 1: .notAuthenticated
            case 2: .canceled
            case 3: .noTerminal
            case 5: .noReader
            default: .unavailable("\(SystemHelper.name): " + (errors.isEmpty ? "exit status \(status)" : errors))
            }
        }
    }

    /// Runs `helper` with `arguments` and waits for it: standard input on /dev/null (it talks at the terminal
    /// itself), standard output and error captured.
    static func run(_ helper: URL, _ arguments: [String]) -> Run {
        do {
            return try spawn([helper.path] + arguments)
        } catch {
            return Run(status: 127, output: "", errors: "\(helper.path) could not be started: \(error)")
        }
    }

    private struct SpawnError: Error, CustomStringConvertible {
        let code: Int32
        var description: String { String(cString: strerror(code)) }
    }

    private static func spawn(_ arguments: [String]) throws -> Run {
        let output = try Pipe()
        let errors = try Pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.write, 2)
        // The helper starts with no blocked signal and default handlers, whatever the calling thread has: the
        // user's Control-C must reach it (and its terminal restoration) even from a thread that blocks SIGINT.
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
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, arguments[0], &actions, &attributes, argv, environ)
        output.closeWrite()
        errors.closeWrite()
        guard spawned == 0 else { throw SpawnError(code: spawned) }
        // Small outputs: the pipes' buffers hold them, so reading one after the other cannot block the child.
        let printed = output.readAll()
        let complained = errors.readAll()
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { throw SpawnError(code: errno) }
        }
        // WIFEXITED / WEXITSTATUS by hand: the macros are not imported.
        let exit = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Run(
            status: exit, output: printed,
            errors: complained.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A pipe whose ends no other child inherits.
    private final class Pipe {
        let read: Int32
        private(set) var write: Int32

        init() throws {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw SpawnError(code: errno) }
            read = ends[0]
            write = ends[1]
            _ = fcntl(read, F_SETFD, FD_CLOEXEC)
            _ = fcntl(write, F_SETFD, FD_CLOEXEC)
        }

        deinit {
            close(read)
            closeWrite()
        }

        func closeWrite() {
            if write >= 0 { close(write) }
            write = -1
        }

        func readAll(limit: Int = 65_536) -> String {
            var captured: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while captured.count < limit {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                captured += chunk[..<count]
            }
            return String(decoding: captured, as: UTF8.self)
        }
    }
}
