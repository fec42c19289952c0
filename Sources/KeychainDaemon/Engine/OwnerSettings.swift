import KeychainCore

/// How keychaind authenticates a client's user itself and grants owner rights (`--pam-service`,
/// `--pam-directory`, `--authenticate-helper`, `--owner-window`, `--passcode-prompts`): the daemon's own
/// command line, never the client's.
package struct OwnerSettings: Sendable, Equatable {
    /// The PAM service whose stack authenticates the owner.
    package var pamService = "keychain"
    /// A directory of PAM service files instead of `/etc/pam.d` (tests).
    package var pamDirectory: String?
    /// The `keychain-authenticate` helper; nil: found beside the daemon or on its `PATH` at start.
    package var helper: String?
    /// Seconds an owner authentication may be reused by later processes of the same terminal session; 0: never.
    package var windowSeconds = 300
    /// Whether a request's device-passcode prompt is PAM run by the daemon (true) or the keychain passcode
    /// relayed from the client and checked against the keybag (false, the default).
    package var passcodePromptsUsePAM = false
    /// Whether biometry is the machine's fingerprint reader, asked through fprintd by the daemon for the
    /// client's user (`--fingerprint-reader`), instead of the simulated sensor.
    package var usesFingerprintReader = false
    /// The bus fprintd is on; nil for the system bus (`--fprintd-bus`, tests).
    package var fprintdBus: String?

    package init() {}

    /// The fingerprint reader for the keychain of `user`, when the settings ask for one and the helper is there.
    package func fingerprintReader(
        user: String, authentication: SystemOwnerAuthentication?
    ) -> SystemFingerprintReader? {
        guard usesFingerprintReader, let authentication else { return nil }
        return SystemFingerprintReader(helper: authentication.helper, bus: fprintdBus, user: user)
    }

    /// The system authentication these settings name, when the helper is there.
    package func authentication(environment: EnvironmentVariables) -> SystemOwnerAuthentication? {
        var located = SystemOwnerAuthentication.locate(helper.map { ["KEYCHAIN_AUTHENTICATE": $0] } ?? environment)
        if let helper, located?.helper.path != helper { located = nil }
        located?.service = pamService
        located?.serviceDirectory = pamDirectory
        return located
    }
}
