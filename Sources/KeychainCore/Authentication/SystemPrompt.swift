/// One message of the system's authentication (PAM's conversation, fprintd's progress) that keychaind runs for
/// a client and forwards to it: a question to answer, or a line to show.
package struct SystemPrompt: Sendable, Hashable {
    package enum Style: UInt8, Sendable, Hashable {
        /// A question answered without echo (a password).
        case hidden = 1
        /// A question answered with echo (a user name, a one-time code).
        case visible = 2
        /// A line to show.
        case information = 3
        /// An error to show.
        case error = 4

        /// Whether the user is to type an answer.
        package var isQuestion: Bool { self == .hidden || self == .visible }
    }

    package let style: Style
    package let text: String

    package init(style: Style, text: String) {
        self.style = style
        self.text = text
    }
}

/// The answer to a ``SystemPrompt``: what the user typed at a question, that a line was shown, or that the
/// prompt ended without an answer. None of these says "authenticated": the system judges what was typed.
package enum SystemPromptReply: Sendable {
    case typed(SecureBytesBox)
    case shown
    case failed(AuthenticationFailure)
}
