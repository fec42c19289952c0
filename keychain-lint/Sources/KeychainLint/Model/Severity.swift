/// How much a finding matters, from the most to the least severe.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case high
    case medium
    case low
    case info

    /// Higher is more severe, so `--fail-on medium` fails on medium and high.
    var rank: Int {
        switch self {
        case .high: 3
        case .medium: 2
        case .low: 1
        case .info: 0
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

    /// The SARIF `level` GitHub code scanning understands.
    var sarifLevel: String {
        switch self {
        case .high: "error"
        case .medium: "warning"
        case .low, .info: "note"
        }
    }
}
