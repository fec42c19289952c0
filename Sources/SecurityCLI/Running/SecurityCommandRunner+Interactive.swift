import KeychainCore

extension SecurityCommandRunner {
    /// `-i`: reads command lines from standard input and runs each (macOS's `security -i`), so passwords can
    /// follow on the next line instead of on the command line. `quit` or `exit`, or the end of input, stop.
    /// Each line inherits the `-i` line's identity and output options.
    /// - Returns: the exit code of the last command that failed, else 0.
    func runInteractive(_ session: Invocation) -> Int32 {
        var last = ExitCode.success
        while let line = commandLines.nextLine(prompt: "security> ") {
            let words: [String]
            do {
                words = try ShellWords.split(line)
            } catch {
                last = reportUsage(error)
                continue
            }
            guard let first = words.first else { continue }
            if first == "quit" || first == "exit" { break }
            var invocation: Invocation
            do {
                invocation = try CommandParser.parse(words)
            } catch {
                last = reportUsage(error)
                continue
            }
            if case .interactive = invocation.command {
                last = reportUsage(UsageError("-i cannot be nested", verb: nil))
                continue
            }
            if invocation.identity == IdentityOptions() { invocation.identity = session.identity }
            invocation.output.quiet = invocation.output.quiet || session.output.quiet
            invocation.output.verbose = invocation.output.verbose || session.output.verbose
            invocation.output.json = invocation.output.json || session.output.json
            let code = run(invocation)
            if code != ExitCode.success { last = code }
        }
        format = session.output
        return last
    }
}
