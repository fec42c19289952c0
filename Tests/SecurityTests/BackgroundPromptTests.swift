import Foundation
import KeychainCore
import KeychainTestSupport
import Testing

/// A prompt at a terminal where the asking process is not in the foreground: a background job, or a program that
/// its runner started in a process group of its own (`swift test` starts the test binary so). Asking there would
/// stop the process (SIGTTOU, SIGTTIN) with nobody to resume it; it is refused instead, as with no terminal.
@Suite struct BackgroundPromptTests {
    /// Runs the helper as a background job of a shell with job control, on a pseudo-terminal of `script(1)`;
    /// what the terminal showed: the helper's message, then what the shell's `wait` reported (128 + the signal
    /// when the helper was stopped).
    private func helperInTheBackground(_ pam: PAMServiceFixture) throws -> String {
        let helper = try #require(SystemHelper.locate([:]), "keychain-authenticate is built beside the test bundle")
        let script = pam.directory.appendingPathComponent("in-background.sh")
        let job =
            "set -m; \\\"$1\\\" --service \(PAMServiceFixture.service) --pam-directory \\\"$2\\\" --terminal /dev/tty "
            + "& wait \\$!; echo rc=\\$?"
        try """
        exec timeout 20 script -qfec "sh -c '\(job)' sh \\"$1\\" \\"$2\\"" /dev/null < /dev/null

        """.write(to: script, atomically: true, encoding: .utf8)
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"), [script.path, helper.path, pam.directory.path])
        return outcome.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theHelperInTheBackgroundOfItsTerminalAnswersNoTerminal() throws {
        let pam = try PAMServiceFixture(password: "open sesame")
        defer { pam.remove() }
        // 3 is the helper's "no terminal"; a helper stopped at its prompt would give 150 (SIGTTOU).
        let reported = try helperInTheBackground(pam).split(whereSeparator: \.isNewline)
        #expect(reported.last == "rc=3")
        #expect(reported.first?.contains("in the background of /dev/tty") == true, "it says why")
    }
}
