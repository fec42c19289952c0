/// The D-Bus values the keychain exchanges with fprintd.
public enum BusValue: Equatable, Sendable {
    case string(String)
    case objectPath(String)
    case boolean(Bool)
    case strings([String])

    public var string: String? {
        switch self {
        case .string(let value), .objectPath(let value): value
        default: nil
        }
    }
}

/// A D-Bus error: its name (`org.freedesktop.DBus.Error.ServiceUnknown`, `net.reactivated.Fprint.Error…`) and text.
public struct BusError: Error, Equatable, Sendable, CustomStringConvertible {
    public let name: String
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }
}
