import Foundation

/// Applies the mechanical edits of the rules the user opted into, file by file.
struct Fixer {
    var rules: Set<String>

    struct Result {
        var fixed: Int
        var files: Int
        var remaining: [Finding]
    }

    func apply(to findings: [Finding]) -> Result {
        var remaining: [Finding] = []
        var byPath: [String: [Finding]] = [:]
        for finding in findings {
            if finding.edit != nil, rules.contains(finding.rule.id) {
                byPath[finding.path, default: []].append(finding)
            } else {
                remaining.append(finding)
            }
        }
        var fixed = 0
        var files = 0
        for (path, fixable) in byPath {
            guard var bytes = FileManager.default.contents(atPath: path).map(Array.init) else {
                remaining += fixable
                continue
            }
            var applied = 0
            var lowestTouched = Int.max
            // From the end backwards, so earlier offsets stay valid; overlapping edits are left as suggestions.
            for finding in fixable.sorted(by: { $0.edit!.range.lowerBound > $1.edit!.range.lowerBound }) {
                let edit = finding.edit!
                guard edit.range.upperBound <= lowestTouched, edit.range.upperBound <= bytes.count else {
                    remaining.append(finding)
                    continue
                }
                bytes.replaceSubrange(edit.range, with: Array(edit.replacement.utf8))
                lowestTouched = edit.range.lowerBound
                applied += 1
            }
            guard applied > 0, (try? Data(bytes).write(to: URL(fileURLWithPath: path))) != nil else { continue }
            fixed += applied
            files += 1
        }
        return Result(fixed: fixed, files: files, remaining: remaining)
    }
}
