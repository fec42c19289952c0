/// A distinguished name (an X.501 `Name`) as DER, and its normalized form.
///
/// The normalization is the one Apple's Security framework applies before it stores or compares names
/// (`SecCertificateCopyNormalizedSubjectSequence`, the `subj` and `issr` attributes of certificate items): a value
/// encoded as a PrintableString is upper-cased (ASCII letters), loses leading and trailing blanks, and has each run
/// of blanks (space, tab) collapsed into one space, as RFC 5280 §7.1 allows for comparisons; every other value and
/// the order of the relative names stay as they are, and the lengths around a shortened value are re-encoded.
package struct DistinguishedName: Sendable, Equatable {
    /// The DER of the whole `Name` SEQUENCE.
    package let der: [UInt8]

    package init(der: [UInt8]) { self.der = der }

    private static let sequenceTag: UInt8 = 0x30
    private static let setTag: UInt8 = 0x31
    private static let printableStringTag: UInt8 = 0x13

    /// The normalized name with its SEQUENCE header, or nil when the DER does not parse as a name.
    package var normalizedSequence: [UInt8]? {
        normalizedContent.map { DERReader.encode(tag: Self.sequenceTag, content: $0) }
    }

    /// The normalized name without its SEQUENCE header (the form Apple stores in `subj` and `issr`).
    package var normalizedContent: [UInt8]? {
        var outer = DERReader(der[...])
        guard let name = outer.next(), name.tag == Self.sequenceTag, outer.isAtEnd else { return nil }
        var relativeNames = DERReader(name.content)
        var result: [UInt8] = []
        while !relativeNames.isAtEnd {
            guard let set = relativeNames.next(), set.tag == Self.setTag, !set.content.isEmpty else { return nil }
            guard let normalizedSet = Self.normalizedAttributes(in: set.content) else { return nil }
            result += DERReader.encode(tag: Self.setTag, content: normalizedSet)
        }
        return result
    }

    private static func normalizedAttributes(in setContent: ArraySlice<UInt8>) -> [UInt8]? {
        var attributes = DERReader(setContent)
        var result: [UInt8] = []
        while !attributes.isAtEnd {
            guard let attribute = attributes.next(), attribute.tag == sequenceTag else { return nil }
            var parts = DERReader(attribute.content)
            guard let type = parts.next(), type.tag == 0x06, !type.content.isEmpty, let value = parts.next(),
                parts.isAtEnd
            else { return nil }
            guard value.tag == printableStringTag else {
                result += Array(attribute.encoding)
                continue
            }
            let folded = DERReader.encode(tag: printableStringTag, content: folded(value.content))
            result += DERReader.encode(tag: sequenceTag, content: Array(type.encoding) + folded)
        }
        return result
    }

    /// Upper-cases ASCII letters and collapses blanks, as Apple does for PrintableString values.
    private static func folded(_ value: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        var pendingBlank = false
        for byte in value {
            if byte == 0x20 || byte == 0x09 {
                pendingBlank = !result.isEmpty
                continue
            }
            if pendingBlank { result.append(0x20) }
            pendingBlank = false
            result.append((0x61...0x7A).contains(byte) ? byte - 0x20 : byte)
        }
        return result
    }
}
