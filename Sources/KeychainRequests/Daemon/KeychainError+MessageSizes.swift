import KeychainCore

/// The errors of keychaind's size limits, made here (where the reasons' Japanese wordings are checked) for both
/// ends: the daemon's refusal of an answer too large to send, and the client's of a request too large to send or
/// an answer too large to take.
extension KeychainError {
    /// An answer over what the client may be sent: errSecAllocate (-108), the answer being more than will be
    /// held and handed over at once; an answer has no buffer of the caller's that could be too small, which is
    /// what errSecBufferTooSmall reports.
    /// - Parameter inParts: whether the client takes answers in parts (protocol 2).
    package static func answerTooLarge(size: Int, limit: Int, inParts: Bool) -> KeychainError {
        guard inParts else {
            return KeychainError.allocate.because(
                "the answer is \(size) bytes, more than a client of protocol 1 takes (\(limit) bytes); "
                    + "narrow the query, or use a client of protocol 2, which takes answers in parts")
        }
        return KeychainError.allocate.because(
            "the answer is \(size) bytes, over keychaind's limit of \(limit) bytes for one answer; "
                + "narrow the query (by service, account or access group)")
    }

    /// An answer keychaind cannot hold now: its client's other answers (or all users' together) still being read
    /// fill what it keeps for answers in parts. errSecAllocate (-108).
    package static func answersHeld(size: Int) -> KeychainError {
        KeychainError.allocate.because(
            "the answer is \(size) bytes, and keychaind holds as much as it keeps for answers still being read "
                + "(this user's others, or every user's); try again once they are read, or narrow the query")
    }

    /// An answer whose parts announce more than this process takes: errSecAllocate (-108).
    package static func answerOverClientLimit(size: UInt64, limit: Int) -> KeychainError {
        KeychainError.allocate.because(
            "the answer is \(size) bytes, over this process's limit of \(limit) bytes for one answer")
    }

    /// A request larger than the daemon takes in one message: errSecParam (-50), as for any value too large to
    /// store; the daemon would close the connection on its header.
    package static func requestTooLarge(size: Int, limit: Int) -> KeychainError {
        KeychainError.param.because(
            "the request is \(size) bytes, over keychaind's limit of \(limit) bytes for one message")
    }
}
