/// The application's side of a PAM conversation: it asks the user what PAM's modules ask.
public protocol PAMConversation: AnyObject {
    /// Asks `prompt`, without echo when `hidden`. - Returns: the typed bytes (the caller wipes its copy; PAM
    /// receives its own), or nil when the user cancels.
    func ask(_ prompt: String, hidden: Bool) -> [UInt8]?
    /// Shows a message of PAM's (an error or information).
    func tell(_ message: String)
    /// Shows a message of PAM's, knowing whether it is an error; by default as ``tell(_:)``.
    func tell(_ message: String, isError: Bool)
}

extension PAMConversation {
    /// Shows a message of PAM's, saying whether it is an error (`PAM_ERROR_MSG`) or information
    /// (`PAM_TEXT_INFO`); a conversation that shows both alike keeps the default.
    public func tell(_ message: String, isError: Bool) { tell(message) }
}
