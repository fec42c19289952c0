import KeychainCore
import TerminalIO

/// Shows this process's user a message of the system authentication keychaind runs (PAM's questions and
/// lines) and relays what was typed. It can only relay: PAM, in the daemon, decides.
package protocol SystemPromptRelay: Sendable {
    func relay(_ message: SystemPrompt) -> PromptCodec.Reply
}

/// Asks at the controlling terminal: a hidden question without echo, a visible one with echo, a line shown as
/// it is. Without a terminal nothing can be asked (`LAError.notInteractive`), nor from the terminal's background,
/// where asking would stop the process with nobody to resume it (``JobControl``); end of input cancels.
package struct TerminalSystemPromptRelay: SystemPromptRelay {
    package init() {}

    package func relay(_ message: SystemPrompt) -> PromptCodec.Reply {
        guard let terminal = PosixIO.openTerminalForPrompting() else { return .failed(.notInteractive) }
        defer { PosixIO.closeDescriptor(terminal) }
        switch message.style {
        case .information, .error:
            Array((message.text + "\n").utf8).withUnsafeBytes { _ = PosixIO.writeAll(terminal, $0) }
            return .shown
        case .hidden:
            guard var line = try? HiddenInput.readLine(terminal, prompt: message.text) else { return .canceled }
            defer { PosixIO.wipe(&line) }
            return .passcode(SecureBytesBox(line))
        case .visible:
            Array(message.text.utf8).withUnsafeBytes { _ = PosixIO.writeAll(terminal, $0) }
            guard case var line?? = try? LineInput.readLine(from: terminal) else { return .canceled }
            defer { PosixIO.wipe(&line) }
            return .passcode(SecureBytesBox(line))
        }
    }
}
