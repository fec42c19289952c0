import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Device-owner authentication by the system: the stack of PAM service `keychain` (PAM falls back to `other`,
/// on Debian the account password), run by the `keychain-authenticate` helper at the user's terminal. A keychain
/// configured with it asks there whenever a device-passcode prompt has no scripted answer, the way a Mac asks
/// for the login password.
///
/// PAM runs in the helper, not here, because PAM loads its modules as shared libraries and the release
/// `security` is a static executable; the helper also keeps PAM's modules out of the keychain's process.
public struct SystemOwnerAuthentication: Sendable, Equatable {
    /// The helper's file name.
    public static let helperName = "keychain-authenticate"

    /// The helper executable.
    public var helper: URL
    /// The PAM service whose stack decides.
    public var service: String
    /// The terminal the user answers at.
    public var terminal: String
    /// A directory of PAM service files to use instead of `/etc/pam.d` (tests, packagers).
    public var serviceDirectory: String?

    public init(helper: URL, service: String = "keychain", terminal: String = "/dev/tty",
                serviceDirectory: String? = nil) {
        self.helper = helper
        self.service = service
        self.terminal = terminal
        self.serviceDirectory = serviceDirectory
    }

    /// How one authentication ended.
    public enum Outcome: Sendable, Equatable {
        case authenticated
        case notAuthenticated
        case canceled
        /// There is no terminal to ask at.
        case noTerminal
        /// PAM or the helper could not be used; the text says why.
        case unavailable(String)
    }

    /// The helper of this installation: `KEYCHAIN_AUTHENTICATE` (a path), else `keychain-authenticate` beside
    /// the running executable, else on `PATH`. - Returns: nil when there is none.
    public static func locate(_ environment: EnvironmentVariables) -> SystemOwnerAuthentication? {
        let manager = FileManager.default
        var candidates: [String] = []
        if let explicit = environment["KEYCHAIN_AUTHENTICATE"] { candidates.append(explicit) }
        if let executable = try? manager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent()
                .appendingPathComponent(helperName).path)
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(String(directory) + "/" + helperName)
        }
        guard let found = candidates.first(where: { manager.isExecutableFile(atPath: $0) }) else { return nil }
        return SystemOwnerAuthentication(helper: URL(fileURLWithPath: found))
    }

    /// Asks the user, showing `reason` first, and waits for the answer.
    public func authenticate(reason: String) -> Outcome {
        var arguments = [helper.path, "--service", service, "--terminal", terminal]
        if !reason.isEmpty { arguments += ["--reason", reason] }
        if let serviceDirectory { arguments += ["--pam-directory", serviceDirectory] }
        let run: HelperRun
        do {
            run = try HelperRun(arguments)
        } catch {
            return .unavailable("\(Self.helperName) could not be started: \(error)")
        }
        switch run.status {
        case 0: return .authenticated
        case 1: return .notAuthenticated
        case 2: return .canceled
        case 3: return .noTerminal
        default:
            let detail = run.errors.isEmpty ? "exit status \(run.status)" : run.errors
            return .unavailable("\(Self.helperName): \(detail)")
        }
    }
}

/// One run of the helper: standard input and output on /dev/null (it talks at the terminal itself), standard
/// error captured for the reason of a failure.
private struct HelperRun {
    let status: Int32
    let errors: String

    struct SpawnError: Error, CustomStringConvertible {
        let code: Int32
        var description: String { String(cString: strerror(code)) }
    }

    init(_ arguments: [String]) throws {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw SpawnError(code: errno) }
        defer { close(pipeEnds[0]) }
        // Only the helper's standard error may hold the write end: no other child may inherit either end.
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, arguments[0], &actions, nil, argv, environ)
        close(pipeEnds[1])
        guard spawned == 0 else { throw SpawnError(code: spawned) }
        var captured: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while captured.count < 4096 {
            let count = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            captured += chunk[..<count]
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { throw SpawnError(code: errno) }
        }
        // WIFEXITED / WEXITSTATUS by hand: the macros are not imported.
        self.status = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        errors = String(decoding: captured, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
