import KeychainWire

/// Protocol 2 on one connection: the client's hello, and answers larger than one frame sent in parts.
extension DaemonConnection {
    /// The smallest frame payload a client may say it takes: smaller parts would be mostly headers.
    static let smallestClientPayload = 1024

    /// Records the client's protocol and sizes, and answers with the daemon's. A malformed hello, or one whose
    /// receive limit is too small for parts, is errSecParam and leaves the connection in protocol 1.
    func answerHello(_ frame: Frame) -> Frame {
        guard let hello = ProtocolHello.decode(frame.payload), hello.largestPayload >= Self.smallestClientPayload
        else {
            let reason =
                "a hello is a field list of a protocol and two sizes, and the frame size is at least "
                + "\(Self.smallestClientPayload) bytes"
            return ErrorReply(status: ErrorReply.param, reason: reason).frame(requestID: frame.requestID)
        }
        clientHello = hello
        let mine = ProtocolHello(
            protocolVersion: Frame.protocolVersion, largestPayload: payloadLimit, largestAnswer: answerLimit)
        return Frame(kind: .helloReply, requestID: frame.requestID, payload: mine.fields.encoded())
    }

    /// The largest payload of one frame to this client: in protocol 2 the smaller of the two limits (the daemon
    /// keeps its own frames within what it accepts), in protocol 1 what such a client takes.
    var largestAnswerFrame: Int {
        guard let clientHello, clientHello.protocolVersion >= 2 else { return Frame.protocolOneLargestPayload }
        return min(clientHello.largestPayload, payloadLimit)
    }

    /// The largest whole answer this client may be sent: the daemon's bound, within the client's own; in
    /// protocol 1 one frame.
    var largestAnswer: Int {
        guard let clientHello, clientHello.protocolVersion >= 2 else {
            return min(answerLimit, Frame.protocolOneLargestPayload)
        }
        return min(answerLimit, clientHello.largestAnswer)
    }

    /// Counts `bytes` of an answer to a client of `uid` in the daemon's budget until ``answerSent()``; false, with
    /// nothing counted, when the budget cannot take them.
    func holdAnswer(_ bytes: Int, uid: UInt32) -> Bool {
        answerSent()
        guard answers.reserve(bytes, for: uid) else { return false }
        heldAnswer = (bytes, uid)
        return true
    }

    /// Gives back what the answer being sent held: its last frame is sent, or the connection is ending.
    func answerSent() {
        guard let held = heldAnswer else { return }
        answers.release(held.bytes, for: held.uid)
        heldAnswer = nil
    }

    /// Whether the client takes answers in parts.
    var takesAnswersInParts: Bool { clientProtocolVersion >= 2 }

    /// The protocol the client said it speaks; 1 until it says hello.
    var clientProtocolVersion: Int { clientHello?.protocolVersion ?? 1 }

    /// Sends `payload`, the answer to `requestID`, in parts when it is larger than one frame: every
    /// `response-part` frame now, and returns the closing `response` frame for the caller to send. The caller
    /// has checked the size against ``largestAnswer``.
    func sendingParts(of payload: [UInt8], requestID: UInt64) -> Frame {
        // One frame at a time: a large answer is not copied into all its frames at once.
        let ranges = AnswerPart.pieces(ofAnswerSized: payload.count, largestPayload: largestAnswerFrame)
        for range in ranges.dropLast() {
            // Each part may hold secrets: wiped once sent, as the whole answer is by its owner.
            var part = AnswerPart.frame(of: payload, range, requestID: requestID, isLast: false)
            let sent = send(part)
            part.wipePayload()
            // A client that is gone fails the closing send too, which ends the connection.
            guard sent else { break }
        }
        let last = ranges.last ?? 0..<payload.count
        return AnswerPart.frame(of: payload, last, requestID: requestID, isLast: true)
    }
}
