import KeychainCore
import KeychainRequests

#if canImport(Glibc)
    import Glibc
#endif

/// The item verbs through keychaind: the command acts as the app the daemon takes it for, or, when it has a
/// terminal and `--app` is not given, first claims owner rights, for which the daemon asks the user's system
/// password (PAM) at this terminal, or reuses this terminal session's grant (docs/security-command.md).
extension SecurityCommandRunner {
    func daemonClient(_ socket: String, identity: IdentityOptions, asOwner: Bool) -> KeychainClient {
        let service = DaemonKeychainService(socketPath: socket)
        let app: CallerIdentity
        do {
            app = try service.identify()
        } catch {
            let failure =
                error as? KeychainError
                ?? KeychainError(SecurityStatus.notAvailable, reason: KeychainError.Reason(verbatim: "\(error)"))
            let unreachable = UnreachableKeychain(failure: failure)
            return KeychainClient(service: unreachable, caller: Caller(identity: unreachable.callerIdentity))
        }
        if asOwner && !identity.actsAsApp && Self.hasTerminal {
            do {
                let grant = try service.claimOwnerRights(message: "security wants to act for the keychain's owner.")
                if !grant.isGranted, !format.quiet {
                    errors.writeLine(
                        "security: owner rights not granted (\(grant.status)): \(grant.reason); acting as "
                            + (app.applicationIdentifier ?? "an app"))
                }
            } catch {
                // The daemon cannot be reached: the verb's own request reports it.
            }
        }
        return KeychainClient(service: service, caller: Caller(identity: service.callerIdentity))
    }

    /// How to open a client with owner rights, when this command could claim them: through keychaind, with a
    /// terminal to ask at, and without `--app`. Claiming asks, so it is left to the caller to decide when.
    func ownerClient(_ identity: IdentityOptions) -> (() -> KeychainClient)? {
        guard case .environment = source, let socket = daemonSocket, !identity.actsAsApp, Self.hasTerminal else {
            return nil
        }
        return { self.daemonClient(socket, identity: identity, asOwner: true) }
    }

    /// Whether this process has a controlling terminal to ask at.
    static var hasTerminal: Bool {
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard terminal >= 0 else { return false }
        close(terminal)
        return true
    }
}
