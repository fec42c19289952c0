import KeychainCore
import TerminalIO

/// Asks the daemon's passcode question at the process's controlling terminal, without echo, and relays the
/// line typed. Without a terminal the prompt cannot be shown: `LAError.notInteractive`; nor from the terminal's
/// background, where asking would stop the process with nobody to resume it (``JobControl``).
struct TerminalPasscodeRelay: UserPrompter {
    func ask(_ prompt: UserPrompt) throws -> PromptAnswer {
        guard case .devicePasscode(let reason) = prompt else { throw AuthenticationFailure.notInteractive }
        guard let terminal = PosixIO.openTerminalForPrompting() else { throw AuthenticationFailure.notInteractive }
        defer { PosixIO.closeDescriptor(terminal) }
        let question = reason.isEmpty ? "Keychain passcode: " : "\(reason)\nKeychain passcode: "
        do {
            var line = try HiddenInput.readLine(terminal, prompt: question)
            defer { PosixIO.wipe(&line) }
            return .passcode(SecureBytesBox(line))
        } catch {
            throw AuthenticationFailure.userCancel
        }
    }
}
