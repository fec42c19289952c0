import Foundation
import SystemCalls

/// Everything an open keychain depends on, as a value: where it lives, who is calling, and the clock.
/// Tests build their own so that each gets a fresh keychain and none touches the user's.
public struct KeychainConfiguration: Sendable {
    /// The keychain home directory (database, device key, keybag).
    public var home: URL
    /// The caller the convenience API acts as: operations given no caller use its access groups. A service
    /// that serves many callers passes each one's identity per call instead.
    public var identity: CallerIdentity
    /// The source of creation and modification dates.
    public var clock: @Sendable () -> Date
    /// How long one passcode derivation should take, in seconds, when a passcode is set (about 80 ms, as
    /// Apple tunes its passcode key derivation; tests lower it).
    public var passcodeDerivationTarget: Double = 0.08
    /// How long a call waits for another process's write to the database before failing with a transient
    /// error, in seconds (10 unless set; tests lower it).
    public var databaseBusyTimeout: Double = 10
    /// Who answers a device-owner prompt that no test or demo scripted: the system, through PAM at the
    /// user's terminal, or nobody (nil: see ``ownerHelperMissing``). Nil unless set;
    /// ``fromEnvironment(_:executableDirectory:)`` sets it when the `keychain-authenticate` helper is installed.
    package var ownerAuthentication: SystemOwnerAuthentication?
    /// With no ``ownerAuthentication``: true when the system was meant to answer but its helper is not installed.
    /// An unscripted prompt then cannot be shown, and answers as a device that cannot show its passcode UI
    /// (`LAError.notInteractive`, errSecInteractionNotAllowed). False (tests, demos, `KEYCHAIN_AUTHENTICATION=
    /// simulated`): it is dismissed, as by a user who cancels (errSecUserCanceled).
    package var ownerHelperMissing = false
    /// The machine's fingerprint reader (fprintd), which then replaces the simulated sensor; nil unless set.
    /// ``fromEnvironment(_:)`` sets it when fprintd is installed and the helper is found.
    package var fingerprintReader: SystemFingerprintReader?
    /// Who asks the user for biometry, the passcode or the companion; nil (the default) asks in this process
    /// (``LocalUserPrompter``). A daemon sets one that forwards each prompt to its client.
    package var userPrompter: (any UserPrompter)?
    /// Keeps unlocked class keys in this process's memory even where the kernel keyring exists: keychaind's
    /// keys die with it (a daemon restart is a reboot for the lock state), and no other process shares them.
    package var classKeysInProcessMemory = false
    /// Runs adds, updates and deletes through a group committer on a second connection: concurrent writers share
    /// one transaction and one fsync, each in a savepoint of its own (keychaind). Off in embedded mode.
    package var groupCommit = false
    /// This process is the only writer of the home (keychaind, whose state directory no one else can open): the
    /// keybag changes only through this keychain, so it is not examined again (a `stat`) before each use, and the
    /// database is held by this process alone (no other process can open it while the keychain is open).
    package var soleWriterOfHome = false
    /// How many rows of a class a renewal's reseal reads and rewrites per write section: between two, other
    /// writers commit, and no more than this many rows are held in memory at once.
    package var resealBatchRows = 1_000
    /// Runs between two batches of a reseal, after the one before has committed (tests: what another caller does
    /// then).
    package var betweenResealBatches: (@Sendable () -> Void)?
    /// The most bytes the database may grow to (keychaind's `--max-keychain-size`): an add or update past it is
    /// errSecDiskFull (-34), so one user cannot fill the disk every user's keychain is on. Nil: no bound.
    package var largestDatabaseBytes: Int?

    public init(home: URL, identity: CallerIdentity, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.home = home
        self.identity = identity
        self.clock = clock
    }

    /// The configuration of this process: `KEYCHAIN_HOME` (else `$XDG_DATA_HOME/keychain`, else
    /// `~/.local/share/keychain`), the identity from `KEYCHAIN_ENTITLEMENTS` (else the local program's), and
    /// device-owner prompts through PAM when `keychain-authenticate` is found (unless
    /// `KEYCHAIN_AUTHENTICATION=simulated`). - Parameter executableDirectory: where the helper is looked for
    /// beside the running executable (tests give another).
    /// - Throws: `errSecMissingEntitlement` when `KEYCHAIN_ENTITLEMENTS` names a file that cannot be read.
    package static func fromEnvironment(
        _ environment: EnvironmentVariables = .process, executableDirectory: URL? = RunningExecutable.directory
    ) throws -> KeychainConfiguration {
        let home: URL
        if let explicit = environment["KEYCHAIN_HOME"] {
            home = URL(fileURLWithPath: explicit, isDirectory: true)
        } else if let data = environment["XDG_DATA_HOME"] {
            home = URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("keychain", isDirectory: true)
        } else {
            // XDG's default data dir is $HOME/.local/share: the HOME of the environment given, like the rest, else
            // the effective user's (a set-user-ID program reads no HOME, and must not write in its caller's home).
            let user =
                (environment["HOME"] ?? SystemCalls.effectiveUserHome).map {
                    URL(fileURLWithPath: $0, isDirectory: true)
                }
                ?? FileManager.default.homeDirectoryForCurrentUser
            home = user.appendingPathComponent(".local/share/keychain", isDirectory: true)
        }
        let identity: CallerIdentity
        if let path = environment["KEYCHAIN_ENTITLEMENTS"] {
            // A process whose entitlements cannot be read has none, which is errSecMissingEntitlement on Apple.
            do {
                identity = try CallerIdentity.entitlements(at: URL(fileURLWithPath: path))
            } catch let error as KeychainError {
                throw KeychainError.missingEntitlement.because(
                    "KEYCHAIN_ENTITLEMENTS: \(error.explanation ?? KeychainError.Reason(statusMessage: error.status))")
            }
        } else {
            identity = .localProgram(
                bundleIdentifier: Self.bundleIdentifierBesideExecutable(),
                executableName: Self.executableName())
        }
        var configuration = KeychainConfiguration(home: home, identity: identity)
        // KEYCHAIN_AUTHENTICATION=simulated keeps every prompt scripted, as in tests and demos.
        if environment["KEYCHAIN_AUTHENTICATION"] != "simulated" {
            configuration.ownerAuthentication = SystemOwnerAuthentication.locate(
                environment, executableDirectory: executableDirectory)
            configuration.ownerHelperMissing = configuration.ownerAuthentication == nil
            configuration.fingerprintReader = SystemFingerprintReader.locate(
                environment, executableDirectory: executableDirectory)
        }
        return configuration
    }

    /// Refuses settings that are not finite or out of range before anything is opened or converted.
    /// - Throws: `errSecParam` naming the setting and its range.
    func validate() throws {
        if !(0...60).contains(passcodeDerivationTarget) {  // false for NaN too
            throw KeychainError.param.because(
                "passcodeDerivationTarget must be a finite number of seconds from 0 to 60, "
                    + "not \(passcodeDerivationTarget)")
        }
        if !(0...3600).contains(databaseBusyTimeout) {
            throw KeychainError.param.because(
                "databaseBusyTimeout must be a finite number of seconds from 0 to 3600, not \(databaseBusyTimeout)")
        }
    }

    private static func executableName() -> String {
        URL(fileURLWithPath: CommandLine.arguments.first ?? "program").lastPathComponent
    }

    /// `CFBundleIdentifier` of an `Info.plist` beside this process's executable file (a stray `Info.plist` in the
    /// current directory must not choose the identity).
    private static func bundleIdentifierBesideExecutable() -> String? {
        guard let plist = RunningExecutable.directory?.appendingPathComponent("Info.plist"),
            let bytes = try? Data(contentsOf: plist),
            let dictionary = try? PropertyListSerialization.propertyList(from: bytes, format: nil) as? [String: Any]
        else { return nil }
        return dictionary["CFBundleIdentifier"] as? String
    }
}
