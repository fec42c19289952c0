import KeychainCore
import KeychainCrypto

/// A password, passcode or passphrase given on the command line, kept in wiped-on-free memory from the moment
/// it is parsed. (The argument string itself stays in the process's argv, which is why macOS and this command
/// warn about such options.)
public struct CommandLineSecret: Equatable, Sendable, CustomStringConvertible {
    /// The bytes, wiped when the last copy of the command goes away.
    public let secret: Secret

    /// Copies the UTF-8 of `text`, without an intermediate array.
    public init(utf8 text: String) { secret = Secret(SecureBytes(text.utf8)) }

    /// Copies `bytes`; the caller wipes its own array.
    public init(_ bytes: [UInt8]) { secret = Secret(bytes) }

    /// Equal bytes (for comparing parsed commands in tests), compared without copying them out.
    public static func == (lhs: CommandLineSecret, rhs: CommandLineSecret) -> Bool {
        lhs.secret.withUnsafeBytes { left in rhs.secret.withUnsafeBytes { right in left.elementsEqual(right) } }
    }

    public var description: String { "CommandLineSecret(\(secret.count) bytes, redacted)" }
}
