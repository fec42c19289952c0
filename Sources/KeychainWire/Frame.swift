/// One message of the daemon's protocol: a kind, the request id that pairs an answer with its request, and an
/// opaque payload (the typed encoding of each kind is the payload's business, not the framing's).
///
/// On the wire (all integers big-endian):
///
///     magic "KCHD" (4) | version 1 (1) | flags 0 (1) | kind (2) | request id (8) | payload length (4) | payload
package struct Frame: Hashable, Sendable {
    package let kind: FrameKind
    package let requestID: UInt64
    package let payload: [UInt8]

    package init(kind: FrameKind, requestID: UInt64, payload: [UInt8] = []) {
        self.kind = kind
        self.requestID = requestID
        self.payload = payload
    }

    package static let magic: [UInt8] = Array("KCHD".utf8)
    /// The layout of the header, the same in every protocol: a peer that changes it changes this byte.
    package static let version: UInt8 = 1
    /// The newest protocol this code speaks: 2 adds ``FrameKind/hello`` and answers in parts
    /// (``FrameKind/responsePart``). A connection speaks protocol 1 until its client says hello.
    package static let protocolVersion = 2
    /// The largest payload a client of protocol 1 accepts: the daemon sends such a client no larger frame.
    package static let protocolOneLargestPayload = 16 << 20
    /// The largest whole answer (all its parts) a client takes unless told otherwise: 1 GiB.
    package static let defaultLargestAnswer = 1 << 30
    package static let headerSize = 20

    /// The frame's bytes on the wire.
    package func encoded() -> [UInt8] {
        // Sized at once: a payload may hold a secret, and a grown buffer would leave a copy of it unwiped.
        var writer = ByteWriter(capacity: Self.headerSize + payload.count)
        writer.raw(Self.magic)
        writer.uint8(Self.version)
        writer.uint8(0)
        writer.uint16(kind.rawValue)
        writer.uint64(requestID)
        writer.lengthPrefixed(payload)
        return writer.bytes
    }
}

extension Frame: CustomStringConvertible {
    /// Names the kind, id and size, never the payload (it may hold a secret).
    package var description: String { "\(kind) #\(requestID) (\(payload.count) bytes)" }
}
