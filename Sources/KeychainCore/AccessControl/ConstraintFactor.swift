/// One thing an access-control constraint asks for before an item's secret is released.
enum ConstraintFactor: String, Codable, Sendable, Hashable, Comparable {
    case biometryAny = "ba"
    case biometryCurrentSet = "bc"
    case devicePasscode = "pc"
    case applicationPassword = "ap"
    case companion = "wa"

    static func < (lhs: ConstraintFactor, rhs: ConstraintFactor) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The authentication that satisfies the factor, if it is one.
    var method: AuthenticationMethod? {
        switch self {
        case .biometryAny, .biometryCurrentSet: .biometry
        case .devicePasscode: .devicePasscode
        case .companion: .companion
        case .applicationPassword: nil
        }
    }
}
