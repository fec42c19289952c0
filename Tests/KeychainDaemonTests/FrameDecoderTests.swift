import KeychainWire
import Testing

@testable import KeychainDaemon

@Suite struct FrameDecoderTests {
    private let limit = 1024

    @Test func aFrameRoundTripsThroughItsBytes() throws {
        let frame = Frame(kind: FrameKind(rawValue: 0x0123), requestID: 0x0102_0304_0506_0708, payload: [1, 2, 3])
        let bytes = frame.encoded()
        #expect(bytes.count == Frame.headerSize + 3)
        #expect(Array(bytes.prefix(8)) == Array("KCHD".utf8) + [1, 0, 0x01, 0x23])
        let decoded = FrameDecoder.decodeAll(bytes, payloadLimit: limit)
        #expect(decoded.frames == [frame])
        #expect(decoded.error == nil)
    }

    @Test func framesArriveInPiecesAndTogether() throws {
        let frames = (0..<5).map {
            Frame(kind: .ping, requestID: UInt64($0), payload: Array(repeating: 7, count: $0 * 3))
        }
        let stream = frames.flatMap { $0.encoded() }
        var decoder = FrameDecoder(payloadLimit: limit)
        var received: [Frame] = []
        for byte in stream {
            decoder.append([byte])
            while let frame = try decoder.next() { received.append(frame) }
        }
        #expect(received == frames)
        #expect(decoder.bufferedCount == 0)
    }

    @Test func aWrongMagicFailsAtItsFirstByte() {
        var decoder = FrameDecoder(payloadLimit: limit)
        decoder.append([UInt8(ascii: "G")])
        #expect(throws: FrameError.badMagic) { try decoder.next() }
    }

    @Test func anUnknownVersionOrFlagFails() {
        var bytes = Frame(kind: .ping, requestID: 1).encoded()
        bytes[4] = 2
        #expect(FrameDecoder.decodeAll(bytes, payloadLimit: limit).error == .unsupportedVersion(2))
        bytes[4] = 1
        bytes[5] = 0x80
        #expect(FrameDecoder.decodeAll(bytes, payloadLimit: limit).error == .reservedFlags(0x80))
    }

    @Test func anOversizedLengthFailsBeforeThePayloadArrives() {
        var writer = ByteWriter()
        writer.raw(Frame.magic)
        writer.uint8(1)
        writer.uint8(0)
        writer.uint16(FrameKind.ping.rawValue)
        writer.uint64(9)
        writer.uint32(UInt32(limit + 1))
        // The header alone: no payload byte has come, and the frame is already refused.
        let decoded = FrameDecoder.decodeAll(writer.bytes, payloadLimit: limit)
        #expect(decoded.error == .tooLarge(length: UInt32(limit + 1), limit: limit))
        var largest = writer.bytes
        largest.replaceSubrange(16..<20, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(FrameDecoder.decodeAll(largest, payloadLimit: limit).error == .tooLarge(length: .max, limit: limit))
    }

    @Test func aPayloadAtTheLimitIsAccepted() {
        let frame = Frame(kind: .ping, requestID: 1, payload: Array(repeating: 1, count: limit))
        #expect(FrameDecoder.decodeAll(frame.encoded(), payloadLimit: limit).frames == [frame])
    }

    @Test func randomBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        let valid = Frame(kind: .status, requestID: 3, payload: [9, 9]).encoded()
        for round in 0..<2_000 {
            var bytes = round % 2 == 0 ? valid : []
            for _ in 0..<Int.random(in: 0..<64, using: &generator) { bytes.append(UInt8.random(in: 0...255)) }
            if !bytes.isEmpty, round % 3 == 0 { bytes[Int.random(in: 0..<bytes.count)] ^= 0xFF }
            _ = FrameDecoder.decodeAll(bytes, payloadLimit: 32)
            _ = try? FieldList.decode(bytes)
            _ = try? ErrorReply.decode(bytes)
        }
    }

    @Test func theByteReaderReportsAShortfallInsteadOfTrapping() {
        var reader = ByteReader([0, 0, 0, 9, 1, 2])
        #expect(throws: ByteReader.Shortfall.self) { try reader.lengthPrefixed(reading: "a name") }
        var empty = ByteReader([])
        #expect(throws: ByteReader.Shortfall.self) { try empty.uint64() }
        #expect(throws: ByteReader.Shortfall.self) { try empty.bytes(-1) }
    }

    @Test func fieldListsAndErrorRepliesRoundTrip() throws {
        let fields = FieldList([("version", "0.1.0"), ("clients", "3"), ("empty", "")])
        #expect(try FieldList.decode(fields.encoded()) == fields)
        #expect(throws: ByteReader.Shortfall.self) { try FieldList.decode(fields.encoded() + [0]) }
        let reply = ErrorReply(status: -34018, reason: "refused")
        let frame = reply.frame(requestID: 4)
        #expect(frame.kind == .error)
        #expect(try ErrorReply.decode(frame.payload) == reply)
    }

    @Test func aFrameDescriptionNamesNoPayloadByte() {
        let frame = Frame(kind: FrameKind(rawValue: 0x200), requestID: 5, payload: Array("hunter2".utf8))
        #expect(frame.description == "kind 0x200 #5 (7 bytes)")
    }
}
