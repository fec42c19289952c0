/// The flags of an access control, with the bit values of Apple's `SecAccessControlCreateFlags`: the face's
/// option set and the engine's are the same bits, named once here.
public struct AccessControlFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Biometry (any enrolled) or the device passcode.
    public static let userPresence = AccessControlFlags(rawValue: 1 << 0)
    /// Any enrolled biometry; survives enrollment changes.
    public static let biometryAny = AccessControlFlags(rawValue: 1 << 1)
    /// The biometry enrolled when the item was protected; invalidated by an enrollment change.
    public static let biometryCurrentSet = AccessControlFlags(rawValue: 1 << 3)
    /// The device passcode.
    public static let devicePasscode = AccessControlFlags(rawValue: 1 << 4)
    /// A paired companion device (Apple's `.watch`).
    public static let companion = AccessControlFlags(rawValue: 1 << 5)
    /// Any one of the constraints suffices.
    public static let or = AccessControlFlags(rawValue: 1 << 14)
    /// Every constraint is required (also what no combinator means).
    public static let and = AccessControlFlags(rawValue: 1 << 15)
    /// The private key may be used only inside its token (Secure Enclave keys).
    public static let privateKeyUsage = AccessControlFlags(rawValue: 1 << 30)
    /// An application-provided password enters the item key's derivation.
    public static let applicationPassword = AccessControlFlags(rawValue: 1 << 31)

    /// The flags that ask for an authentication or a password before the secret is released.
    public static let constraints: AccessControlFlags = [
        .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion, .applicationPassword,
    ]
    /// The combinators, which say how the constraints combine but constrain nothing themselves.
    public static let combinators: AccessControlFlags = [.or, .and]
}
