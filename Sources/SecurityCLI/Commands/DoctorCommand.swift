/// `doctor FUNCTION [FILE]` (not on macOS): reads a SecItem dictionary as JSON and says what the keychain
/// would do with it and why, without changing anything.
public struct DoctorCommand: Equatable, Sendable {
    /// The SecItem function the dictionary is for.
    public enum Function: String, Equatable, Sendable, CaseIterable {
        case add, copy, update, delete

        /// Apple's name of the function.
        public var secItemName: String {
            switch self {
            case .add: "SecItemAdd"
            case .copy: "SecItemCopyMatching"
            case .update: "SecItemUpdate"
            case .delete: "SecItemDelete"
            }
        }
    }

    /// The function; nil when the JSON names it (`"function": "add"`).
    public var function: Function?
    /// The JSON file; nil reads standard input.
    public var file: String?

    public init(function: Function? = nil, file: String? = nil) {
        self.function = function
        self.file = file
    }
}
