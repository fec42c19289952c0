/// The `--format json` document; its schema is documented in docs/keychain-lint.md.
enum JSONReport {
    static let schemaVersion = 1

    static func render(_ report: LintReport) -> String {
        var bySeverity: [String: Int] = [:]
        for severity in Severity.allCases {
            bySeverity[severity.rawValue] = report.findings.filter { $0.severity == severity }.count
        }
        let findings: [[String: Any]] = report.findings.map { finding in
            [
                "ruleId": finding.rule.id,
                "ruleName": finding.rule.name,
                "severity": finding.severity.rawValue,
                "path": finding.path,
                "line": finding.position.line,
                "column": finding.position.column,
                "fingerprint": finding.fingerprint,
                "message": finding.message,
                "fix": finding.fixAdvice,
                "fixAvailable": finding.edit != nil,
                "cwe": "CWE-\(finding.rule.cwe)",
                "masvs": finding.rule.masvs,
            ]
        }
        let document: [String: Any] = [
            "schemaVersion": schemaVersion,
            "tool": ["name": "keychain-lint", "version": keychainLintVersion],
            "summary": [
                "files": report.filesScanned, "findings": report.findings.count, "suppressed": report.suppressed,
                "bySeverity": bySeverity, "skippedTestFiles": report.skippedTestFiles, "projects": report.projects,
                "skippedFiles": report.skippedFiles.map { ["path": $0.path, "reason": $0.reason] },
            ],
            "findings": findings,
        ]
        return JSONText.encode(document)
    }
}
