import KeychainDaemon
import KeychainWire

/// keychaind's frame decoder, which reads bytes from any local process: the input is a byte stream from a
/// client. Decoding must never trap; every frame decoded must encode to exactly the bytes it came from; and the
/// same stream cut in two pieces (where the first byte says) must decode to the same frames and error. The
/// payloads of the daemon's own answers (field lists, error replies) are decoded too.
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
        for frame in frames {
            _ = frame.description
            _ = try? FieldList.decode(frame.payload)
            _ = try? ErrorReply.decode(frame.payload)
        }
    }
}
