/// The payload of a ``FrameKind/responsePart`` frame (protocol 2): the size of the whole answer, then a piece of
/// it. The pieces of the parts, in order, then the payload of the closing `response` frame, make the answer's
/// bytes; an answer that fits one frame has no parts.
package struct AnswerPart: Hashable, Sendable {
    /// The size of the whole answer, the same in every part.
    package let totalSize: UInt64
    package let piece: [UInt8]

    package init(totalSize: UInt64, piece: [UInt8]) {
        self.totalSize = totalSize
        self.piece = piece
    }

    /// Bytes of a part's payload before its piece.
    package static let headerSize = 8

    package func encoded() -> [UInt8] {
        // Sized at once: the piece may hold a secret, and a grown buffer would leave a copy of it unwiped.
        var writer = ByteWriter(capacity: Self.headerSize + piece.count)
        writer.uint64(totalSize)
        writer.raw(piece)
        return writer.bytes
    }

    /// The whole answer's size a part's payload announces, read from its header alone: the client takes the
    /// piece straight from the payload, leaving no copy of it behind unwiped.
    package static func totalSize(ofPart payload: [UInt8]) throws(ByteReader.Shortfall) -> UInt64 {
        var reader = ByteReader(payload)
        return try reader.uint64(reading: "the size of the whole answer")
    }

    package static func decode(_ payload: [UInt8]) throws(ByteReader.Shortfall) -> AnswerPart {
        var reader = ByteReader(payload)
        let total = try reader.uint64(reading: "the size of the whole answer")
        return AnswerPart(totalSize: total, piece: try reader.bytes(reader.remaining))
    }

    /// Where the pieces of an answer of `count` bytes fall when no frame may carry more than `largestPayload`
    /// bytes: every range but the last goes in a `response-part` frame (after its header), the last in the
    /// closing `response`; one range, the whole answer, when it fits one frame.
    package static func pieces(ofAnswerSized count: Int, largestPayload: Int) -> [Range<Int>] {
        guard count > largestPayload else { return [0..<count] }
        let pieceSize = max(1, largestPayload - headerSize)
        var ranges: [Range<Int>] = []
        var offset = 0
        while count - offset > largestPayload {
            ranges.append(offset..<(offset + pieceSize))
            offset += pieceSize
        }
        ranges.append(offset..<count)
        return ranges
    }

    /// The frames that carry `payload` as the answer to `requestID` (see ``pieces(ofAnswerSized:largestPayload:)``).
    package static func frames(carrying payload: [UInt8], requestID: UInt64, largestPayload: Int) -> [Frame] {
        let ranges = pieces(ofAnswerSized: payload.count, largestPayload: largestPayload)
        return ranges.enumerated().map { index, range in
            frame(of: payload, range, requestID: requestID, isLast: index == ranges.count - 1)
        }
    }

    /// The frame carrying the piece `range` of `payload`: a `response-part`, or the closing `response`.
    package static func frame(of payload: [UInt8], _ range: Range<Int>, requestID: UInt64, isLast: Bool) -> Frame {
        guard !isLast else { return Frame(kind: .response, requestID: requestID, payload: Array(payload[range])) }
        // Written straight from the answer, sized at once: no copy of the piece is left behind unwiped.
        var writer = ByteWriter(capacity: headerSize + range.count)
        writer.uint64(UInt64(payload.count))
        writer.raw(payload[range])
        return Frame(kind: .responsePart, requestID: requestID, payload: writer.bytes)
    }
}
