import Foundation
import Testing

/// A file of known-answer vectors in `Vectors/`: blocks of `name = value` lines separated by blank lines,
/// `#` comments, byte strings in hex.
struct VectorFile {
    struct Vector: CustomTestStringConvertible {
        let fields: [String: String]
        var testDescription: String { "case \(fields["case"] ?? "?")" }

        /// The bytes of a hex field; a missing field or bad hex is a broken file, reported as an error.
        func bytes(_ name: String) throws -> [UInt8] {
            guard let text = fields[name], let bytes = hexBytes(text) else { throw BrokenVector(field: name) }
            return bytes
        }

        func integer(_ name: String) throws -> Int {
            guard let text = fields[name], let value = Int(text) else { throw BrokenVector(field: name) }
            return value
        }
    }

    struct BrokenVector: Error { let field: String }

    /// The vectors of `Vectors/<name>`, read from the test bundle's resources.
    static func load(_ name: String) -> [Vector] {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Vectors"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        var vectors: [Vector] = []
        var fields: [String: String] = [:]
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + [""]
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") { continue }
            if trimmed.isEmpty {
                if !fields.isEmpty { vectors.append(Vector(fields: fields)) }
                fields = [:]
                continue
            }
            let parts = trimmed.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return vectors
    }
}

func hexBytes(_ text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
        guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
        bytes.append(high << 4 | low)
    }
    return bytes
}

private func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
}
