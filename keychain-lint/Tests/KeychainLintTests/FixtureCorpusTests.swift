import Foundation
import Testing

@testable import KeychainLint

/// Precision and recall over the fixture set, run the way a user runs the analyzer: one directory per project.
@Suite struct FixtureCorpusTests {
    @Test func precisionAndRecallOnTheFixtureSet() throws {
        var truePositives = 0
        var falsePositives: [String] = []
        var falseNegatives: [String] = []
        let export = ProcessInfo.processInfo.environment["KEYCHAIN_LINT_CORPUS_DIR"]
        for testCase in FixtureCorpus.cases {
            let directory = try TemporaryDirectory()
            for file in testCase.files {
                try directory.write(file.path, file.text)
                if let export { try Self.write(file.text, to: export + "/" + testCase.name + "/" + file.path) }
            }
            let report = try Linter().lint(paths: [directory.path])
            let found = Set(
                report.findings.map { finding in
                    let relative = String(finding.path.dropFirst(directory.path.count + 1))
                    return "\(finding.rule.id)@\(relative):\(finding.position.line)"
                })
            let expected = FixtureCorpus.expected(testCase)
            truePositives += found.intersection(expected).count
            falsePositives += found.subtracting(expected).map { testCase.name + ": " + $0 }
            falseNegatives += expected.subtracting(found).map { testCase.name + ": " + $0 }
        }
        let precision = Double(truePositives) / Double(max(1, truePositives + falsePositives.count))
        let recall = Double(truePositives) / Double(max(1, truePositives + falseNegatives.count))
        print(
            "fixture set: \(truePositives) found, \(falsePositives.count) false alarms, "
                + "\(falseNegatives.count) missed; precision \(precision), recall \(recall)")
        #expect(falsePositives.isEmpty)
        #expect(falseNegatives.isEmpty)
        #expect(precision >= 0.8 && recall >= 0.9)
    }

    private static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}
