/// Inline suppressions: `// keychain-lint:ignore KL101 -- reason` on the finding's line or the line above, and
/// `// keychain-lint:ignore-file KL101 -- reason` for a whole file. Rule names work as well as ids.
struct Suppressions {
    private var byLine: [Int: Set<String>] = [:]
    private var wholeFile: Set<String> = []
    /// Suppression comments that give no reason; they suppress nothing and are reported as KL001.
    private(set) var missingReasons: [SourcePosition] = []

    static let marker = "keychain-lint:ignore"

    init(text: String) {
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            guard let range = line.range(of: Self.marker) else { continue }
            let before = line[..<range.lowerBound]
            guard before.contains("//") || before.contains("/*") || before.contains("<!--") || before.contains("#")
            else {
                continue
            }
            var rest = line[range.upperBound...]
            let isFileWide = rest.hasPrefix("-file")
            if isFileWide { rest = rest.dropFirst(5) }
            let words = rest.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
            var rules: Set<String> = []
            var reasonWords: [Substring] = []
            for word in words {
                if reasonWords.isEmpty, let rule = RuleCatalog.rule(named: String(word)) {
                    rules.insert(rule.id)
                } else if !["--", "-", ":", "*/", "-->"].contains(String(word)) {
                    reasonWords.append(word)
                }
            }
            let column = line.distance(from: line.startIndex, to: range.lowerBound) + 1
            guard !rules.isEmpty, !reasonWords.isEmpty else {
                missingReasons.append(SourcePosition(line: lineNumber, column: column, offset: 0))
                continue
            }
            if isFileWide {
                wholeFile.formUnion(rules)
            } else {
                // A comment alone on its line covers the next line; a trailing one covers its own line.
                let isAlone = before.allSatisfy {
                    $0 == " " || $0 == "\t" || $0 == "/" || $0 == "*" || $0 == "<" || $0 == "!" || $0 == "-"
                        || $0 == "#"
                }
                byLine[isAlone ? lineNumber + 1 : lineNumber, default: []].formUnion(rules)
                byLine[lineNumber, default: []].formUnion(rules)
            }
        }
    }

    func suppresses(_ finding: Finding) -> Bool {
        wholeFile.contains(finding.rule.id) || byLine[finding.position.line]?.contains(finding.rule.id) == true
    }
}
