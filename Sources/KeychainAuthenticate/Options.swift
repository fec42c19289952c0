/// The helper's command line. Every option has a default, so the keychain runs it as
/// `keychain-authenticate --reason TEXT`.
struct Options {
    /// The PAM service whose stack decides (`/etc/pam.d/keychain`; PAM uses `other` when that file is absent).
    var service = "keychain"
    /// The terminal the user answers at.
    var terminal = "/dev/tty"
    /// Why the app asks, shown before PAM's own prompts.
    var reason: String?
    /// A directory of PAM service files to use instead of `/etc/pam.d`.
    var serviceDirectory: String?

    static let usage = """
        usage: keychain-authenticate [--service NAME] [--terminal PATH] [--reason TEXT] [--pam-directory DIR]
        Authenticates the user running it through PAM, at the terminal. Exit status: 0 authenticated,
        1 not authenticated, 2 canceled, 3 no terminal, 4 PAM could not be used, 64 usage.

        """

    /// Parses `arguments` (without the program name). - Returns: nil when they are not understood.
    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst(), !value.isEmpty else { return nil }
            switch flag {
            case "--service": options.service = value
            case "--terminal": options.terminal = value
            case "--reason": options.reason = value
            case "--pam-directory": options.serviceDirectory = value
            default: return nil
            }
        }
        return options
    }
}
