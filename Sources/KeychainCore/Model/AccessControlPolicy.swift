/// What `SecAccessControlCreateWithFlags` produced: a protection class and constraint flags
/// (the raw bits of `SecAccessControlCreateFlags`).
public struct AccessControlPolicy: Sendable, Hashable {
    /// The protection class the access control carries.
    public let accessibility: Accessibility
    /// The raw `SecAccessControlCreateFlags` bits.
    public let flags: UInt

    public init(accessibility: Accessibility, flags: UInt) {
        self.accessibility = accessibility
        self.flags = flags
    }

    /// Flags that ask for user authentication or a password before the secret is released.
    public static let constraintMask: UInt = 0x1 | 0x2 | 0x8 | 0x10 | 0x20 | 0x8000_0000
    // userPresence, biometryAny, biometryCurrentSet, devicePasscode, watch, applicationPassword

    /// `privateKeyUsage`: the key may be used only inside its token (Secure Enclave keys).
    public static let privateKeyUsage: UInt = 0x4000_0000

    /// Whether using the item needs user authentication or an application password.
    public var hasConstraints: Bool { flags & Self.constraintMask != 0 }

    /// Whether any flag beyond the protection class is set (the combinators `.or`/`.and` alone do not count).
    public var hasFlags: Bool { flags & ~UInt(0xC000) != 0 }
}
