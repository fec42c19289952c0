import Foundation
import Testing
import X509Certificates

/// Apple's normalization of distinguished names on hand-built DER: what changes, what stays, and the lengths.
@Suite struct CertificateNameNormalizationTests {
    private let organization: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x0A]
    private let commonName: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x03]

    private func attribute(_ type: [UInt8], tag: UInt8, _ value: String) -> [UInt8] {
        DERReader.encode(tag: 0x30, content: type + DERReader.encode(tag: tag, content: Array(value.utf8)))
    }

    private func name(_ sets: [[[UInt8]]]) -> DistinguishedName {
        let content = sets.flatMap { DERReader.encode(tag: 0x31, content: $0.flatMap { $0 }) }
        return DistinguishedName(der: DERReader.encode(tag: 0x30, content: content))
    }

    @Test func printableStringsFoldUTF8StringsStay() {
        let original = name([
            [attribute(organization, tag: 0x13, "\t Acme\t\tcorp  ")],
            [attribute(commonName, tag: 0x0C, "  Mixed  Case ")],
        ])
        let expected = name([
            [attribute(organization, tag: 0x13, "ACME CORP")],
            [attribute(commonName, tag: 0x0C, "  Mixed  Case ")],
        ])
        #expect(original.normalizedSequence == expected.der)
        #expect(original.normalizedContent.map { DERReader.encode(tag: 0x30, content: $0) } == expected.der)
    }

    @Test func aValueThatShrinksBelow128BytesReencodesEveryLength() {
        let long = "a" + String(repeating: " ", count: 150) + "b"
        let original = name([[attribute(organization, tag: 0x13, long), attribute(commonName, tag: 0x13, "x")]])
        let expected = name([[attribute(organization, tag: 0x13, "A B"), attribute(commonName, tag: 0x13, "X")]])
        #expect(original.der.count > 160)
        #expect(original.normalizedSequence == expected.der)
    }

    @Test func anEmptyOrBlankValueStaysWellFormed() {
        let original = name([[attribute(organization, tag: 0x13, "   ")], [attribute(commonName, tag: 0x13, "")]])
        let expected = name([[attribute(organization, tag: 0x13, "")], [attribute(commonName, tag: 0x13, "")]])
        #expect(original.normalizedSequence == expected.der)
    }

    @Test(
        arguments: [
            [],  // nothing
            [0x30, 0x02, 0x31, 0x00],  // an empty relative name
            [0x30, 0x80, 0x00, 0x00],  // an indefinite length
            [0x30, 0x00, 0x00],  // a trailing byte
            [0x30, 0x05, 0x31, 0x03, 0x30, 0x01, 0x06],  // an attribute without a value
            [0x30, 0x81, 0x05, 0x31, 0x03, 0x30, 0x01, 0x06],  // a long form for a short length
            [0x31, 0x00],  // not a SEQUENCE
        ] as [[UInt8]])
    func malformedNamesGiveNil(der: [UInt8]) {
        #expect(DistinguishedName(der: der).normalizedSequence == nil)
    }

    @Test func anEmptyNameNormalizesToItself() {
        #expect(DistinguishedName(der: [0x30, 0x00]).normalizedSequence == [0x30, 0x00])
    }
}
