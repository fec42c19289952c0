import KeychainWire
import Testing

/// Protocol 2's pieces: the hello, an answer cut into frames no larger than a limit, and the client's
/// reassembly with its bound.
@Suite struct AnswerPartTests {
    private func bytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) } }

    @Test func anAnswerThatFitsIsOneResponseFrame() {
        let frames = AnswerPart.frames(carrying: bytes(100), requestID: 9, largestPayload: 100)
        #expect(frames == [Frame(kind: .response, requestID: 9, payload: bytes(100))])
    }

    @Test func aLargerAnswerIsPartsThenTheResponseEachWithinTheLimit() throws {
        let answer = bytes(10_000)
        let frames = AnswerPart.frames(carrying: answer, requestID: 4, largestPayload: 1024)
        #expect(frames.count == 10)
        #expect(frames.allSatisfy { $0.payload.count <= 1024 && $0.requestID == 4 })
        #expect(frames.dropLast().allSatisfy { $0.kind == .responsePart })
        #expect(frames.last?.kind == .response)
        // A part is the whole answer's size, then its piece (written straight from the answer).
        #expect(frames[0].payload == AnswerPart(totalSize: 10_000, piece: Array(answer[0..<1016])).encoded())
        let assembler = AnswerAssembler(limit: 10_000)
        for part in frames.dropLast() { try assembler.add(partPayload: part.payload) }
        #expect(assembler.isStarted)
        #expect(try assembler.finish(responsePayload: frames[frames.count - 1].payload) == answer)
    }

    @Test func anAnswerOverTheClientsBoundIsRefusedAtItsFirstPart() throws {
        let frames = AnswerPart.frames(carrying: bytes(5000), requestID: 1, largestPayload: 1024)
        let assembler = AnswerAssembler(limit: 4096)
        #expect(throws: AnswerAssembler.Failure.tooLarge(size: 5000, limit: 4096)) {
            try assembler.add(partPayload: frames[0].payload)
        }
    }

    @Test func partsThatDoNotAddUpAreRefused() throws {
        let frames = AnswerPart.frames(carrying: bytes(3000), requestID: 1, largestPayload: 1024)
        let short = AnswerAssembler(limit: 1 << 20)
        try short.add(partPayload: frames[0].payload)
        #expect(throws: AnswerAssembler.Failure.self) { try short.finish(responsePayload: [1, 2, 3]) }
        let disagreeing = AnswerAssembler(limit: 1 << 20)
        try disagreeing.add(partPayload: frames[0].payload)
        let other = AnswerPart(totalSize: 2999, piece: [1]).encoded()
        #expect(throws: AnswerAssembler.Failure.self) { try disagreeing.add(partPayload: other) }
        let headless = AnswerAssembler(limit: 1 << 20)
        #expect(throws: AnswerAssembler.Failure.self) { try headless.add(partPayload: [0, 0, 0]) }
        let overflowing = AnswerAssembler(limit: 1 << 20)
        #expect(throws: AnswerAssembler.Failure.self) {
            try overflowing.add(partPayload: AnswerPart(totalSize: 2, piece: [1, 2, 3]).encoded())
        }
    }

    @Test func aHelloRoundTripsAndAMalformedOneIsNil() {
        let hello = ProtocolHello(protocolVersion: 2, largestPayload: 4096, largestAnswer: 1 << 30)
        #expect(ProtocolHello.decode(hello.fields.encoded()) == hello)
        #expect(ProtocolHello.decode(FieldList([("protocol", "2")]).encoded()) == nil)
        #expect(ProtocolHello.decode([0xFF]) == nil)
        let negative = FieldList([("protocol", "2"), ("largest-payload", "-1"), ("largest-answer", "5")])
        #expect(ProtocolHello.decode(negative.encoded()) == nil)
    }

    @Test func theNewKindsHaveTheirNames() {
        #expect(FrameKind.hello.description == "hello")
        #expect(FrameKind.helloReply.description == "hello-reply")
        #expect(FrameKind.responsePart.description == "response-part")
        #expect(FrameKind.hello.isBuiltIn && !FrameKind.responsePart.isBuiltIn)
    }
}
