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

    package init() {}

    /// The system authentication these settings name, when the helper is there.
    package func authentication(environment: EnvironmentVariables) -> SystemOwnerAuthentication? {
        var located = SystemOwnerAuthentication.locate(helper.map { ["KEYCHAIN_AUTHENTICATE": $0] } ?? environment)
        if let helper, located?.helper.path != helper { located = nil }
        located?.service = pamService
        located?.serviceDirectory = pamDirectory
        return located
    }
}
