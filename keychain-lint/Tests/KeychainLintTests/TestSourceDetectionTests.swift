import Foundation
import Testing

@testable import KeychainLint

/// Test sources are recognised by what makes them tests, not by a name that happens to end in Test or Spec.
@Suite struct TestSourceDetectionTests {
    static let hardCodedPin = """
        final class PinLoginTest {
            let adminPassword = "Qx7-pin-2291"
        }
        """

    @Test func shippingFilesNamedLikeTestsAreRead() throws {
        let directory = try TemporaryDirectory()
        try directory.write("App/Demo/PinLoginTest.swift", Self.hardCodedPin)
        try directory.write(
            "App/Query/QuerySpec.m", "static NSString *const kClientSecret = @\"d41d8cd98f00b204e9800998ecf8427e\";\n")
        let report = try Linter().lint(paths: [directory.path])
        #expect(report.filesScanned == 2)
        #expect(report.findings.map(\.rule.id) == ["KL402", "KL402"])
        #expect(report.skippedTestFiles == 0)
    }

    @Test func testTargetsAndTestImportsAreSkippedAndCounted() throws {
        let directory = try TemporaryDirectory()
        try directory.write("AppTests/LoginFixtures.swift", Self.hardCodedPin)
        try directory.write("Tests/Support/Helpers.swift", Self.hardCodedPin)
        try directory.write("App/LoginChecks.swift", "import XCTest\n" + Self.hardCodedPin)
        try directory.write("App/LoginBehaviour.swift", "import Quick\nimport Nimble\n" + Self.hardCodedPin)
        try directory.write(
            "App/LoginCase.m", "#import <XCTest/XCTest.h>\nstatic NSString *kPassword = @\"a1b2c3d4e5\";\n")
        try directory.write("App/Login.swift", Self.hardCodedPin)
        let report = try Linter().lint(paths: [directory.path])
        #expect(report.filesScanned == 1)
        #expect(report.skippedTestFiles == 5)
        #expect(report.findings.count == 1)
        let text = ReportFormat.text.render(report)
        #expect(text.hasSuffix("1 finding (1 high) in 1 file, 5 test files skipped\n"))
        let json = try ReportFormatTests.object(ReportFormat.json.render(report))
        #expect((json["summary"] as? [String: Any])?["skippedTestFiles"] as? Int == 5)
        let sarif = try ReportFormatTests.object(ReportFormat.sarif.render(report))
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        #expect((run["properties"] as? [String: Any])?["skippedTestFiles"] as? Int == 5)
    }

    @Test func aRunThatReadsNothingSaysSo() throws {
        let directory = try TemporaryDirectory()
        try directory.write("AppTests/LoginTests.swift", "import XCTest\n" + Self.hardCodedPin)
        try directory.write("README.md", "nothing to read\n")
        var errors = ""
        var output = ""
        let runner = CommandRunner(standardOutput: { output += $0 }, standardError: { errors += $0 })
        #expect(runner.run(arguments: [directory.path]) == .noInput)
        #expect(errors.contains("no file was read"))
        #expect(errors.contains("1 test file skipped"))
        // The report is still written, so a CI step that uploads it finds one.
        #expect(output == "0 findings in 0 files, 1 test file skipped\n")
    }
}
