import KeychainCore

private typealias Reason = KeychainError.Reason

/// The four SecItem functions (and an update's second dictionary), with the property groups each accepts:
/// what an errSecParam or errSecNoSuchAttr explanation names next to the offending key.
enum SecItemFunction {
    case add, copyMatching, updateQuery, updateAttributes, delete

    /// The function's name as the caller wrote it.
    var name: KeychainError.Reason {
        switch self {
        case .add: "SecItemAdd"
        case .copyMatching: "SecItemCopyMatching"
        case .updateQuery: Reason("SecItemUpdate's query")
        case .updateAttributes: Reason("SecItemUpdate's attributesToUpdate")
        case .delete: "SecItemDelete"
        }
    }

    /// The groups the function takes, in Apple's order of SecItem.h.
    var acceptedGroups: [PropertyGroup] {
        switch self {
        case .add: [.itemClass, .attribute, .returnType, .value, .use]
        case .copyMatching, .delete: [.itemClass, .attribute, .search, .returnType, .value, .use]
        case .updateQuery: [.itemClass, .attribute, .search, .value, .use]
        // kSecUseDataProtectionKeychain aside, which securityd skips: its other kSecUse… keys are errSecNoSuchAttr.
        case .updateAttributes: [.attribute, .value]
        }
    }

    /// "SecItemAdd takes item class (kSecClass), attribute (kSecAttr…), … properties".
    var accepted: KeychainError.Reason {
        let titles = acceptedGroups.map(\.title)
        let list = titles.dropFirst().reduce(titles.first ?? "") { Reason("\($0), \($1)") }
        return Reason("\(name) takes \(list) properties")
    }

    /// The reason a dictionary holds keys of a group the function does not take: the keys and what it takes.
    func misplaced(_ group: PropertyGroup, keys: [String], detail: KeychainError.Reason? = nil) -> KeychainError {
        let named = keys.sorted().joined(separator: ", ")
        let error = self == .updateAttributes ? KeychainError.noSuchAttr : KeychainError.param
        let reason = Reason("\(name) does not take \(group.title) properties (\(named))")
        guard let detail else { return error.because("\(reason); \(accepted)") }
        return error.because("\(reason); \(detail); \(accepted)")
    }

    /// The same reason for a single key that is not accepted here.
    func refused(_ key: String, because detail: KeychainError.Reason) -> KeychainError {
        KeychainError.param.because("\(key): \(detail); \(accepted)")
    }
}

extension PropertyGroup {
    /// The group as Apple's documentation names it, with the constants' prefix.
    var title: KeychainError.Reason {
        switch self {
        case .itemClass: Reason("item class (kSecClass)")
        case .attribute: Reason("attribute (kSecAttr…)")
        case .search: Reason("search (kSecMatch…)")
        case .returnType: Reason("return type (kSecReturn…)")
        case .value: Reason("value (kSecValue…)")
        case .use: "kSecUse…"
        }
    }
}
