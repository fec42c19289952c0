import Foundation
import Testing

@testable import KeychainCore

/// The key envelope of constrained items: written in the compact format 2, format 1 (JSON) still read.
@Suite struct ConstraintEnvelopeFormatTests {
    private let envelope = ConstraintEnvelope(alternatives: [
        .init(
            factors: [.biometryAny], salt: Data(repeating: 1, count: 16), iterations: 10_000,
            wrapped: Data(repeating: 2, count: 40)),
        .init(
            factors: [.applicationPassword, .companion, .devicePasscode], salt: Data(repeating: 3, count: 16),
            iterations: 7, wrapped: Data(repeating: 4, count: 40)),
    ])
    private let sealed: [UInt8] = Array(repeating: 9, count: 44)

    @Test func compactFormatRoundTrips() throws {
        let framed = try envelope.framing(sealed)
        #expect(framed.first == ConstraintEnvelope.binaryMarker)
        let (read, rest) = try ConstraintEnvelope.unframing(framed)
        #expect(read == envelope && rest == sealed)
    }

    @Test func jsonFormatIsStillRead() throws {
        let (read, rest) = try ConstraintEnvelope.unframing(try envelope.jsonFraming(sealed))
        #expect(read == envelope && rest == sealed)
    }

    @Test func damagedEnvelopesAreDecodeErrors() throws {
        let framed = try envelope.framing(sealed)
        for length in [1, 2, 5, 30, 80] {
            #expect(throws: KeychainError.self) { try ConstraintEnvelope.unframing(Array(framed.prefix(length))) }
        }
        var unknownFactor = framed
        unknownFactor[3] = UInt8(ascii: "z")
        #expect(throws: KeychainError.self) { try ConstraintEnvelope.unframing(unknownFactor) }
    }
}
