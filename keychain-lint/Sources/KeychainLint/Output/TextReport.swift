/// `path:line:column: severity: message [KL101 accessibleAlways]` lines with the fix underneath, as compilers
/// print diagnostics, so editors and CI logs link them.
enum TextReport {
    static func render(_ report: LintReport) -> String {
        var lines: [String] = []
        for finding in report.findings {
            let place = "\(finding.path):\(finding.position.line):\(finding.position.column)"
            lines.append(
                "\(place): \(finding.severity.rawValue): \(finding.message) [\(finding.rule.id) \(finding.rule.name)]")
            lines.append("    fix: \(finding.fixAdvice)")
        }
        for file in report.skippedFiles {
            lines.append("\(file.path): note: skipped: \(file.reason)")
        }
        var counts: [String] = []
        for severity in Severity.allCases {
            let count = report.findings.filter { $0.severity == severity }.count
            if count > 0 { counts.append("\(count) \(severity.rawValue)") }
        }
        let total = report.findings.count
        var summary = "\(total) finding\(total == 1 ? "" : "s")"
        if !counts.isEmpty { summary += " (" + counts.joined(separator: ", ") + ")" }
        summary += " in \(report.filesScanned) file\(report.filesScanned == 1 ? "" : "s")"
        if report.projects > 1 { summary += " of \(report.projects) projects" }
        if report.suppressed > 0 { summary += ", \(report.suppressed) suppressed" }
        if report.skippedTestFiles > 0 {
            summary += ", \(report.skippedTestFiles) test file\(report.skippedTestFiles == 1 ? "" : "s") skipped"
        }
        if !report.skippedFiles.isEmpty {
            let count = report.skippedFiles.count
            summary += ", \(count) file\(count == 1 ? "" : "s") not analysed (see the notes above)"
        }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }
}
