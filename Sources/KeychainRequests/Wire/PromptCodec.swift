import KeychainCore

/// The typed encoding of the questions keychaind forwards to its client while a request runs (`prompt` frames)
/// and of the client's replies (`prompt-answer` frames). A reply relays what the user typed, or that the user
/// or the client gave up; there is no way to say "authenticated": the daemon judges the passcode itself.
///
///     prompt:  kind (1: 0 biometry, 1 companion, 2 device passcode, 3 system message) | reason (for 0 and 2)
///              for 3: style (1 hidden question, 2 visible question, 3 information, 4 error) | text
///     answer:  0 | the typed bytes     1 | an LAError code (canceled, no terminal, ...)     2 (a line was shown)
///
/// A system message is one of PAM's (or fprintd's) that keychaind forwards while it authenticates the client's
/// user itself; the typed answer goes back to PAM in the daemon, which alone decides.
package enum PromptCodec {
    /// The client's reply to a prompt.
    package enum Reply: Sendable {
        /// What the user typed at a passcode prompt.
        case passcode(SecureBytesBox)
        /// The prompt ended without an answer (`LAError` code: canceled, not interactive, ...).
        case failed(AuthenticationFailure)

        /// A system message that asked nothing was shown.
        case shown

        package static let canceled = Reply.failed(.userCancel)
    }

    /// A question of the daemon's: one of the keychain's prompts, or a message of the system's authentication.
    package enum Question: Sendable, Hashable {
        case user(UserPrompt)
        case system(SystemPrompt)
    }

    package static func encode(_ system: SystemPrompt) -> [UInt8] {
        var encoder = WireEncoder()
        encoder.byte(3)
        encoder.byte(system.style.rawValue)
        encoder.string(system.text)
        // PAM's messages are short lines: they always fit.
        return (try? encoder.finished()) ?? [3, 3]
    }

    /// A question of either kind.
    package static func decodeQuestion(_ bytes: [UInt8]) throws -> Question {
        if bytes.first != 3 { return .user(try decodePrompt(bytes)) }
        return try WireDecoder.decode(bytes) { decoder in
            _ = try decoder.byte()
            let raw = try decoder.byte()
            guard let style = SystemPrompt.Style(rawValue: raw) else {
                throw WireDecoder.invalid("a message style", raw)
            }
            return .system(SystemPrompt(style: style, text: try decoder.string()))
        }
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
        case .shown:
            encoder.byte(2)
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
            case 2: return .shown
            case let tag: throw WireDecoder.invalid("an answer kind", tag)
            }
        }
    }
}
