@testable import KeychainLint

/// Lints in-memory fixtures and returns the findings of one rule as `line:column` strings.
func locations(of rule: String, in text: String, path: String = "Fixture.swift", with others: [SourceFile] = [])
    -> [String]
{
    findings(in: text, path: path, with: others).filter { $0.rule.id == rule }.map {
        "\($0.position.line):\($0.position.column)"
    }
}

func findings(in text: String, path: String = "Fixture.swift", with others: [SourceFile] = []) -> [Finding] {
    Linter().lint(files: [SourceFile(path: path, text: text)] + others).findings
}
