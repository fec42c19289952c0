import KeychainMessages

extension KeychainError {
    /// Why a call failed, kept as a template and its arguments rather than as finished text, so that it can be
    /// shown in the reader's language: `KeychainError.param.because("\(key) is read-only")` records the template
    /// `{0} is read-only` and the attribute key. English is the text the template spells out; other languages take
    /// their template from ``ReasonMessages`` by the English template, and fall back to English for a template
    /// without a translation. Arguments that are reasons themselves are translated on their own, so a reason
    /// built from others translates piece by piece.
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        /// The literal pieces around the arguments: one more than there are arguments.
        public private(set) var literals: [String]
        /// The values between the pieces, in order.
        public private(set) var arguments: [Argument]

        /// One value inside a reason.
        public enum Argument: Sendable, Hashable {
            /// A name or value from the caller or the keychain (a group, a class, a value), shown as it is.
            case text(String)
            /// A count or a number, written as Swift writes it.
            case number(String)
            /// An attribute's raw key (`acct`, `svce`).
            case attribute(AttributeKey)
            /// Apple's message for a status code.
            case statusMessage(Int32)
            /// A reason of its own, translated on its own.
            case reason(Reason)
        }

        /// A text shown as it is in every language (a system's or a library's own message).
        public init(verbatim text: String) {
            literals = ["", ""]
            arguments = [.text(text)]
        }

        /// A reason with the same template and arguments as `reason` (spells out a reason's type where the
        /// context does not give it, as in `cond ? Reason("…") : Reason("…")`).
        public init(_ reason: Reason) { self = reason }

        /// Apple's message for `status`, as a reason.
        public init(statusMessage status: Int32) {
            literals = ["", ""]
            arguments = [.statusMessage(status)]
        }

        /// A reason read back from its parts (keychaind's wire): nil unless there is one literal more than there
        /// are arguments.
        package init?(parts literals: [String], arguments: [Argument]) {
            guard literals.count == arguments.count + 1 else { return nil }
            self.init(literals: literals, arguments: arguments)
        }

        fileprivate init(literals: [String], arguments: [Argument]) {
            self.literals = literals
            self.arguments = arguments
        }

        /// The key that names this reason's wording in every language: the literal pieces with `{0}`, `{1}`, …
        /// where the arguments go.
        public var template: String {
            var key = literals[0]
            for (index, literal) in literals.dropFirst().enumerated() { key += "{\(index)}" + literal }
            return key
        }

        /// The reason in English.
        public var english: String { text(in: .english) }

        public var description: String { english }

        /// The reason in `language`; English where `language` has no wording for a template.
        public func text(in language: MessageLanguage) -> String {
            let rendered = arguments.map { $0.text(in: language) }
            if language != .english, let wording = ReasonMessages.wording(for: template, in: language) {
                return ReasonMessages.fill(wording, with: rendered)
            }
            var text = literals[0]
            for (index, literal) in literals.dropFirst().enumerated() { text += rendered[index] + literal }
            return text
        }

        /// Several reasons one after another, separated as `"{0}; {1}"` is in each language; empty for none.
        public static func joined(_ reasons: [Reason]) -> Reason {
            guard var result = reasons.first else { return "" }
            for next in reasons.dropFirst() { result = Reason("\(result); \(next)") }
            return result
        }

        /// Two reasons written as one literal split across lines: `"a \(x) " + "b"` has the template of
        /// `"a \(x) b"`.
        public static func + (lhs: Reason, rhs: Reason) -> Reason {
            var literals = lhs.literals
            literals[literals.count - 1] += rhs.literals[0]
            literals += rhs.literals.dropFirst()
            return Reason(literals: literals, arguments: lhs.arguments + rhs.arguments)
        }
    }
}

extension KeychainError.Reason.Argument {
    /// The argument as it reads in `language`.
    func text(in language: MessageLanguage) -> String {
        switch self {
        case .text(let text), .number(let text): text
        case .attribute(let key): key.rawValue
        case .statusMessage(let status):
            StatusMessages.text(for: status, english: SecurityStatus.message(for: status), in: language)
        case .reason(let reason): reason.text(in: language)
        }
    }
}

extension KeychainError.Reason: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) {
        literals = [value]
        arguments = []
    }

    public init(stringInterpolation: StringInterpolation) {
        literals = stringInterpolation.literals
        arguments = stringInterpolation.arguments
    }

    /// Collects a reason literal's pieces, typing each interpolated value.
    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var literals: [String] = [""]
        fileprivate var arguments: [Argument] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            literals.reserveCapacity(interpolationCount + 1)
            arguments.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) { literals[literals.count - 1] += literal }

        public mutating func appendInterpolation(_ reason: KeychainError.Reason) { append(.reason(reason)) }

        public mutating func appendInterpolation(_ key: AttributeKey) { append(.attribute(key)) }

        public mutating func appendInterpolation(_ text: String) { append(.text(text)) }

        public mutating func appendInterpolation(_ number: some BinaryInteger) { append(.number("\(number)")) }

        public mutating func appendInterpolation(_ number: Double) { append(.number("\(number)")) }

        /// Any other value, as Swift's string interpolation writes it.
        public mutating func appendInterpolation<Value>(_ value: Value) { append(.text("\(value)")) }

        private mutating func append(_ argument: Argument) {
            arguments.append(argument)
            literals.append("")
        }
    }
}
