import KeychainMessages

extension CommandParser {
    /// `companion ACTION`: exactly one action.
    static func companionCommand(_ verb: SecurityVerb, _ operands: [String]) throws(UsageError) -> SecurityCommand {
        guard operands.count == 1, let action = CompanionCommand(rawValue: operands[0]) else {
            throw UsageError(.nameOneAction, verb: verb)
        }
        return .companion(action)
    }
}
