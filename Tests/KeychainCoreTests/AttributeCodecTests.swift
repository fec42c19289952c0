import Foundation
import Testing

@testable import KeychainCore

/// The bytes sealed into every row's `meta` column: names sorted, each `u16 length ‖ name ‖ tag ‖ u32 length ‖
/// value`, big-endian. Rows written by earlier versions are read with the same layout, so it must not move.
@Suite struct AttributeCodecTests {
    private let attributes: [AttributeKey: AttributeValue] = [
        .account: .string("é1"), .generic: .data([0xFF, 0x00]), .port: .number(-2), .synchronizable: .bool(true),
        .creationDate: .date(Date(timeIntervalSinceReferenceDate: 1.5)),
    ]

    @Test func theLayoutIsFixed() throws {
        var expected: [UInt8] = []
        expected += [0, 4] + Array("acct".utf8) + [0x73, 0, 0, 0, 3, 0xC3, 0xA9, 0x31]
        expected += [0, 4] + Array("cdat".utf8) + [0x74, 0, 0, 0, 8] + [0x3F, 0xF8, 0, 0, 0, 0, 0, 0]
        expected += [0, 4] + Array("gena".utf8) + [0x64, 0, 0, 0, 2, 0xFF, 0x00]
        expected += [0, 4] + Array("port".utf8) + [0x6E, 0, 0, 0, 8]
        expected += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]
        expected += [0, 4] + Array("sync".utf8) + [0x62, 0, 0, 0, 1, 1]
        #expect(try AttributeCodec.encode(attributes) == expected)
        #expect(try AttributeCodec.encode([:]).isEmpty)
    }

    @Test func whatIsEncodedDecodesToTheSameAttributes() throws {
        let encoded = try AttributeCodec.encode(attributes)
        #expect(try encoded.withUnsafeBytes { try AttributeCodec.decode($0) } == attributes)
    }
}
