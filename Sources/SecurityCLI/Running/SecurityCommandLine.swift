import Foundation
import KeychainMessages

/// The `security` program: the process's arguments, environment, standard streams and terminal.
public enum SecurityCommandLine {
    /// Runs the command line of this process. - Returns: the exit code.
    public static func run() -> Int32 {
        let runner = SecurityCommandRunner(
            source: .environment(.process),
            output: FileDescriptorOutput.standardOutput(), errors: FileDescriptorOutput.standardError(),
            passwords: StandardInputPasswordReader(), language: .current)
        return runner.run(arguments: Array(CommandLine.arguments.dropFirst()))
    }
}
