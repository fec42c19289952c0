import KeychainCore
import KeychainWire

/// Everything `keychaind` is started with (its command line).
package struct DaemonConfiguration: Sendable, Equatable {
    package var stateDirectory = "/var/lib/keychaind"
    package var socketPath = "/run/keychaind/socket"
    package var policyDirectory = "/etc/keychaind/apps.d"
    /// Who must own the policy files and the executables of path-only rules: root, except in tests.
    package var policyOwner: UInt32 = 0
    /// The administrator's software enclave opt-in (owned as the policy): where no TPM answers the daemon, its
    /// enclave keys are software keys only with it. A client's own setting does not count.
    package var secureEnclaveSetting = SecureEnclaveSetting.system.path
    package var unknownCallers = CallerResolver.UnknownCallers.privateGroup
    /// The root through which callers' programs are looked at (``HostView``).
    package var hostRoot = HostView.firstProcessRoot
    /// The account the daemon switches to when started as root.
    package var user = "keychaind"
    package var limits = ConnectionLimits()
    /// The most bytes one uid's keychain database may take: 1 GiB, many thousand times a keychain's usual size,
    /// so that one user cannot fill the disk all users' keychains are on.
    package var largestKeychainBytes = 1 << 30
    /// The system authentication and owner rights (Engine/OwnerSettings.swift).
    package var owner = OwnerSettings()

    package init() {}
}

/// The limits that keep one client from taking the daemon for itself.
package struct ConnectionLimits: Sendable, Equatable {
    /// The largest payload of one message, in bytes: 20 MiB, so that a request carrying the engine's largest value
    /// (16 MiB) and its attributes is served as an embedded keychain would serve it.
    package var maximumPayload = 20 << 20
    /// The largest whole answer, all its frames together, in bytes: 1 GiB. A larger one is refused with
    /// errSecAllocate (docs/keychaind.md).
    package var maximumAnswer = Frame.defaultLargestAnswer
    /// Connections one uid may hold open at once.
    package var connectionsPerUID = 64
    /// Connections in all.
    package var connections = 1024
    /// Seconds a connection may stay silent before the daemon closes it; also how long a caller waits for a turn
    /// at having its executable read (``hashSlots``).
    package var idleSeconds = 300
    /// Executables read for their SHA-256 at once, for all users; one uid gets half of them (``HashTurns``).
    package var hashSlots = HashTurns.defaultSlots

    package init() {}
}
