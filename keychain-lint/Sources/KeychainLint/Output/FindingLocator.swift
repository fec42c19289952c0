/// Fills in what reports need from a finding's source line: its column in UTF-16 code units and a fingerprint
/// that stays the same when the code moves to another line.
enum FindingLocator {
    /// Findings must be sorted by path and position, so that repeated identical lines are numbered in order.
    static func complete(_ findings: inout [Finding], texts: [String: String]) {
        var lineCache: [String: [Substring.UTF8View]] = [:]
        var occurrences: [String: Int] = [:]
        for index in findings.indices {
            let finding = findings[index]
            if lineCache[finding.path] == nil {
                lineCache[finding.path] =
                    texts[finding.path].map { text in
                        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
                            Substring($0).utf8
                        }
                    } ?? []
            }
            let lines = lineCache[finding.path] ?? []
            let lineNumber = finding.position.line - 1
            let line = lines.indices.contains(lineNumber) ? Substring(lines[lineNumber]) : ""
            findings[index].utf16Column = utf16Column(finding.position.column, in: line)
            let normalized = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
                .joined(separator: " ")
            let base = finding.rule.id + "\u{0}" + finding.path + "\u{0}" + normalized
            let occurrence = occurrences[base, default: 0]
            occurrences[base] = occurrence + 1
            findings[index].fingerprint = hex(fnv1a(base)) + ":" + String(occurrence + 1)
        }
    }

    /// The 1-based UTF-16 column of a 1-based UTF-8 byte column.
    static func utf16Column(_ byteColumn: Int, in line: Substring) -> Int {
        let prefix = line.utf8.prefix(max(0, byteColumn - 1))
        return String(decoding: prefix, as: UTF8.self).utf16.count + 1
    }

    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
