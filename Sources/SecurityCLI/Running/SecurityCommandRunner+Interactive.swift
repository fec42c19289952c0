import KeychainCore
import KeychainMessages
import KeychainRequests

extension SecurityCommandRunner {
    /// `-i`: reads command lines from standard input and runs each (macOS's `security -i`), so passwords can
    /// follow on the next line instead of on the command line. `quit` or `exit`, or the end of input, stop.
    /// Each line inherits the `-i` line's identity and output options.
    ///
    /// When passwords are lines of the same input, a password line is never read as a command: the lines a
    /// failed command left unread are skipped and wiped; when their number cannot be known (a line that did
    /// not parse, or a passcode change that failed before it saw whether a passcode is set), the session ends.
    /// A line that follows password lines and does not parse may be one password line too many: it is not
    /// shown, and the session ends.
    /// - Returns: the exit code of the last command that failed, else 0.
    func runInteractive(_ session: Invocation) -> Int32 {
        defer { format = session.output }
        var last = ExitCode.success
        var followsSecrets = false
        while let line = commandLines.nextLine(prompt: session.output.prompt ?? "security> ") {
            let words: [String]
            do {
                words = try ShellWords.split(line)
            } catch {
                if followsSecrets { return endSessionWithoutShowing() }
                last = reportUsage(error)
                let guessed = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                if endsSessionForUnknownSecrets(SecurityVerb.mayBeFollowedBySecrets(guessed)) { return last }
                continue
            }
            guard let first = words.first else { continue }
            if first == "quit" || first == "exit" { break }
            var invocation: Invocation
            do {
                invocation = try CommandParser.parse(words)
            } catch {
                if followsSecrets { return endSessionWithoutShowing() }
                last = reportUsage(error)
                if endsSessionForUnknownSecrets(SecurityVerb.mayBeFollowedBySecrets(words)) { return last }
                continue
            }
            followsSecrets = false
            if case .interactive = invocation.command {
                last = reportUsage(UsageError(.nestedInteractive))
                continue
            }
            // Its standard input is the session's: the commands and passwords that follow.
            if case .doctor(let command) = invocation.command, command.file == nil {
                last = reportUsage(
                    UsageError(.doctorNeedsFileInInteractive, verb: .doctor))
                continue
            }
            if invocation.identity == IdentityOptions() { invocation.identity = session.identity }
            invocation.output.quiet = invocation.output.quiet || session.output.quiet
            invocation.output.verbose = invocation.output.verbose || session.output.verbose
            invocation.output.json = invocation.output.json || session.output.json
            invocation.output.leaksRequested = false
            secretLinesRead = 0
            passcodeIsSet = nil
            let code = run(invocation)
            if code != ExitCode.success { last = code }
            guard passwords.readsLinesOfInput else { continue }
            guard let passwordLines = settleSecretLines(after: invocation.command) else { return last }
            followsSecrets = passwordLines > 0
        }
        return last
    }

    /// Skips the password lines `command` left unread, or ends the session when how many is not known.
    /// - Returns: how many password lines followed the command (read or skipped); nil when the session ended.
    private func settleSecretLines(after command: SecurityCommand) -> Int? {
        guard let unread = command.unreadSecretLines(read: secretLinesRead, passcodeIsSet: passcodeIsSet) else {
            _ = endsSessionForUnknownSecrets(true)
            return nil
        }
        skipSecretLines(unread)
        return secretLinesRead + unread
    }

    /// Ends the session at a line that does not parse right after password lines, without showing it.
    private func endSessionWithoutShowing() -> Int32 {
        errors.writeLine("security: " + CommandMessage.interactiveStoppedAfterPasswordLines.text(in: language))
        return ExitCode.usage
    }

    /// Reads and wipes `count` password lines, saying so (never what they held).
    private func skipSecretLines(_ count: Int) {
        guard count > 0 else { return }
        for _ in 0..<count { passwords.discardLine() }
        errors.writeLine("security: " + CommandMessage.skippedPasswordLines(count: count).text(in: language))
    }

    /// Ends the session when password lines may follow on the command input and how many is not known.
    /// - Returns: whether it ended.
    private func endsSessionForUnknownSecrets(_ mayFollow: Bool) -> Bool {
        guard mayFollow, passwords.readsLinesOfInput else { return false }
        errors.writeLine("security: " + CommandMessage.interactiveStoppedForUnknownPasswordLines.text(in: language))
        return true
    }
}
