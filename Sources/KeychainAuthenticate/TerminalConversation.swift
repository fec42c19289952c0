import CPAM
import TerminalIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// PAM's questions, asked at one terminal: hidden entry for secrets, a plain line for the rest, and PAM's
/// messages printed as they come. End of input at a prompt (Control-D) cancels.
final class TerminalConversation {
    let terminal: Int32
    private(set) var canceled = false

    init(terminal: Int32) {
        self.terminal = terminal
    }

    /// Whether the user typed a line or closed the input since the last look; what was typed is consumed.
    func hasInput() -> Bool {
        var poller = pollfd(fd: terminal, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 64)
        _ = buffer.withUnsafeMutableBytes { Glibc.read(terminal, $0.baseAddress, $0.count) }
        return true
    }

    func say(_ text: String) {
        Array((text + "\n").utf8).withUnsafeBytes { _ = PosixIO.writeAll(terminal, $0) }
    }

    /// The answers to `messages`, in memory PAM takes over and frees; nil after a cancel or a failed read.
    func answer(_ messages: [(style: Int32, text: String)]) -> UnsafeMutablePointer<pam_response>? {
        guard let replies = calloc(messages.count, MemoryLayout<pam_response>.stride)?
            .assumingMemoryBound(to: pam_response.self)
        else { return nil }
        for (index, message) in messages.enumerated() {
            switch message.style {
            case PAM_PROMPT_ECHO_OFF, PAM_PROMPT_ECHO_ON:
                guard let reply = read(message.text, hidden: message.style == PAM_PROMPT_ECHO_OFF) else {
                    canceled = true
                    Self.release(replies, count: messages.count)
                    return nil
                }
                replies[index].resp = reply
            case PAM_ERROR_MSG, PAM_TEXT_INFO:
                say(message.text)
            default:
                Self.release(replies, count: messages.count)
                return nil
            }
        }
        return replies
    }

    /// One line typed at the terminal, as a C string PAM can free; the intermediate bytes are wiped.
    private func read(_ prompt: String, hidden: Bool) -> UnsafeMutablePointer<CChar>? {
        var line: [UInt8]
        do {
            if hidden {
                line = try HiddenInput.readLine(terminal, prompt: prompt)
            } else {
                Array(prompt.utf8).withUnsafeBytes { _ = PosixIO.writeAll(terminal, $0) }
                guard let typed = try LineInput.readLine(from: terminal) else { return nil }
                line = typed
            }
        } catch {
            return nil
        }
        defer { PosixIO.wipe(&line) }
        guard let copy = calloc(line.count + 1, 1)?.assumingMemoryBound(to: CChar.self) else { return nil }
        line.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { memcpy(copy, base, bytes.count) }
        }
        return copy
    }

    /// Wipes and frees the answers given so far.
    private static func release(_ replies: UnsafeMutablePointer<pam_response>, count: Int) {
        for index in 0..<count {
            if let answer = replies[index].resp {
                explicit_bzero(answer, strlen(answer))
                free(answer)
            }
        }
        free(replies)
    }
}
