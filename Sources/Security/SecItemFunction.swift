import KeychainCore

/// The four SecItem functions (and an update's second dictionary), with the property groups each accepts:
/// what an errSecParam or errSecNoSuchAttr explanation names next to the offending key.
enum SecItemFunction {
    case add, copyMatching, updateQuery, updateAttributes, delete

    /// The function's name as the caller wrote it.
    var name: String {
        switch self {
        case .add: "SecItemAdd"
        case .copyMatching: "SecItemCopyMatching"
        case .updateQuery: "SecItemUpdate's query"
        case .updateAttributes: "SecItemUpdate's attributesToUpdate"
        case .delete: "SecItemDelete"
        }
    }

    /// The groups the function takes, in Apple's order of SecItem.h.
    var acceptedGroups: [PropertyGroup] {
        switch self {
        case .add: [.itemClass, .attribute, .returnType, .value, .use]
        case .copyMatching, .delete: [.itemClass, .attribute, .search, .returnType, .value, .use]
        case .updateQuery: [.itemClass, .attribute, .search, .value, .use]
        case .updateAttributes: [.attribute, .value, .use]
        }
    }

    /// "SecItemAdd takes item class (kSecClass), attribute (kSecAttr…), … properties".
    var accepted: String {
        "\(name) takes " + acceptedGroups.map(\.title).joined(separator: ", ") + " properties"
    }

    /// The reason a dictionary holds keys of a group the function does not take: the keys and what it takes.
    func misplaced(_ group: PropertyGroup, keys: [String], detail: String? = nil) -> KeychainError {
        let named = keys.sorted().joined(separator: ", ")
        let error = self == .updateAttributes ? KeychainError.noSuchAttr : KeychainError.param
        var reason = "\(name) does not take \(group.title) properties (\(named))"
        if let detail { reason += "; \(detail)" }
        return error.because(verbatim: reason + "; \(accepted)")
    }

    /// The same reason for a single key that is not accepted here.
    func refused(_ key: String, because detail: String) -> KeychainError {
        KeychainError.param.because("\(key): \(detail); \(accepted)")
    }
}

extension PropertyGroup {
    /// The group as Apple's documentation names it, with the constants' prefix.
    var title: String {
        switch self {
        case .itemClass: "item class (kSecClass)"
        case .attribute: "attribute (kSecAttr…)"
        case .search: "search (kSecMatch…)"
        case .returnType: "return type (kSecReturn…)"
        case .value: "value (kSecValue…)"
        case .use: "kSecUse…"
        }
    }
}
