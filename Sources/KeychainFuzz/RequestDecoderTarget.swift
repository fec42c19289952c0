import KeychainCore
import KeychainRequests

/// The typed encoding keychaind reads from any local process: the payload of a `request` frame (and, as a client
/// reads it from the daemon, of a `response` frame, and the prompt frames). Decoding must never trap; a request
/// that decodes re-encodes to bytes that decode to the same bytes again (the encoding is canonical after one
/// round).
extension FuzzTarget {
    static let requestDecoder = FuzzTarget(
        name: "request-decoder",
        summary: "RequestCodec, ResponseCodec and PromptCodec over the input; decoded requests re-encode stably"
    ) { bytes in
        if let envelope = try? RequestCodec.decode(bytes) {
            _ = String(describing: envelope.request)
            guard let once = try? RequestCodec.encode(envelope.request, context: envelope.context) else {
                return fuzzCheck(false, "a decoded request does not encode")
            }
            let again = try? RequestCodec.decode(once)
            let twice = again.flatMap { try? RequestCodec.encode($0.request, context: $0.context) }
            fuzzCheck(twice == once, "a decoded request does not re-encode to the same bytes")
        }
        if let response = try? ResponseCodec.decode(bytes) {
            fuzzCheck((try? ResponseCodec.encode(.success(response))) != nil, "a decoded response does not encode")
        }
        _ = try? PromptCodec.decodePrompt(bytes)
        _ = try? PromptCodec.decodeAnswer(bytes)
    }
}
