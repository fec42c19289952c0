import KeychainCore

/// A reason crosses the wire as its template's parts and typed arguments, not as English text, so the client
/// words it in its own language (``KeychainError/Reason/text(in:)``):
///
///     literal count (≥ 1) | each literal (text) | per argument: tag (1) | value
///     tags: 0 text, 1 number (text), 2 attribute (its name), 3 status message (32-bit OSStatus), 4 a reason
///
/// A reason nests at most ``WireDecoder/maximumReasonDepth`` deep: a hostile message cannot recurse the decoder
/// off its stack.
extension WireEncoder {
    mutating func reason(_ reason: KeychainError.Reason) {
        array(reason.literals) { $0.string($1) }
        for argument in reason.arguments {
            switch argument {
            case .text(let text):
                byte(0)
                string(text)
            case .number(let number):
                byte(1)
                string(number)
            case .attribute(let key):
                byte(2)
                string(key.rawValue)
            case .statusMessage(let status):
                byte(3)
                int32(status)
            case .reason(let inner):
                byte(4)
                self.reason(inner)
            }
        }
    }
}

extension WireDecoder {
    /// How deep reasons may nest in a message.
    static let maximumReasonDepth = 16

    mutating func reason(depth: Int = 0) throws -> KeychainError.Reason {
        guard depth < Self.maximumReasonDepth else {
            throw KeychainError.decode.because("the message nests reasons deeper than \(Self.maximumReasonDepth)")
        }
        let literals = try array(minimumSize: 4) { try $0.string() }
        guard !literals.isEmpty else { throw KeychainError.decode.because("the message carries a reason without text") }
        var arguments: [KeychainError.Reason.Argument] = []
        for _ in 1..<literals.count {
            switch try byte() {
            case 0: arguments.append(.text(try string()))
            case 1: arguments.append(.number(try string()))
            case 2: arguments.append(.attribute(AttributeKey(rawValue: try string())))
            case 3: arguments.append(.statusMessage(try int32()))
            case 4: arguments.append(.reason(try reason(depth: depth + 1)))
            case let tag: throw Self.invalid("a reason's argument", tag)
            }
        }
        guard let reason = KeychainError.Reason(parts: literals, arguments: arguments) else {
            throw KeychainError.decode.because("the message carries a reason whose parts do not fit together")
        }
        return reason
    }
}
