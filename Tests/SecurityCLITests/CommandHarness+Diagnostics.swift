import Foundation
import KeychainCore

@testable import SecurityCLI

extension CommandHarness {
    /// Runs `security -i` (with `arguments` before it) over the given command lines.
    func runInteractive(_ lines: [String], arguments: [String] = ["-i"], password: String? = nil) -> Run {
        let output = CapturedOutput()
        let errors = CapturedOutput()
        let runner = SecurityCommandRunner(
            source: .configuration(configuration), output: output, errors: errors,
            passwords: FixedPasswordReader(password: password.map { Array($0.utf8) }),
            commandLines: FixedLineSource(lines))
        let code = runner.run(arguments: arguments)
        return Run(exitCode: code, output: output.text, errors: errors.text)
    }

    /// Runs `security doctor FUNCTION FILE` with `json` written to a temporary file.
    func doctor(_ function: String?, json: String, extra: [String] = []) -> Run {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString).json")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(json.utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        return run(extra + ["doctor"] + (function.map { [$0] } ?? []) + [file.path])
    }
}
