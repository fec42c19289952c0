/// The outcome of ``Keychain/search(_:)``.
public struct SearchReport: Sendable {
    /// The items found, as ``Keychain/copyMatching(_:)`` returns them.
    public let results: [ItemResult]
    /// Matching items left out because their protection class is not available in the current lock state.
    public let leftOut: Int
    /// Matching items left out because they are damaged (they do not decrypt, or contradict their index).
    public let damaged: Int
    /// Why, when `leftOut` or `damaged` is not zero.
    public let explanation: KeychainError.Reason?
    /// ``explanation`` in English.
    public var note: String? { explanation?.english }

    package init(results: [ItemResult], leftOut: Int, damaged: Int, explanation: KeychainError.Reason?) {
        self.results = results
        self.leftOut = leftOut
        self.damaged = damaged
        self.explanation = explanation
    }
}
