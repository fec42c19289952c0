import TerminalIO

/// Why a password could not be read (the terminal layer's reasons).
public typealias PasswordReadError = TerminalReadError

/// Supplies the password of a new item when the command line asks for it (`-w` given last), and passcodes and
/// backup passwords.
public protocol PasswordReader {
    /// Reads the password. The caller owns the bytes and wipes them.
    /// - Throws: `PasswordReadError`.
    func readNewItemPassword() throws(PasswordReadError) -> [UInt8]

    /// Reads a passcode or backup password, asking `prompt` (and its confirmation) at a terminal.
    /// The caller owns the bytes and wipes them.
    /// - Throws: `PasswordReadError`.
    func readPassword(_ prompt: PasswordPrompt) throws(PasswordReadError) -> [UInt8]
}

extension PasswordReader {
    /// A reader without prompts of its own answers every question as it answers a new item's.
    public func readPassword(_ prompt: PasswordPrompt) throws(PasswordReadError) -> [UInt8] {
        try readNewItemPassword()
    }
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

    public func readPassword(_ prompt: PasswordPrompt) throws(PasswordReadError) -> [UInt8] {
        if PosixIO.isTerminal(0) {
            return try TerminalPasswordReader().readPassword(prompt)
        }
        return try LinePasswordReader(descriptor: 0).readPassword(prompt)
    }
}
