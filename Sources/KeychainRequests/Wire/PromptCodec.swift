import KeychainCore

/// The typed encoding of the questions keychaind forwards to its client while a request runs (`prompt` frames)
/// and of the client's replies (`prompt-answer` frames). A reply relays what the user typed, or that the user
/// or the client gave up; there is no way to say "authenticated": the daemon judges the passcode itself.
///
///     prompt:  kind (1: 0 biometry, 1 companion, 2 device passcode) | reason (for 0 and 2)
///     answer:  0 | the passcode's bytes          1 | an LAError code (the user canceled, no terminal, ...)
package enum PromptCodec {
    /// The client's reply to a prompt.
    package enum Reply: Sendable {
        /// What the user typed at a passcode prompt.
        case passcode(SecureBytesBox)
        /// The prompt ended without an answer (`LAError` code: canceled, not interactive, ...).
        case failed(AuthenticationFailure)

        package static let canceled = Reply.failed(.userCancel)
    }

    package static func encode(_ prompt: UserPrompt) -> [UInt8] {
        var encoder = WireEncoder()
        switch prompt {
        case .biometry(let reason):
            encoder.byte(0)
            encoder.string(reason)
        case .companion:
            encoder.byte(1)
        case .devicePasscode(let reason):
            encoder.byte(2)
            encoder.string(reason)
        }
        // A prompt holds no secret and its reason is an app's text of a few words: it always fits.
        return (try? encoder.finished()) ?? [1]
    }

    package static func decodePrompt(_ bytes: [UInt8]) throws -> UserPrompt {
        try WireDecoder.decode(bytes) { decoder in
            switch try decoder.byte() {
            case 0: return .biometry(reason: try decoder.string())
            case 1: return .companion
            case 2: return .devicePasscode(reason: try decoder.string())
            case let tag: throw WireDecoder.invalid("a prompt kind", tag)
            }
        }
    }

    package static func encode(_ reply: Reply) throws -> [UInt8] {
        var encoder = WireEncoder()
        switch reply {
        case .passcode(let box):
            encoder.byte(0)
            encoder.secret(Secret(box.secure))
        case .failed(let failure):
            encoder.byte(1)
            encoder.int32(Int32(truncatingIfNeeded: failure.rawValue))
        }
        return try encoder.finished()
    }

    package static func decodeAnswer(_ bytes: [UInt8]) throws -> Reply {
        try WireDecoder.decode(bytes) { decoder in
            switch try decoder.byte() {
            case 0: return .passcode(SecureBytesBox(secure: try decoder.secureBytes()))
            case 1:
                let code = try decoder.int32()
                guard let failure = AuthenticationFailure(rawValue: Int(code)) else {
                    throw KeychainError.decode.because("the message carries an unknown LAError code \(code)")
                }
                return .failed(failure)
            case let tag: throw WireDecoder.invalid("an answer kind", tag)
            }
        }
    }
}
