import TerminalIO

#if canImport(Glibc)
    import Glibc
#endif

/// Asks for a new item's password at the controlling terminal, twice and without echo, as macOS's
/// `security add-generic-password … -w` does. The terminal's settings are restored afterwards, and also when
/// a signal (Control-C) ends the process mid-prompt.
public struct TerminalPasswordReader: PasswordReader {
    public static let firstPrompt = "password data for new item: "
    public static let secondPrompt = "retype password for new item: "

    public init() {}

    public func readNewItemPassword() throws(PasswordReadError) -> [UInt8] {
        try readPassword(PasswordPrompt(Self.firstPrompt, confirmation: Self.secondPrompt))
    }

    /// Asks `prompt` without echo and, when it has a confirmation, asks again and compares the two entries.
    public func readPassword(_ prompt: PasswordPrompt) throws(PasswordReadError) -> [UInt8] {
        guard let terminal = PosixIO.openTerminal() else { throw .io(ENXIO) }
        defer { PosixIO.closeDescriptor(terminal) }
        var first = try HiddenInput.readLine(terminal, prompt: prompt.text)
        guard let confirmation = prompt.confirmation else { return first }
        var second: [UInt8]
        do {
            second = try HiddenInput.readLine(terminal, prompt: confirmation)
        } catch {
            PosixIO.wipe(&first)
            throw error
        }
        defer { PosixIO.wipe(&second) }
        guard first == second else {
            PosixIO.wipe(&first)
            throw .mismatch
        }
        return first
    }
}
