#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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
