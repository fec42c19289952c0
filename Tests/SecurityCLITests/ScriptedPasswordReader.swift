@testable import SecurityCLI

/// Answers password prompts from a list, in order, and records what was asked; runs out as Control-D does.
final class ScriptedPasswordReader: PasswordReader {
    private var answers: [String]
    private(set) var prompts: [PasswordPrompt] = []

    init(_ answers: [String]) { self.answers = answers }

    func readNewItemPassword() throws(PasswordReadError) -> [UInt8] {
        try readPassword(PasswordPrompt(TerminalPasswordReader.firstPrompt))
    }

    func readPassword(_ prompt: PasswordPrompt) throws(PasswordReadError) -> [UInt8] {
        prompts.append(prompt)
        guard !answers.isEmpty else { throw .canceled }
        return Array(answers.removeFirst().utf8)
    }
}
