import Foundation
import Testing

@testable import KeychainLint

@Suite struct CommandTests {
    @Test func parsesOptions() throws {
        let command = try LintCommand.parse(["--format", "sarif", "--fail-on", "high", "--fix", "KL101", "App", "Lib"])
        #expect(command.format == .sarif)
        #expect(command.failOn == .some(.high))
        #expect(command.fix && command.fixRules == ["KL101"])
        #expect(command.paths == ["App", "Lib"])
        #expect(try LintCommand.parse(["--fix", "App"]).fixRules.isEmpty)
        #expect(try LintCommand.parse(["--fail-on", "never", "App"]).failOn == .some(nil))
        #expect(try LintCommand.parse(["--benchmark", "5", "App"]).action == .benchmark(runs: 5))
    }

    @Test func rejectsBadUsage() {
        #expect(throws: UsageError.self) { try LintCommand.parse([]) }
        #expect(throws: UsageError.self) { try LintCommand.parse(["--format", "xml", "App"]) }
        #expect(throws: UsageError.self) { try LintCommand.parse(["--frobnicate", "App"]) }
        #expect(throws: UsageError.self) { try LintCommand.parse(["--fail-on"]) }
    }

    @Test func exitStatusFollowsFailOn() throws {
        let directory = try TemporaryDirectory()
        try directory.write("Store.swift", ReportFormatTests.source)
        func run(_ arguments: [String]) -> (CommandRunner.ExitStatus, String) {
            var output = ""
            let runner = CommandRunner(standardOutput: { output += $0 }, standardError: { _ in })
            return (runner.run(arguments: arguments), output)
        }
        #expect(run([directory.path]).0 == .findings)
        #expect(run(["--fail-on", "never", directory.path]).0 == .clean)
        #expect(run(["--format", "json", directory.path]).1.contains("\"ruleId\" : \"KL101\""))
        #expect(run([directory.path + "/missing"]).0 == .noInput)
        #expect(run(["--bogus"]).0 == .usage)
        #expect(run(["--config", directory.path + "/none.json", directory.path]).0 == .configuration)
    }

    @Test func fixRewritesOnlyOptedInRules() throws {
        let directory = try TemporaryDirectory()
        try directory.write("Store.swift", ReportFormatTests.source)
        let runner = CommandRunner(standardOutput: { _ in }, standardError: { _ in })
        _ = runner.run(arguments: ["--fix", directory.path])
        #expect(try directory.read("Store.swift") == ReportFormatTests.source)
        let status = runner.run(arguments: ["--fix", "KL101", directory.path])
        #expect(status == .clean)
        #expect(
            try directory.read("Store.swift")
                == ReportFormatTests.source.replacingOccurrences(
                    of: "kSecAttrAccessibleAlways", with: "kSecAttrAccessibleAfterFirstUnlock"))
    }
}

/// A directory under the system's temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "keychain-lint-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws {
        let url = URL(fileURLWithPath: path + "/" + name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ name: String) throws -> String {
        try String(contentsOfFile: path + "/" + name, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
