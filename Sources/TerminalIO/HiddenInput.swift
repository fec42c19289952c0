#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reading a secret at a terminal without echo.
public enum HiddenInput {
    /// Turns echo off, shows `prompt`, reads one line, and puts the terminal back as it was. The prompt comes
    /// after the switch, whose flush drops what was typed before it; what is typed after the prompt is kept.
    public static func readLine(_ terminal: Int32, prompt: String) throws(TerminalReadError) -> [UInt8] {
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
        Array(prompt.utf8).withUnsafeBytes { _ = PosixIO.writeAll(terminal, $0) }
        guard let line = try LineInput.readLine(from: terminal) else { throw .canceled }
        return line
    }
}
