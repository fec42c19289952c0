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
        var first = try Self.readWithoutEcho(terminal, prompt: prompt.text)
        guard let confirmation = prompt.confirmation else { return first }
        var second: [UInt8]
        do {
            second = try Self.readWithoutEcho(terminal, prompt: confirmation)
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

    /// Shows `prompt`, turns echo off, reads one line, and puts the terminal back as it was.
    private static func readWithoutEcho(_ terminal: Int32, prompt: String) throws(PasswordReadError) -> [UInt8] {
        Array(prompt.utf8).withUnsafeBytes { _ = PosixIO.writeAll(terminal, $0) }
        var saved = termios()
        guard tcgetattr(terminal, &saved) == 0 else { throw .io(errno) }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO | ECHOE | ECHOK)
        silent.c_lflag |= tcflag_t(ECHONL)
        TerminalRestoration.install(terminal: terminal, settings: saved)
        defer {
            _ = tcsetattr(terminal, TCSAFLUSH, &saved)
            TerminalRestoration.remove()
        }
        guard tcsetattr(terminal, TCSAFLUSH, &silent) == 0 else { throw .io(errno) }
        guard let line = try LinePasswordReader.readLine(from: terminal) else { throw .canceled }
        return line
    }
}

/// Puts the terminal's saved settings back if a signal ends the process while echo is off, then lets the
/// signal take its default course.
enum TerminalRestoration {
    // Written only while no handler is installed, read only by the handler: a signal handler cannot take a lock.
    nonisolated(unsafe) private static var terminal: Int32 = -1
    nonisolated(unsafe) private static var settings = termios()
    nonisolated(unsafe) private static var previousHandlers: [Int32: sighandler_t?] = [:]
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    static func install(terminal: Int32, settings: termios) {
        self.terminal = terminal
        self.settings = settings
        for signal in signals {
            previousHandlers[signal] = Glibc.signal(
                signal,
                { number in
                    _ = tcsetattr(TerminalRestoration.terminal, TCSAFLUSH, &TerminalRestoration.settings)
                    _ = Glibc.signal(number, SIG_DFL)
                    _ = raise(number)
                })
        }
    }

    static func remove() {
        for signal in signals {
            _ = Glibc.signal(signal, previousHandlers[signal] ?? SIG_DFL)
        }
        previousHandlers = [:]
        terminal = -1
    }
}
