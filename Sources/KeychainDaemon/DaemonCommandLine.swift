/// `keychaind`'s command line.
package enum DaemonCommandLine {
    /// What the command line asks for.
    package enum Action: Equatable, Sendable {
        case run(DaemonConfiguration)
        /// `keychaind status [--socket PATH]`: asks a running daemon for its status and who it takes the asker for.
        case status(socketPath: String)
        case help
    }

    /// A command line that cannot be run, with the reason.
    package struct UsageError: Error, Equatable, CustomStringConvertible {
        package let description: String
    }

    package static let usage = """
        usage: keychaind --foreground [--state DIR] [--socket PATH] [--policy DIR] [options]
               keychaind status [--socket PATH]

        Holds the keychains of every user of the machine and serves them on a Unix socket. keychaind never
        forks: systemd (Type=notify) or the shell that starts it with --foreground supervises it.

          --state DIR                  state directory, one 0700 directory per uid (/var/lib/keychaind)
          --socket PATH                socket to listen on, unless systemd passes one (/run/keychaind/socket)
          --policy DIR                 administrator's policy, *.plist files (/etc/keychaind/apps.d)
          --policy-owner UID           who must own the policy files and path-only executables (0; for tests)
          --secure-enclave-setting FILE  the software enclave opt-in, owned as the policy
                                       (/etc/keychain/secure-enclave)
          --unknown-callers MODE       private (a private group from uid and executable path) or refuse
          --user NAME                  account to switch to when started as root (keychaind)
          --host-root DIR              the machine's root, through which callers' programs are looked at
                                       (/proc/1/root; keychaind's own / where it cannot look there)
          --max-message BYTES          largest message payload (20971520)
          --max-answer BYTES           largest answer, all its messages together (1073741824)
          --max-connections-per-uid N  connections one uid may hold open (64)
          --max-connections N          connections in all (1024)
          --idle-timeout SECONDS       close a connection silent this long (300)
          --hash-slots N               executables hashed at once, half of them for one uid (processors, at least 2)
          --max-keychain-size BYTES    largest database of one uid; more is errSecDiskFull (1073741824)
          --pam-service NAME           PAM service that authenticates a client's user (keychain)
          --pam-directory DIR          PAM service files instead of /etc/pam.d (tests)
          --authenticate-helper PATH   the keychain-authenticate helper (beside keychaind, else on PATH)
          --owner-window SECONDS       reuse of an owner authentication by one terminal session; 0: none (300)
          --passcode-prompts MODE      keychain (the keychain passcode, relayed) or pam (PAM run by keychaind)
          --fingerprint-reader         biometry is fprintd's reader, asked by keychaind (default: simulated)
          --fprintd-bus ADDRESS        the bus fprintd is on, instead of the system bus (tests)
          --help                       this text

        keychaind status asks the daemon at PATH for its status and for who it takes the caller to be.
        """

    package static func parse(_ arguments: [String]) throws(UsageError) -> Action {
        var configuration = DaemonConfiguration()
        var rest = arguments[...]
        let asksStatus = rest.first == "status"
        if asksStatus { rest.removeFirst() }
        func value(_ option: String) throws(UsageError) -> String {
            guard let next = rest.popFirst(), !next.hasPrefix("--") else {
                throw UsageError(description: "\(option) needs a value")
            }
            return next
        }
        func number(_ option: String, minimum: Int = 1) throws(UsageError) -> Int {
            let text = try value(option)
            guard let parsed = Int(text), parsed >= minimum else {
                throw UsageError(description: "\(option) needs a whole number of at least \(minimum), not \(text)")
            }
            return parsed
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": return .help
            case "--foreground" where !asksStatus: continue
            case "--state": configuration.stateDirectory = try value(argument)
            case "--socket": configuration.socketPath = try value(argument)
            case _ where asksStatus && argument != "--socket":
                throw UsageError(description: "keychaind status takes only --socket, not \(argument)")
            case "--policy": configuration.policyDirectory = try value(argument)
            case "--policy-owner":
                let owner = try number(argument, minimum: 0)
                guard let uid = UInt32(exactly: owner) else { throw UsageError(description: "no uid \(owner)") }
                configuration.policyOwner = uid
            case "--secure-enclave-setting": configuration.secureEnclaveSetting = try value(argument)
            case "--host-root": configuration.hostRoot = try value(argument)
            case "--unknown-callers":
                let mode = try value(argument)
                guard let parsed = CallerResolver.UnknownCallers(rawValue: mode) else {
                    throw UsageError(description: "--unknown-callers is private or refuse, not \(mode)")
                }
                configuration.unknownCallers = parsed
            case "--user": configuration.user = try value(argument)
            case "--max-message": configuration.limits.maximumPayload = try number(argument)
            case "--max-answer": configuration.limits.maximumAnswer = try number(argument)
            case "--max-connections-per-uid": configuration.limits.connectionsPerUID = try number(argument)
            case "--max-connections": configuration.limits.connections = try number(argument)
            case "--idle-timeout": configuration.limits.idleSeconds = try number(argument)
            case "--hash-slots": configuration.limits.hashSlots = try number(argument)
            case "--max-keychain-size": configuration.largestKeychainBytes = try number(argument, minimum: 65536)
            case "--fingerprint-reader" where !asksStatus: configuration.owner.usesFingerprintReader = true
            case "--fprintd-bus":
                configuration.owner.fprintdBus = try value(argument)
                configuration.owner.usesFingerprintReader = true
            case "--pam-service": configuration.owner.pamService = try value(argument)
            case "--pam-directory": configuration.owner.pamDirectory = try value(argument)
            case "--authenticate-helper": configuration.owner.helper = try value(argument)
            case "--owner-window": configuration.owner.windowSeconds = try number(argument, minimum: 0)
            case "--passcode-prompts":
                let mode = try value(argument)
                guard mode == "keychain" || mode == "pam" else {
                    throw UsageError(description: "--passcode-prompts is keychain or pam, not \(mode)")
                }
                configuration.owner.passcodePromptsUsePAM = mode == "pam"
            default: throw UsageError(description: "unknown option \(argument)")
            }
        }
        return asksStatus ? .status(socketPath: configuration.socketPath) : .run(configuration)
    }
}
