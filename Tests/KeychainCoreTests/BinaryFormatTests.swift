import Testing

@testable import KeychainCore

/// The one reader and writer behind every binary format: big-endian, length-prefixed, never past the end.
@Suite struct BinaryFormatTests {
    @Test func writesAndReadsBackEveryFieldKind() throws {
        var writer = BinaryWriter()
        writer.append(0x7F)
        writer.append(integer: UInt16(0x0102))
        writer.append(integer: UInt32(0x0304_0506))
        try writer.appendLengthPrefixed([9, 8, 7], as: UInt8.self, tooLong: .param)
        writer.append(contentsOf: [1, 2])
        #expect(writer.bytes == [0x7F, 1, 2, 3, 4, 5, 6, 3, 9, 8, 7, 1, 2])
        try BinaryReader.reading(writer.bytes, damaged: .decode) { reader in
            #expect(try reader.byte() == 0x7F)
            #expect(try reader.integer(UInt16.self) == 0x0102)
            #expect(try reader.integer(UInt32.self) == 0x0304_0506)
            #expect(Array(try reader.lengthPrefixed(UInt8.self)) == [9, 8, 7])
            #expect(Array(reader.rest()) == [1, 2])
            try reader.expectEnd()
        }
    }

    @Test func shortInputAndOversizedLengthsAreTheFormatsError() throws {
        let damaged = KeychainError.decode.because("test format is damaged")
        for bytes: [UInt8] in [[], [0], [0, 0, 0], [0xFF, 0xFF, 0xFF, 0xFF, 1]] {
            let error = #expect(throws: KeychainError.self) {
                try BinaryReader.reading(bytes, damaged: damaged) { reader in
                    _ = try reader.lengthPrefixed(UInt32.self)
                }
            }
            #expect(error?.reason == "test format is damaged")
        }
        var writer = BinaryWriter()
        #expect(throws: KeychainError.self) {
            try writer.appendLengthPrefixed(Array(repeating: 0, count: 256), as: UInt8.self, tooLong: .param)
        }
    }
}
