import Foundation
import Testing

@testable import KeychainLint

/// An `--output` that cannot be written is one line and its own exit status.
@Suite struct OutputFileTests {
    @Test func unwritableOutputIsOneLineAndItsOwnStatus() throws {
        let directory = try TemporaryDirectory()
        try directory.write("Store.swift", ReportFormatTests.source)
        var errors = ""
        let runner = CommandRunner(standardOutput: { _ in }, standardError: { errors += $0 })
        let target = directory.path + "/missing/dir/report.sarif"
        let status = runner.run(arguments: ["--format", "sarif", "--output", target, directory.path])
        #expect(status == .cannotWriteOutput)
        #expect(status.rawValue == 73)
        #expect(errors.split(separator: "\n").count == 1)
        #expect(errors.hasPrefix("keychain-lint: cannot write the report to \(target): "))
        #expect(errors.contains("No such file or directory"))
    }
}
