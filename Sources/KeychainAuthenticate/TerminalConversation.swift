import PAMSession
import TerminalIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The user at one terminal: PAM's questions asked there (hidden entry for secrets, a plain line for the rest),
/// its messages and the helper's own shown there. End of input at a prompt (Control-D) cancels.
final class TerminalConversation: PAMConversation {
    let terminal: Int32

    init(terminal: Int32) {
        self.terminal = terminal
    }

    /// Whether the user typed a line or closed the input since the last look; what was typed is consumed.
    func hasInput() -> Bool {
        var poller = pollfd(fd: terminal, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        // What was typed may be the user's password, typed while the reader waits for a finger.
        var buffer = [UInt8](repeating: 0, count: 64)
        defer { PosixIO.wipe(&buffer) }
        _ = buffer.withUnsafeMutableBytes { Glibc.read(terminal, $0.baseAddress, $0.count) }
        return true
    }

    func say(_ text: String) {
        Array((text + "\n").utf8).withUnsafeBytes { _ = PosixIO.writeAll(terminal, $0) }
    }

    func tell(_ message: String) {
        say(message)
    }

    func ask(_ prompt: String, hidden: Bool) -> [UInt8]? {
        if hidden { return try? HiddenInput.readLine(terminal, prompt: prompt) }
        Array(prompt.utf8).withUnsafeBytes { _ = PosixIO.writeAll(terminal, $0) }
        return (try? LineInput.readLine(from: terminal)) ?? nil
    }
}
