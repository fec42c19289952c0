import KeychainMessages

/// macOS `security` verbs this command does not have, each with why and the nearest verb it has, so that a Mac
/// user's command line gets one line of explanation instead of "unknown command" and the whole usage.
enum MacOSOnlyVerb {
    /// Why `name` is not here and the nearest verb; nil when macOS's `security` has no such verb either.
    static func explanation(for name: String) -> (reason: UsageMessage.UnsupportedVerbReason, nearest: String)? {
        if let nearest = oneKeychain[name] { return (.oneKeychain, nearest) }
        if partitionLists.contains(name) { return (.accessGroups, "security -G GROUP add-generic-password …") }
        if keysAndCertificates.contains(name) { return (.keysAndCertificates, "find-identity") }
        if macOSServices.contains(name) { return (.macOSService, "help") }
        return nil
    }

    /// Verbs about keychain files, with the verb that does what is left of them here.
    private static let oneKeychain: [String: String] = [
        "list-keychains": "show-keychain-info",
        "default-keychain": "show-keychain-info",
        "login-keychain": "show-keychain-info",
        "create-keychain": "set-keychain-password",
        "delete-keychain": "delete-generic-password",
        "create-db": "show-keychain-info",
        "create-filevaultmaster-keychain": "set-keychain-password",
    ]

    private static let partitionLists: Set<String> = [
        "set-generic-password-partition-list", "set-internet-password-partition-list", "set-key-partition-list",
    ]

    private static let keysAndCertificates: Set<String> = [
        "find-key", "set-identity-preference", "get-identity-preference", "export-smartcard", "add-trusted-cert",
        "remove-trusted-cert", "dump-trust-settings", "user-trust-settings-enable", "trust-settings-export",
        "trust-settings-import", "cms", "smartcards", "list-smartcards",
    ]

    private static let macOSServices: Set<String> = [
        "authorize", "authorizationdb", "execute-with-privileges", "leaks", "install-mds", "translocate-create",
        "translocate-policy-check", "translocate-status-check", "translocate-original-path",
        "requirement-evaluate", "filevault",
    ]
}
