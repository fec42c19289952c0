extension SecurityVerb {
    /// The usage text `security help VERB` prints, in macOS's layout.
    public var usage: String {
        switch self {
        case .help:
            return """
                Usage: help [command]
                    Show all commands, or show usage for a command.
                """
        case .addGenericPassword:
            return """
                Usage: add-generic-password [-a account] [-s service] [-w password] [options...] [-A|-T appPath]
                    -a  Specify account name
                    -c  Specify item creator (optional four-character code)
                    -C  Specify item type (optional four-character code)
                    -D  Specify kind (description)
                    -G  Specify generic attribute (optional)
                    -j  Specify comment string (optional)
                    -l  Specify label (if omitted, service name is used as default label)
                    -s  Specify service name
                    -p  Specify password to be added (legacy option, equivalent to -w)
                    -w  Specify password to be added. Put at end of command to be prompted (recommended)
                    -X  Specify password data to be added as a hexadecimal string
                    -A  Accepted for compatibility; has no effect (access is by access group)
                    -T  Accepted for compatibility; has no effect (access is by access group)
                    -U  Update item if it already exists (if omitted, the item cannot already exist)
                With -w last, the password is asked for at the terminal, or one line is read from standard input
                when it is not a terminal. With no -w, -p or -X a new item gets an empty password, as on macOS
                (with -U an existing item keeps its own).
                """
        case .findGenericPassword, .deleteGenericPassword:
            let verb = rawValue
            let extra = self == .findGenericPassword ? " [-g] [-w]" : ""
            var text = """
                Usage: \(verb) [-a account] [-s service] [options...]\(extra)
                    -a  Match "account" string
                    -c  Match "creator" (four-character code)
                    -C  Match "type" (four-character code)
                    -D  Match "kind" string
                    -G  Match "value" string (generic attribute)
                    -j  Match "comment" string
                    -l  Match "label" string
                    -s  Match "service" string
                """
            if self == .findGenericPassword {
                text += """

                        -g  Display the password for the item found
                        -w  Display only the password on stdout
                    """
            }
            return text
        case .addInternetPassword:
            return """
                Usage: add-internet-password [-a account] [-s server] [-w password] [options...] [-A|-T appPath]
                    -a  Specify account name
                    -c  Specify item creator (optional four-character code)
                    -C  Specify item type (optional four-character code)
                    -d  Specify security domain string (optional)
                    -D  Specify kind (description)
                    -j  Specify comment string (optional)
                    -l  Specify label (if omitted, server name is used as default label)
                    -p  Specify path string (optional)
                    -P  Specify port number (optional)
                    -r  Specify protocol (optional four-character code, e.g. "http", "htps", "ftp ")
                    -s  Specify server name
                    -t  Specify authentication type (four-character code; default is "dflt")
                    -w  Specify password to be added. Put at end of command to be prompted (recommended)
                    -X  Specify password data to be added as a hexadecimal string
                    -A  Accepted for compatibility; has no effect (access is by access group)
                    -T  Accepted for compatibility; has no effect (access is by access group)
                    -U  Update item if it already exists (if omitted, the item cannot already exist)
                With -w last, the password is asked for at the terminal, or one line is read from standard input
                when it is not a terminal. With no -w, -p or -X a new item gets an empty password, as on macOS
                (with -U an existing item keeps its own).
                """
        case .findInternetPassword, .deleteInternetPassword:
            let verb = rawValue
            let extra = self == .findInternetPassword ? " [-g] [-w]" : ""
            var text = """
                Usage: \(verb) [-a account] [-s server] [options...]\(extra)
                    -a  Match "account" string
                    -c  Match "creator" (four-character code)
                    -C  Match "type" (four-character code)
                    -d  Match "securityDomain" string
                    -D  Match "kind" string
                    -j  Match "comment" string
                    -l  Match "label" string
                    -p  Match "path" string
                    -P  Match port number
                    -r  Match "protocol" (four-character code)
                    -s  Match "server" string
                    -t  Match "authenticationType" (four-character code)
                """
            if self == .findInternetPassword {
                text += """

                        -g  Display the password for the item found
                        -w  Display only the password on stdout
                    """
            }
            return text
        case .dumpKeychain:
            return """
                Usage: dump-keychain [-d] [-o file]
                    -d  Dump the (decrypted) secret data of every item
                    -o  Write the listing to file instead of standard output
                """
        case .lockKeychain, .unlockKeychain, .setKeychainPassword, .setKeychainSettings, .showKeychainInfo,
            .simulateRestart, .backupKeychain, .restoreKeychain:
            return protectionUsage
        case .error:
            return """
                Usage: error <error code> [<error code>...]
                    Display an error string for the given security-related error code.
                    The error can be in decimal or hex, e.g. 1234 or 0x1234. Multiple errors can be separated by spaces.
                """
        case .biometry:
            return """
                Usage: biometry enroll|unenroll|match|nomatch|cancel|fallback|change-enrollment|status
                    The simulated sensor LAContext and biometry-protected items use: match, nomatch, cancel and
                    fallback queue the user's reaction to the next prompt; change-enrollment adds a finger.
                """
        case .verifyCert, .findCertificate, .findIdentity, .deleteCertificate, .deleteIdentity, .addCertificates,
            .importItems, .exportItems, .createKeypair:
            return certificateUsage
        case .companion: return "Usage: companion pair|unpair|approve|deny|cancel|status\n    The simulated watch."
        case .daemon:
            return """
                Usage: daemon status
                    Ask keychaind (KEYCHAIN_SOCKET, or the socket in /etc/keychain/daemon) for its version, uptime,
                    clients, queue depth and your keychain's lock state, then who it takes this command to be.
                """
        case .apps:
            return """
                Usage: apps list
                       apps show PATH
                    list: the rules of keychaind's policy, each with the entitlements it gives.
                    show: the identity keychaind gives the executable at PATH (its hash, the rule or private group).
                """
        case .doctor:
            return """
                Usage: doctor [add|copy|update|delete] [file]
                    Read a SecItem dictionary as JSON (from file, or standard input) and explain what the keychain
                    would do with it, without changing anything: the status and reason, the items it would match
                    (their primary keys, never secrets) and, for add, whether it would collide.
                    Keys are Apple's raw strings or kSec constant names: {"class": "genp", "svce": "x"} or
                    {"kSecClass": "kSecClassGenericPassword", "kSecAttrService": "x"}. For update, give
                    {"query": {...}, "attributesToUpdate": {...}}; "function" may name the function instead.
                """
        }
    }

    /// The text of `security help`: the global options and every verb with its summary.
    public static var overview: String {
        let verbs = allCases.map { verb in
            verb.rawValue.padding(toLength: 28, withPad: " ", startingAt: 0) + verb.summary
        }
        return """
            Usage: security [-i] [-l] [-p prompt] [-q] [-v] [--json] [--entitlements FILE] [-G|--access-group GROUP]
                            command [options]
                -i                         Interactive/batch mode: read commands from standard input, one a line
                -l                         Accepted for macOS scripts (runs leaks there); ignored, with a warning
                -p prompt                  Set the prompt of interactive mode (implies -i)
                -q                         Be less verbose: no reason lines, notes or warnings
                -v                         Be more verbose: the command first, and the status and exit code of a failure
                --json                     Structured output for scripts (also accepted after any command)
                --entitlements FILE        Act as the identity of this entitlements property list
                -G, --access-group GROUP   Use this access group (alone: act as an identity whose only group it is)
                --app                      Through keychaind: act as an app, without asking for owner rights
                -h, --help                 Show this text
            The keychain is the one in KEYCHAIN_HOME (else $XDG_DATA_HOME/keychain).
            KEYCHAIN_ENTITLEMENTS, when set, is the identity: -G and --entitlements can only narrow it.

            security commands are:
            \(verbs.map { "    " + $0 }.joined(separator: "\n"))
            """
    }
}
