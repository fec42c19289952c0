import DaemonSystem
import Foundation
import KeychainCore
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// What `keychaind` does before serving, in order: make itself non-dumpable, take the socket (systemd's, else its
/// own), make the state directory, switch from root to its own account, read the policy.
package struct DaemonStartup: Sendable {
    /// Why the daemon cannot start.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package let server: DaemonServer
    package let listenerDescription: String
    private let configuration: DaemonConfiguration
    private let log: DaemonLog

    package init(
        configuration: DaemonConfiguration, log: DaemonLog, handler: (any DaemonHandler)? = nil
    )
        throws(Failure)
    {
        self.configuration = configuration
        self.log = log
        // Before any key is read: no core file, and no process of this uid may read the daemon's memory.
        do {
            try Privileges.keepMemoryPrivate()
        } catch {
            throw Failure(description: "cannot keep its memory from core files and tracing: \(error)")
        }
        // Each connection holds its socket and its process's pidfd: the usual soft limit (1,024) is less than two
        // per connection at --max-connections's default, and running out would refuse every user's connections.
        SystemCalls.raiseOpenFileLimit(upTo: Self.openFileLimit)
        let listener: UnixListener
        if let activated = ServiceManager.activatedSockets().first {
            do {
                listener = try UnixListener(adopting: activated)
            } catch {
                throw Failure(description: "cannot use the socket systemd passed: \(error)")
            }
            listenerDescription = "the socket systemd passed"
        } else {
            do {
                listener = try UnixListener(path: configuration.socketPath)
            } catch {
                throw Failure(description: "cannot listen on \(configuration.socketPath): \(error)")
            }
            listenerDescription = configuration.socketPath
        }
        let account = try Self.prepareStateDirectory(configuration, log: log)
        let resolver = Self.loadResolver(configuration, log: log)
        if let account {
            do {
                try Privileges.become(name: configuration.user, uid: account.uid, gid: account.gid)
            } catch {
                throw Failure(description: "cannot switch to user \(configuration.user): \(error)")
            }
            log.info(
                "running as user \(configuration.user) (uid \(account.uid)) with CAP_SYS_PTRACE and CAP_DAC_READ_SEARCH only"
            )
        }
        let engine = handler ?? Self.engine(configuration, log: log)
        let queued: @Sendable () -> Int = { (engine as? EngineHandler)?.keychains.pendingWrites ?? 0 }
        let turns = HashTurns(
            slots: configuration.limits.hashSlots, patience: Double(configuration.limits.idleSeconds))
        server = DaemonServer(
            listener: listener, limits: configuration.limits, resolver: resolver, handler: engine, log: log,
            inspector: PeerInspector(digester: ExecutableDigester(turns: turns)), queueDepth: queued)
    }

    /// The most open files the daemon asks for (the soft limit is raised to the hard one, up to this).
    static let openFileLimit: UInt64 = 65_536

    /// The engine, with the system authentication the configuration names for owner rights (and device-passcode
    /// prompts with `--passcode-prompts pam`).
    private static func engine(_ configuration: DaemonConfiguration, log: DaemonLog) -> EngineHandler {
        let settings = configuration.owner
        let authentication = settings.authentication(environment: .process)
        if let authentication {
            log.info(
                "owner authentication: PAM service \(authentication.service) by \(authentication.helper.path); "
                    + "reuse window \(settings.windowSeconds) s; device-passcode prompts: "
                    + (settings.passcodePromptsUsePAM ? "PAM" : "the keychain passcode") + "; biometry: "
                    + (settings.usesFingerprintReader ? "fprintd" : "the simulated sensor"))
        } else {
            log.warning("no \(SystemHelper.name) found: owner rights cannot be granted")
        }
        let keychains = UserKeychains(
            stateDirectory: configuration.stateDirectory,
            passcodeSystem: settings.passcodePromptsUsePAM ? authentication : nil,
            fingerprintReader: { settings.fingerprintReader(user: $0, authentication: authentication) },
            largestDatabaseBytes: configuration.largestKeychainBytes)
        let owner = OwnerRights(settings: settings, authentication: authentication, log: log)
        let enclaveSetting = SecureEnclaveSetting(
            path: configuration.secureEnclaveSetting, administrator: configuration.policyOwner)
        return EngineHandler(keychains: keychains, owner: owner, enclaveSetting: enclaveSetting)
    }

    /// The policy read again (SIGHUP).
    package func loadResolver() -> CallerResolver { Self.loadResolver(configuration, log: log) }

    private static func loadResolver(_ configuration: DaemonConfiguration, log: DaemonLog) -> CallerResolver {
        let policy = PolicyDirectory.load(configuration.policyDirectory, owner: configuration.policyOwner)
        for problem in policy.problems { log.warning(problem) }
        log.info(
            "policy \(configuration.policyDirectory): \(policy.rules.count) rules; unknown callers: "
                + configuration.unknownCallers.rawValue)
        let host = HostView(root: configuration.hostRoot)
        if configuration.unknownCallers == .privateGroup && !host.isVisible {
            log.warning(
                "cannot look through \(configuration.hostRoot) (it needs ptrace read access to that process): private "
                    + "groups' paths are looked up in keychaind's own view, where a unit's ProtectHome and PrivateTmp "
                    + "hide programs in /home and /tmp")
        }
        return CallerResolver(
            policy: policy, unknownCallers: configuration.unknownCallers, trustedOwner: configuration.policyOwner,
            hostView: host)
    }

    /// Makes the state directory (0700). As root, returns the account to switch to after giving it the directory,
    /// or nil (staying root, with a warning) when the account does not exist.
    private static func prepareStateDirectory(
        _ configuration: DaemonConfiguration, log: DaemonLog
    ) throws(Failure) -> (uid: UInt32, gid: UInt32)? {
        let path = configuration.stateDirectory
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure(description: "cannot create the state directory \(path): \(error)")
        }
        guard chmod(path, 0o700) == 0 else { throw Failure(description: "cannot make \(path) 0700") }
        guard getuid() == 0 else { return nil }
        guard let account = Privileges.account(named: configuration.user) else {
            log.warning(
                "user \(configuration.user) does not exist: keychaind stays root (create it with "
                    + "systemd-sysusers, see docs/keychaind.md)")
            return nil
        }
        guard chown(path, account.uid, account.gid) == 0 else {
            throw Failure(description: "cannot give \(path) to \(configuration.user)")
        }
        return account
    }
}
