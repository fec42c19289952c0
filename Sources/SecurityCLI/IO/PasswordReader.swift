/// Why a password could not be read.
public enum PasswordReadError: Error, Equatable, Sendable {
    /// End of input before any password (Control-D at the prompt, or empty standard input).
    case canceled
    /// The two entries at the terminal differ.
    case mismatch
    /// A read failed with this errno.
    case io(Int32)
}

/// Supplies the password of a new item when the command line asks for it (`-w` given last).
public protocol PasswordReader {
    /// Reads the password. The caller owns the bytes and wipes them.
    /// - Throws: `PasswordReadError`.
    func readNewItemPassword() throws(PasswordReadError) -> [UInt8]
}

/// The process's own source: the terminal when standard input is one (asking twice, without echo), else one
/// line of standard input.
public struct StandardInputPasswordReader: PasswordReader {
    public init() {}

    public func readNewItemPassword() throws(PasswordReadError) -> [UInt8] {
        if PosixIO.isTerminal(0) {
            return try TerminalPasswordReader().readNewItemPassword()
        }
        return try LinePasswordReader(descriptor: 0).readNewItemPassword()
    }
}
