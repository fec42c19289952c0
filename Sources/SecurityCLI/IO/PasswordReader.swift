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

    /// Whether passwords are lines of an input that is not a terminal. In `security -i` those are the lines
    /// after the command line that asks for them, so the runner must never read them as commands.
    var readsLinesOfInput: Bool { get }

    /// Reads and wipes one password line a failed command left unread; does nothing at a terminal.
    func discardLine()
}

extension PasswordReader {
    /// A reader without prompts of its own answers every question as it answers a new item's.
    public func readPassword(_ prompt: PasswordPrompt) throws(PasswordReadError) -> [UInt8] {
        try readNewItemPassword()
    }

    /// A reader that is not line-based has no lines to skip.
    public var readsLinesOfInput: Bool { false }

    public func discardLine() {}
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

    public var readsLinesOfInput: Bool { !PosixIO.isTerminal(0) }

    public func discardLine() {
        if readsLinesOfInput { LinePasswordReader(descriptor: 0).discardLine() }
    }
}
