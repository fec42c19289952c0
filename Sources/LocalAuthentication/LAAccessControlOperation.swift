import KeychainCore

/// What an app is about to do with an access control (`LAContext.evaluateAccessControl`), with Apple's values.
public enum LAAccessControlOperation: Int, Sendable {
    case createItem = 0
    case useItem = 1
    case createKey = 2
    case useKeySign = 3
    case useKeyDecrypt = 4
    case useKeyKeyExchange = 5

    /// The engine's operation.
    var engine: Keychain.AccessControlOperation {
        switch self {
        case .createItem: .createItem
        case .useItem: .useItem
        case .createKey: .createKey
        case .useKeySign: .useKeySign
        case .useKeyDecrypt: .useKeyDecrypt
        case .useKeyKeyExchange: .useKeyKeyExchange
        }
    }
}
