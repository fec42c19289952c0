/// Names of Keychain Services constants and functions, as both Swift and Objective-C spell them.
package enum KeychainSymbols {
    static let accessible = "kSecAttrAccessible"
    static let accessControl = "kSecAttrAccessControl"
    static let synchronizable = "kSecAttrSynchronizable"
    static let itemClass = "kSecClass"
    static let account = "kSecAttrAccount"
    static let service = "kSecAttrService"
    static let server = "kSecAttrServer"
    static let matchLimit = "kSecMatchLimit"
    static let matchLimitAll = "kSecMatchLimitAll"
    static let dataProtectionKeychain = "kSecUseDataProtectionKeychain"
    static let authenticationContext = "kSecUseAuthenticationContext"

    static let alwaysClasses: Set<String> = ["kSecAttrAccessibleAlways", "kSecAttrAccessibleAlwaysThisDeviceOnly"]
    static let migratingClasses: Set<String> = [
        "kSecAttrAccessibleAfterFirstUnlock", "kSecAttrAccessibleWhenUnlocked", "kSecAttrAccessibleAlways",
    ]

    /// The replacement that keeps background access but honours the first unlock after a restart.
    static let alwaysReplacement: [String: String] = [
        "kSecAttrAccessibleAlways": "kSecAttrAccessibleAfterFirstUnlock",
        "kSecAttrAccessibleAlwaysThisDeviceOnly": "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly",
    ]

    /// Wrapper enum cases that stand for the Always classes (`.always`, `.accessibleAlways`...).
    static let wrapperAlwaysCases: Set<String> = [
        "always", "alwaysThisDeviceOnly", "accessibleAlways", "accessibleAlwaysThisDeviceOnly",
    ]

    static let credentialClasses: Set<String> = [
        "kSecClassGenericPassword", "kSecClassInternetPassword", "kSecClassKey",
    ]

    /// Casts to these types are how Swift reads a reference result; they are not a shape guess.
    static let referenceTypes: Set<String> = [
        "SecKey", "SecCertificate", "SecIdentity", "SecAccessControl", "SecTrust", "SecPolicy",
    ]

    /// Known OSStatus values by name.
    static let statusValues: [String: Int] = [
        "errSecSuccess": 0, "noErr": 0, "errSecItemNotFound": -25300, "errSecInteractionNotAllowed": -25308,
        "errSecDuplicateItem": -25299, "errSecAuthFailed": -25293, "errSecUserCanceled": -128, "errSecParam": -50,
        "errSecMissingEntitlement": -34018, "errSecNotAvailable": -25291, "errSecDecode": -26275,
        "errSecNoSuchAttr": -25303, "errSecItemNotFoundInKeychain": -25300,
    ]

    /// The options of `SecAccessControlCreateFlags`, as Swift spells them.
    static let accessControlFlags: Set<String> = [
        "userPresence", "biometryAny", "touchIDAny", "biometryCurrentSet", "touchIDCurrentSet", "devicePasscode",
        "watch", "companion", "or", "and", "privateKeyUsage", "applicationPassword",
    ]

    /// A name a keychain value can be traced to: a `kSec...`/`errSec...` constant or an access-control flag.
    static func isValueConstant(_ name: String) -> Bool {
        ConstantResolver.isSymbolName(name) || accessControlFlags.contains(name)
    }

    /// A name the module's helpers are traced to (`ModuleIndex.namedValues`): a keychain value constant, or a
    /// wrapper's option for an Always class.
    static func isTracedValue(_ name: String) -> Bool {
        isValueConstant(name) || wrapperAlwaysCases.contains(name)
    }

    /// The `true` of a Boolean attribute, as `ConstantOrigins` names its leaves: `true`, `YES`, `kCFBooleanTrue`.
    static func isTrue(_ name: String) -> Bool { name == "true" || name == "kCFBooleanTrue" || name == "YES" }

    /// A Boolean as `ConstantOrigins` names its leaves: `true`, `false`, `kCFBooleanTrue`, `kCFBooleanFalse`.
    static func isBoolean(_ name: String) -> Bool {
        isTrue(name) || name == "false" || name == "kCFBooleanFalse" || name == "NO"
    }

    static func isAccessibilityClass(_ name: String) -> Bool {
        name.hasPrefix("kSecAttrAccessible") && name != accessible
    }

    static func isThisDeviceOnly(_ name: String) -> Bool { name.hasSuffix("ThisDeviceOnly") }
}

/// The four SecItem functions, plus the access-control constructor that also takes a protection class.
package enum KeychainFunction: String, Sendable {
    case add = "SecItemAdd"
    case copyMatching = "SecItemCopyMatching"
    case update = "SecItemUpdate"
    case delete = "SecItemDelete"
    case createAccessControl = "SecAccessControlCreateWithFlags"
}
