/// What a client and the daemon tell each other when a connection starts (``FrameKind/hello`` and
/// ``FrameKind/helloReply``): the newest protocol each speaks and the sizes each takes. A connection that never
/// says hello is spoken to in protocol 1, as clients older than protocol 2 expect; a daemon older than protocol 2
/// answers hello with an `error` frame (errSecUnimplemented), which tells the client to speak protocol 1.
///
/// Both are field lists (``FieldList``), so a later protocol can add fields that an older peer skips.
package struct ProtocolHello: Hashable, Sendable {
    /// The newest protocol the sender speaks; the connection uses the older of the two.
    package let protocolVersion: Int
    /// The largest frame payload the sender accepts: the client's receive limit, or the daemon's `--max-message`.
    package let largestPayload: Int
    /// The largest whole answer (all its parts) the sender handles.
    package let largestAnswer: Int

    package init(protocolVersion: Int, largestPayload: Int, largestAnswer: Int) {
        self.protocolVersion = protocolVersion
        self.largestPayload = largestPayload
        self.largestAnswer = largestAnswer
    }

    package var fields: FieldList {
        FieldList([
            ("protocol", String(protocolVersion)), ("largest-payload", String(largestPayload)),
            ("largest-answer", String(largestAnswer)),
        ])
    }

    /// Reads a hello's fields; nil when one is missing or not a positive number.
    package init?(fields: FieldList) {
        guard let version = Self.positive(fields["protocol"]), let payload = Self.positive(fields["largest-payload"]),
            let answer = Self.positive(fields["largest-answer"])
        else { return nil }
        self.init(protocolVersion: version, largestPayload: payload, largestAnswer: answer)
    }

    /// A hello frame's payload read; nil when it is not a field list of a hello.
    package static func decode(_ payload: [UInt8]) -> ProtocolHello? {
        (try? FieldList.decode(payload)).flatMap { ProtocolHello(fields: $0) }
    }

    private static func positive(_ text: String?) -> Int? {
        guard let text, let value = Int(text), value > 0 else { return nil }
        return value
    }
}
