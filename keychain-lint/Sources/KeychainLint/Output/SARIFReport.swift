/// SARIF 2.1.0 for GitHub code scanning and other SARIF consumers.
///
/// GitHub reads `security-severity` (a number from 0 to 10) to rank security alerts, and uses
/// `partialFingerprints` to follow an alert across commits.
enum SARIFReport {
    static let schema = "https://json.schemastore.org/sarif-2.1.0.json"

    static func render(_ report: LintReport) -> String {
        let rules = RuleCatalog.all
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let results: [[String: Any]] = report.findings.map { finding in
            var result: [String: Any] = [
                "ruleId": finding.rule.id,
                "ruleIndex": ruleIndex[finding.rule.id] ?? 0,
                "level": finding.severity.sarifLevel,
                "message": ["text": finding.message],
                "locations": [
                    [
                        "physicalLocation": [
                            "artifactLocation": ["uri": uri(for: finding.path)],
                            "region": ["startLine": finding.position.line, "startColumn": finding.utf16Column],
                        ]
                    ]
                ],
                // Rule, path and the finding's line text (not its number), so moving code keeps the alert.
                "partialFingerprints": ["keychainLint/v2": finding.fingerprint],
            ]
            if let edit = finding.edit { result["fixes"] = [fix(edit, of: finding)] }
            return result
        }
        let driver: [String: Any] = [
            "name": "keychain-lint",
            "version": keychainLintVersion,
            "semanticVersion": keychainLintVersion,
            "informationUri": "https://developer.apple.com/documentation/security/keychain-services",
            "rules": rules.map(ruleObject),
        ]
        let run: [String: Any] = [
            "tool": ["driver": driver],
            "results": results,
            // Columns are converted from UTF-8 bytes to UTF-16 code units, the unit GitHub assumes.
            "columnKind": "utf16CodeUnits",
            "properties": [
                "filesScanned": report.filesScanned, "skippedTestFiles": report.skippedTestFiles,
                "projects": report.projects, "suppressed": report.suppressed,
                "skippedFiles": report.skippedFiles.count,
            ],
            // A file left unanalysed is a tool notification, so code scanning shows it rather than a clean run.
            "invocations": [
                [
                    "executionSuccessful": true,
                    "toolExecutionNotifications": report.skippedFiles.map(notification),
                ] as [String: Any]
            ],
        ]
        return JSONText.encode(["$schema": schema, "version": "2.1.0", "runs": [run]])
    }

    /// The edit `--fix` would apply, as a SARIF fix: the bytes it replaces (`byteOffset`, `byteLength`, UTF-8 as the
    /// edit counts them) and the new text. Only findings with an edit get one.
    private static func fix(_ edit: TextEdit, of finding: Finding) -> [String: Any] {
        [
            "description": ["text": finding.rule.automaticFix ?? "Replace with \(edit.replacement)."],
            "artifactChanges": [
                [
                    "artifactLocation": ["uri": uri(for: finding.path)],
                    "replacements": [
                        [
                            "deletedRegion": ["byteOffset": edit.range.lowerBound, "byteLength": edit.range.count],
                            "insertedContent": ["text": edit.replacement],
                        ]
                    ],
                ]
            ],
        ]
    }

    private static func notification(_ file: SkippedFile) -> [String: Any] {
        [
            "level": "warning",
            "message": ["text": "skipped: \(file.reason)"],
            "locations": [["physicalLocation": ["artifactLocation": ["uri": uri(for: file.path)]]]],
        ]
    }

    private static func ruleObject(_ rule: RuleDescriptor) -> [String: Any] {
        let masvsTags = rule.masvs.split(separator: ",").map { $0.trimmingCharacters(in: [" "]) }
        return [
            "id": rule.id,
            "name": rule.name,
            "helpUri": rule.helpURI,
            "shortDescription": ["text": rule.summary],
            "fullDescription": ["text": rule.explanation],
            "help": [
                "text": rule.explanation + "\nFix: " + rule.fixDescription,
                "markdown": rule.explanation + "\n\n**Fix:** " + rule.fixDescription,
            ],
            "defaultConfiguration": ["level": rule.severity.sarifLevel],
            "properties": [
                "tags": ["security", "external/cwe/cwe-\(rule.cwe)"] + masvsTags,
                "security-severity": securitySeverity(rule.severity),
                "precision": "high",
            ],
        ]
    }

    private static func securitySeverity(_ severity: Severity) -> String {
        switch severity {
        case .high: "8.0"
        case .medium: "5.5"
        case .low: "3.0"
        case .info: "1.0"
        }
    }

    /// A relative URI, which GitHub resolves against the repository root, or a `file://` URI for an absolute path.
    static func uri(for path: String) -> String {
        var result = path
        while result.hasPrefix("./") { result.removeFirst(2) }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8)
        let encoded = result.utf8.map { byte in
            allowed.contains(byte)
                ? String(UnicodeScalar(byte)) : "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }.joined()
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }
}
