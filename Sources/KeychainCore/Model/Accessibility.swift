/// A data protection class (`kSecAttrAccessible`), named by Apple's raw values.
public enum Accessibility: String, Sendable, CaseIterable {
    case whenUnlocked = "ak"
    case afterFirstUnlock = "ck"
    case always = "dk"
    case whenUnlockedThisDeviceOnly = "aku"
    case afterFirstUnlockThisDeviceOnly = "cku"
    case alwaysThisDeviceOnly = "dku"
    case whenPasscodeSetThisDeviceOnly = "akpu"

    /// Classes whose items never leave this machine (no backup, no sync).
    public var isThisDeviceOnly: Bool {
        switch self {
        case .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly,
            .whenPasscodeSetThisDeviceOnly:
            true
        case .whenUnlocked, .afterFirstUnlock, .always: false
        }
    }

    /// The class used when an add names none (Apple: WhenUnlocked for passwords and keys).
    public static let `default` = Accessibility.whenUnlocked
}

extension Accessibility {
    /// Class A: available only while unlocked.
    static let classA: [Accessibility] = [.whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly]
}
