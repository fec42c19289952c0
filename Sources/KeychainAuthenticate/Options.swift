/// The helper's command line. Every option has a default, so the keychain runs it as
/// `keychain-authenticate --reason TEXT` (PAM), `keychain-authenticate fingers` or
/// `keychain-authenticate fingerprint --reason TEXT`.
struct Options {
    enum Mode: String {
        /// Authenticate through PAM.
        case password
        /// List the fingers fprintd has enrolled for the user.
        case fingers
        /// Verify a finger with fprintd.
        case fingerprint
    }

    var mode = Mode.password
    /// The PAM service whose stack decides (`/etc/pam.d/keychain`; PAM uses `other` when that file is absent).
    var service = "keychain"
    /// The terminal the user answers at.
    var terminal = "/dev/tty"
    /// Why the app asks, shown first.
    var reason: String?
    /// A directory of PAM service files to use instead of `/etc/pam.d`.
    var serviceDirectory: String?
    /// The address of the bus fprintd is on (default: the system bus).
    var bus: String?
    /// The account to authenticate (default: the one running the helper). keychaind names its client's user.
    var user: String?
    /// Where the conversation happens: `terminal` (at ``terminal``) or `relay` (standard input and output,
    /// ``RelayConversation``).
    var relays = false

    static let usage = """
        usage: keychain-authenticate [--service NAME] [--pam-directory DIR] [--terminal PATH] [--reason TEXT]
               keychain-authenticate fingers [--bus ADDRESS]
               keychain-authenticate fingerprint [--bus ADDRESS] [--terminal PATH] [--reason TEXT]
               (each also takes --user NAME and --conversation terminal|relay)
        Authenticates the user running it (or the one --user names), through PAM or a fingerprint read by
        fprintd, at the terminal or relayed on standard input and output (keychaind); or lists the fingers
        fprintd has enrolled (lines "device PATH" and "finger NAME"). Exit status:
        0 authenticated, 1 not authenticated, 2 canceled, 3 no terminal, 4 PAM or fprintd could not be used,
        5 no fingerprint reader or no finger enrolled, 64 usage.

        """

    /// Parses `arguments` (without the program name). - Returns: nil when they are not understood.
    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var remaining = arguments[...]
        if let first = remaining.first, let mode = Mode(rawValue: first), mode != .password {
            options.mode = mode
            remaining.removeFirst()
        }
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst(), !value.isEmpty else { return nil }
            switch flag {
            case "--service": options.service = value
            case "--terminal": options.terminal = value
            case "--reason": options.reason = value
            case "--pam-directory": options.serviceDirectory = value
            case "--bus": options.bus = value
            case "--user": options.user = value
            case "--conversation":
                guard value == "relay" || value == "terminal" else { return nil }
                options.relays = value == "relay"
            default: return nil
            }
        }
        return options
    }
}
