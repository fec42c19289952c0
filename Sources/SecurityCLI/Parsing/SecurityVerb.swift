/// A verb of the `security` command, named as on macOS.
public enum SecurityVerb: String, CaseIterable, Sendable {
    case help
    case addGenericPassword = "add-generic-password"
    case findGenericPassword = "find-generic-password"
    case deleteGenericPassword = "delete-generic-password"
    case addInternetPassword = "add-internet-password"
    case findInternetPassword = "find-internet-password"
    case deleteInternetPassword = "delete-internet-password"
    case dumpKeychain = "dump-keychain"
    case lockKeychain = "lock-keychain"
    case unlockKeychain = "unlock-keychain"
    case setKeychainPassword = "set-keychain-password"
    case setKeychainSettings = "set-keychain-settings"
    case showKeychainInfo = "show-keychain-info"
    case simulateRestart = "simulate-restart"
    case backupKeychain = "backup-keychain"
    case restoreKeychain = "restore-keychain"
    case error
    case doctor
    case biometry
    case companion
    case verifyCert = "verify-cert"
    case findCertificate = "find-certificate"
    case findIdentity = "find-identity"
    case deleteCertificate = "delete-certificate"
    case deleteIdentity = "delete-identity"
    case addCertificates = "add-certificates"
    case importItems = "import"
    case exportItems = "export"
    case createKeypair = "create-keypair"
    case daemon
    case apps

    /// The one-line description `security help` lists.
    public var summary: String {
        switch self {
        case .help: "Show all commands, or show usage for a command."
        case .addGenericPassword: "Add a generic password item."
        case .findGenericPassword: "Find a generic password item."
        case .deleteGenericPassword: "Delete a generic password item."
        case .addInternetPassword: "Add an internet password item."
        case .findInternetPassword: "Find an internet password item."
        case .deleteInternetPassword: "Delete an internet password item."
        case .dumpKeychain: "Dump the contents of the keychain."
        case .lockKeychain: "Lock the keychain."
        case .unlockKeychain: "Unlock the keychain."
        case .setKeychainPassword: "Set, change or remove the keychain's passcode."
        case .setKeychainSettings: "Set the keychain's lock timeout (grace period)."
        case .showKeychainInfo: "Show the keychain's lock state and passcode settings."
        case .simulateRestart: "Forget unlocked class keys as a restart does (tests and demos)."
        case .backupKeychain: "Write an encrypted backup of the keychain."
        case .restoreKeychain: "Restore the items of an encrypted backup."
        case .error: "Display a descriptive message for the given error code(s)."
        case .doctor: "Explain what a SecItem call with a JSON dictionary would do, without doing it."
        case .biometry: "Drive the simulated biometric sensor (enroll, match, nomatch, cancel, status...)."
        case .companion: "Drive the simulated companion watch (pair, unpair, approve, deny, cancel, status)."
        case .verifyCert: "Verify a certificate chain."
        case .findCertificate: "Find a certificate item."
        case .findIdentity: "Find an identity (certificate + private key)."
        case .deleteCertificate: "Delete a certificate from the keychain."
        case .deleteIdentity: "Delete an identity (certificate + private key) from the keychain."
        case .addCertificates: "Add certificates to the keychain."
        case .importItems: "Import items (certificates, keys, PKCS#12 identities) into the keychain."
        case .exportItems: "Export items from the keychain (PEM sequence or PKCS#12)."
        case .createKeypair: "Create an asymmetric key pair."
        case .daemon: "Show keychaind's version, clients and lock state, and who you are (status)."
        case .apps: "Show keychaind's policy (list), or what it makes of an executable (show PATH)."
        }
    }

    /// The options the verb accepts, as `getopt` would declare them.
    var options: OptionSpecification {
        switch self {
        case .help: OptionSpecification(valued: "", flags: "")
        case .addGenericPassword: OptionSpecification(valued: "acCDGjlspwXT", flags: "AU", promptsWhenLast: "pw")
        case .findGenericPassword: OptionSpecification(valued: "acCDGjls", flags: "gw")
        case .deleteGenericPassword: OptionSpecification(valued: "acCDGjls", flags: "")
        case .addInternetPassword:
            // macOS asks for the password for a -p (the path here) given last too (keychain_add.c).
            OptionSpecification(valued: "acCdDjlpPrstwXT", flags: "AU", promptsWhenLast: "pw")
        case .findInternetPassword: OptionSpecification(valued: "acCdDjlpPrst", flags: "gw")
        case .deleteInternetPassword: OptionSpecification(valued: "acCdDjlpPrst", flags: "")
        case .dumpKeychain: OptionSpecification(valued: "o", flags: "adir")
        case .lockKeychain: OptionSpecification(valued: "", flags: "a")
        case .unlockKeychain: OptionSpecification(valued: "p", flags: "u")
        case .setKeychainPassword: OptionSpecification(valued: "op", flags: "", longFlags: ["remove"])
        case .setKeychainSettings: OptionSpecification(valued: "t", flags: "lu")
        case .showKeychainInfo: OptionSpecification(valued: "", flags: "", longFlags: ["json"])
        case .simulateRestart: OptionSpecification(valued: "", flags: "")
        case .biometry, .companion: OptionSpecification(valued: "", flags: "")
        case .backupKeychain, .restoreKeychain: OptionSpecification(valued: "p", flags: "")
        case .error, .doctor: OptionSpecification(valued: "", flags: "")
        case .verifyCert: OptionSpecification(valued: "cdknprRs", flags: "CLlNq")
        case .findCertificate: OptionSpecification(valued: "cek", flags: "ampZ")
        case .findIdentity: OptionSpecification(valued: "psk", flags: "v")
        case .deleteCertificate, .deleteIdentity: OptionSpecification(valued: "cZk", flags: "t")
        case .addCertificates: OptionSpecification(valued: "k", flags: "")
        case .importItems: OptionSpecification(valued: "kftPT", flags: "wxA")
        case .exportItems: OptionSpecification(valued: "kftPo", flags: "wpq")
        case .createKeypair: OptionSpecification(valued: "asfdtkT", flags: "A")
        case .daemon, .apps: OptionSpecification(valued: "", flags: "")
        }
    }
}
