import Foundation

/// The output formats of the command.
public enum ReportFormat: String, Sendable, CaseIterable {
    case text
    case json
    case sarif

    /// Renders a report in this format.
    public func render(_ report: LintReport) -> String {
        switch self {
        case .text: TextReport.render(report)
        case .json: JSONReport.render(report)
        case .sarif: SARIFReport.render(report)
        }
    }
}

/// Version of the analyzer, reported in JSON and SARIF.
public let keychainLintVersion = "1.0.0"

enum JSONText {
    static func encode(_ object: Any) -> String {
        let options: JSONSerialization.WritingOptions = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: options) else { return "{}" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
