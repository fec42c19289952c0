import Foundation

/// A fingerprint reader of this machine, driven by fprintd: the `keychain-authenticate` helper lists the
/// fingers fprintd has enrolled for the user and verifies a finger, talking to fprintd over D-Bus.
package struct SystemFingerprintReader: Sendable, Equatable {
    /// The helper executable.
    package var helper: URL
    /// The address of the bus fprintd is on; nil for the system bus (tests run their own).
    package var bus: String?
    /// The terminal the prompt is shown at (and where Enter cancels).
    package var terminal: String
    /// The account whose fingers count; nil for the one running the helper (keychaind names its client's).
    package var user: String?

    package init(helper: URL, bus: String? = nil, terminal: String = "/dev/tty", user: String? = nil) {
        self.helper = helper
        self.bus = bus
        self.terminal = terminal
        self.user = user
    }

    /// The reader of this machine when fprintd is installed (or `KEYCHAIN_FPRINTD_BUS` names a bus) and the
    /// helper is found. - Returns: nil otherwise.
    package static func locate(
        _ environment: EnvironmentVariables, executableDirectory: URL? = RunningExecutable.directory
    ) -> SystemFingerprintReader? {
        let bus = environment["KEYCHAIN_FPRINTD_BUS"]
        guard bus != nil || SystemAuthenticationBackEnds.fprintdIsInstalled,
            let helper = SystemHelper.locate(environment, executableDirectory: executableDirectory)
        else { return nil }
        return SystemFingerprintReader(helper: helper, bus: bus)
    }

    /// What fprintd reports: the reader and the fingers enrolled on it for the user.
    package struct Enrollment: Sendable, Equatable {
        package let device: String
        package let fingers: [String]
    }

    /// The reader's enrollment now. - Returns: nil when there is no reader; throws when fprintd cannot be asked.
    func enrollment() throws -> Enrollment? {
        let run = SystemHelper.run(helper, ["fingers"] + identityArguments)
        switch run.outcome {
        case .authenticated:
            var device = ""
            var fingers: [String] = []
            for line in run.output.split(separator: "\n") {
                if line.hasPrefix("device ") { device = String(line.dropFirst("device ".count)) }
                if line.hasPrefix("finger ") { fingers.append(String(line.dropFirst("finger ".count))) }
            }
            return Enrollment(device: device, fingers: fingers.sorted())
        case .noReader:
            return nil
        case let other:
            throw KeychainError.notAvailable.because("the fingerprint reader cannot be asked: \(other)")
        }
    }

    /// Asks for a finger, showing `reason` first.
    func verify(reason: String) -> SystemAuthenticationOutcome {
        var arguments = ["fingerprint", "--terminal", terminal] + identityArguments
        if !reason.isEmpty { arguments += ["--reason", SystemHelper.shown(reason)] }
        return SystemHelper.run(helper, arguments).outcome
    }

    /// The bus and the user, when they are not the defaults.
    var identityArguments: [String] { (bus.map { ["--bus", $0] } ?? []) + (user.map { ["--user", $0] } ?? []) }
}
