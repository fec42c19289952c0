import Foundation

/// Device-owner authentication by the system: the stack of PAM service `keychain` (PAM falls back to `other`,
/// on Debian the account password), run by the `keychain-authenticate` helper at the user's terminal. A keychain
/// configured with it asks there whenever a device-passcode prompt has no scripted answer, the way a Mac asks
/// for the login password.
///
/// PAM runs in the helper, not here, because PAM loads its modules as shared libraries and the release
/// `security` is a static executable; the helper also keeps PAM's modules out of the keychain's process.
package struct SystemOwnerAuthentication: Sendable, Equatable {
    /// The helper executable.
    package var helper: URL
    /// The PAM service whose stack decides.
    package var service: String
    /// The terminal the user answers at.
    package var terminal: String
    /// A directory of PAM service files to use instead of `/etc/pam.d` (tests, packagers).
    package var serviceDirectory: String?

    package init(
        helper: URL, service: String = "keychain", terminal: String = "/dev/tty",
        serviceDirectory: String? = nil
    ) {
        self.helper = helper
        self.service = service
        self.terminal = terminal
        self.serviceDirectory = serviceDirectory
    }

    /// The helper of this installation (see ``SystemHelper/locate(_:executableDirectory:)``).
    /// - Returns: nil when there is none.
    package static func locate(
        _ environment: EnvironmentVariables, executableDirectory: URL? = RunningExecutable.directory
    ) -> SystemOwnerAuthentication? {
        SystemHelper.locate(environment, executableDirectory: executableDirectory).map {
            SystemOwnerAuthentication(helper: $0)
        }
    }

    /// Asks the user, showing `reason` first, and waits for the answer.
    package func authenticate(reason: String) -> SystemAuthenticationOutcome {
        var arguments = ["--service", service, "--terminal", terminal]
        if !reason.isEmpty { arguments += ["--reason", SystemHelper.shown(reason)] }
        if let serviceDirectory { arguments += ["--pam-directory", serviceDirectory] }
        return SystemHelper.run(helper, arguments).outcome
    }
}
