import Foundation
import TerminalIO

/// The blocks of a PEM file (RFC 7468): `-----BEGIN LABEL-----`, base64, `-----END LABEL-----`, in order.
/// Text outside the blocks (OpenSSL's "Bag Attributes" lines, comments) is skipped.
struct PEMBlocks {
    struct Block {
        let label: String
        /// The decoded bytes; the owner wipes them when they are a private key's.
        var der: [UInt8]
    }

    var blocks: [Block] = []

    /// The blocks of `bytes`; nil when `bytes` hold no BEGIN line, or a block that does not end or decode.
    init?(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN ") else { return nil }
        var label: String?
        var body = ""
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if let open = label {
                if line == "-----END \(open)-----" {
                    guard var decoded = Data(base64Encoded: body) else { return nil }
                    blocks.append(Block(label: open, der: Array(decoded)))
                    decoded.resetBytes(in: 0..<decoded.count)
                    label = nil
                    body = ""
                } else {
                    body += line
                }
            } else if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                label = String(line.dropFirst("-----BEGIN ".count).dropLast(5))
            }
        }
        guard label == nil, !blocks.isEmpty else { return nil }
    }

    /// `der` as a PEM block with base64 lines of 64 characters.
    static func encode(_ der: [UInt8], label: String) -> String {
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN \(label)-----"]
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + "\n"
    }
}
