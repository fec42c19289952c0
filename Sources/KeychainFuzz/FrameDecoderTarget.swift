import KeychainDaemon
import KeychainWire

/// keychaind's frame decoder, which reads bytes from any local process: the input is a byte stream from a
/// client. Decoding must never trap; every frame decoded must encode to exactly the bytes it came from; and the
/// same stream cut in two pieces (where the first byte says) must decode to the same frames and error. The
/// payloads of the daemon's own answers (field lists, error replies, hellos) are decoded too, and answers in
/// parts are put back together as a client does.
extension FuzzTarget {
    static let frameDecoder = FuzzTarget(
        name: "frame-decoder",
        summary: "FrameDecoder over the input whole and in two pieces; decoded frames re-encode to their bytes"
    ) { bytes in
        let limit = 512
        let whole = FrameDecoder.decodeAll(bytes, payloadLimit: limit)
        let encoded = whole.frames.flatMap { $0.encoded() }
        fuzzCheck(Array(bytes.prefix(encoded.count)) == encoded, "decoded frames do not re-encode to their bytes")
        let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        var decoder = FrameDecoder(payloadLimit: limit)
        var frames: [Frame] = []
        var failure: FrameError?
        for piece in [Array(bytes[..<cut]), Array(bytes[cut...])] where failure == nil {
            decoder.append(piece)
            do throws(FrameError) {
                while let frame = try decoder.next() { frames.append(frame) }
            } catch {
                failure = error
            }
        }
        fuzzCheck(frames == whole.frames && failure == whole.error, "a stream in two pieces decodes differently")
        // Protocol 2: the frames as a client reads them, hellos and answers in parts put back together.
        let assembler = AnswerAssembler(limit: 4 * limit)
        for frame in frames {
            _ = frame.description
            _ = try? FieldList.decode(frame.payload)
            _ = try? ErrorReply.decode(frame.payload)
            if let hello = ProtocolHello.decode(frame.payload) {
                fuzzCheck(ProtocolHello.decode(hello.fields.encoded()) == hello, "a hello does not round-trip")
            }
            switch frame.kind {
            case .responsePart:
                if let part = try? AnswerPart.decode(frame.payload) {
                    fuzzCheck(part.encoded() == frame.payload, "an answer part does not re-encode to its bytes")
                }
                _ = try? assembler.add(partPayload: frame.payload)
            case .response:
                if let whole = try? assembler.finish(responsePayload: frame.payload) {
                    fuzzCheck(whole.count <= 4 * limit + limit, "an answer grew past its bound")
                }
            default: break
            }
        }
    }
}
