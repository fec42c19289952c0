/// A parsed command line: who to act as, and what to do.
public struct Invocation: Equatable, Sendable {
    public var identity: IdentityOptions
    public var command: SecurityCommand
    /// `-q`, `-v`, `--json`.
    public var output: OutputOptions
    /// The verb and its arguments as `-v` prints them before running it, as macOS does; secrets hidden.
    public var echo = ""

    public init(
        identity: IdentityOptions = IdentityOptions(), command: SecurityCommand, output: OutputOptions = OutputOptions()
    ) {
        self.identity = identity
        self.command = command
        self.output = output
    }
}

/// The global options that choose the caller identity, resolved as for library callers.
public struct IdentityOptions: Equatable, Sendable {
    /// `--entitlements FILE`: act as the identity this entitlements property list describes.
    public var entitlementsFile: String?
    /// `-G`/`--access-group GROUP`: the group to add to and search in. Without an entitlements file, the
    /// command acts as an identity whose only group is this one.
    public var accessGroup: String?
    /// `--app`: through keychaind, act as the app the daemon takes this process for, without asking for owner
    /// rights.
    public var actsAsApp = false

    public init(entitlementsFile: String? = nil, accessGroup: String? = nil, actsAsApp: Bool = false) {
        self.entitlementsFile = entitlementsFile
        self.accessGroup = accessGroup
        self.actsAsApp = actsAsApp
    }
}

/// What one run of the command does: one case per kind of verb.
public enum SecurityCommand: Equatable, Sendable {
    /// `help [verb]`: the overview, or one verb's usage.
    case help(SecurityVerb?)
    /// `add-generic-password`, `add-internet-password`.
    case addPassword(AddPasswordCommand)
    /// `find-generic-password`, `find-internet-password`.
    case findPassword(FindPasswordCommand)
    /// `delete-generic-password`, `delete-internet-password`.
    case deletePassword(DeletePasswordCommand)
    /// `dump-keychain`.
    case dumpKeychain(DumpKeychainCommand)
    /// `lock-keychain`.
    case lockKeychain
    /// `unlock-keychain`.
    case unlockKeychain(UnlockKeychainCommand)
    /// `set-keychain-password`, also `--remove`.
    case setKeychainPassword(SetKeychainPasswordCommand)
    /// `set-keychain-settings -t SECONDS`.
    case setKeychainSettings(SetKeychainSettingsCommand)
    /// `show-keychain-info`.
    case showKeychainInfo(ShowKeychainInfoCommand)
    /// `simulate-restart` (not on macOS): forgets unlocked class keys, as a reboot does.
    case simulateRestart
    /// `backup-keychain FILE`.
    case backupKeychain(BackupFileCommand)
    /// `restore-keychain FILE`.
    case restoreKeychain(BackupFileCommand)
    /// `error CODE...`: Apple's message for each status code, as `SecCopyErrorMessageString` gives it.
    case errorMessage([Int32])
    /// `doctor FUNCTION [FILE]` (not on macOS): what a SecItem call would do, without doing it.
    case doctor(DoctorCommand)
    /// `biometry ACTION` (not on macOS): drives the simulated biometric sensor.
    case biometry(BiometryCommand)
    case companion(CompanionCommand)  // `companion ACTION` (not on macOS): drives the simulated companion.
    /// `verify-cert -c FILE …`: evaluates trust in a chain.
    case verifyCert(VerifyCertCommand)
    /// `find-certificate`.
    case findCertificate(FindCertificateCommand)
    /// `find-identity`.
    case findIdentity(FindIdentityCommand)
    /// `delete-certificate`, `delete-identity`.
    case deleteCertificate(DeleteCertificateCommand)
    /// `add-certificates FILE…`.
    case addCertificates([String])
    /// `import FILE`.
    case importItems(ImportCommand)
    /// `export`.
    case exportItems(ExportCommand)
    /// `create-keypair NAME`.
    case createKeypair(CreateKeypairCommand)
    /// `-i`: read command lines from standard input, one per line.
    case interactive
    /// `daemon status`, `apps list`, `apps show PATH` (not on macOS): questions to keychaind itself.
    case daemonQuery(DaemonQuery)
}

/// A question to keychaind itself rather than to a keychain.
public enum DaemonQuery: Equatable, Sendable {
    /// `daemon status`.
    case status
    /// `apps list`.
    case listApps
    /// `apps show PATH`.
    case showApp(String)
}
