import TerminalIO

/// Reads a password as one line from a file descriptor that is not a terminal (a pipe or a file): the bytes
/// up to the first newline, without the newline or a carriage return before it.
public struct LinePasswordReader: PasswordReader {
    private let descriptor: Int32

    /// - Parameter descriptor: an open descriptor, read from its current position; not closed.
    public init(descriptor: Int32) { self.descriptor = descriptor }

    public func readNewItemPassword() throws(PasswordReadError) -> [UInt8] {
        guard let line = try LineInput.readLine(from: descriptor) else { throw .canceled }
        return line
    }

    /// One line, whatever the prompt: a script gives each password once.
    public func readPassword(_ prompt: PasswordPrompt) throws(PasswordReadError) -> [UInt8] {
        try readNewItemPassword()
    }

    public var readsLinesOfInput: Bool { true }

    public func discardLine() {
        guard var line = try? LineInput.readLine(from: descriptor) else { return }
        PosixIO.wipe(&line)
    }
}
