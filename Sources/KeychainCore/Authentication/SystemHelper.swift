import Foundation
import SystemCalls

/// How a system authentication ended (the `keychain-authenticate` helper's exit status).
package enum SystemAuthenticationOutcome: Sendable, Equatable {
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
    package func requireSuccess() throws {
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
package enum SystemHelper {
    /// The helper's file name.
    package static let name = "keychain-authenticate"

    /// The helper of this installation: `KEYCHAIN_AUTHENTICATE` (a path), else `keychain-authenticate` beside the
    /// running executable (in `executableDirectory`), else on `PATH`. - Returns: nil when there is none.
    package static func locate(
        _ environment: EnvironmentVariables, executableDirectory: URL? = RunningExecutable.directory
    ) -> URL? {
        let manager = FileManager.default
        var candidates: [String] = []
        if let explicit = environment["KEYCHAIN_AUTHENTICATE"] { candidates.append(explicit) }
        if let directory = executableDirectory {
            candidates.append(directory.appendingPathComponent(name).path)
        }
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
            let run = try SystemCalls.run([helper.path] + arguments)
            return Run(
                status: run.status, output: String(decoding: run.output, as: UTF8.self),
                errors: String(decoding: run.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            return Run(status: 127, output: "", errors: "\(helper.path) could not be started: \(error.message)")
        }
    }
}
