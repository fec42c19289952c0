/// A PEM document (RFC 7468): a label and DER bytes in base64, 64 characters a line.
struct PEMDocument {
    let label: String
    let der: Data

    init(label: String, der: Data) {
        self.label = label
        self.der = der
    }

    /// Parses the first PEM block of `text`.
    /// - Throws: `CryptoKitASN1Error.invalidPEMDocument` when there is no well-formed block.
    init(parsing text: String) throws {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard let first = lines.first, first.hasPrefix("-----BEGIN "), first.hasSuffix("-----"),
            first.count > 16
        else { throw CryptoKitASN1Error.invalidPEMDocument }
        let label = String(first.dropFirst(11).dropLast(5))
        guard let endIndex = lines.firstIndex(of: "-----END \(label)-----"), endIndex > 1 else {
            throw CryptoKitASN1Error.invalidPEMDocument
        }
        let body = lines[1..<endIndex]
        guard body.dropLast().allSatisfy({ $0.utf8.count == 64 }), body.last!.utf8.count <= 64,
            let der = Data(base64Encoded: body.joined())
        else { throw CryptoKitASN1Error.invalidPEMDocument }
        self.init(label: label, der: der)
    }

    /// The document as text, with no trailing newline (as Apple's `pemRepresentation` gives it).
    var text: String {
        let encoded = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(encoded)\n-----END \(label)-----"
    }
}
