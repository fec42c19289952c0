import Foundation
import KeychainCore

/// Adds an item to the keychain.
/// - Parameters:
///   - attributes: class, attributes, value and (optionally) return-type properties. Search properties are
///     refused with `errSecParam`.
///   - result: receives what the `kSecReturn…` flags ask for; pass nil when nothing is wanted.
/// - Returns: `errSecSuccess`, `errSecDuplicateItem` when an item with the same primary key exists, or
///   another `errSec…` code.
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    result?.pointee = nil
    return SecurityRuntime.perform("SecItemAdd") { keychain in
        let input = try SecDictionary(decoding: attributes)
        if input.groups.contains(.search) {
            throw KeychainError.param.because("SecItemAdd does not take search properties (kSecMatch…)")
        }
        if input.persistentReference != nil {
            throw KeychainError.param.because("SecItemAdd does not take kSecValuePersistentRef")
        }
        if input.synchronizable == .any {
            throw KeychainError.param.because("kSecAttrSynchronizableAny is for queries, not for adding an item")
        }
        guard let itemClass = input.itemClass else { throw KeychainError.param.because("no kSecClass") }
        let added = try keychain.add(NewItem(
            itemClass: itemClass, attributes: input.attributes, accessGroup: input.accessGroup,
            synchronizable: input.synchronizable == .yes, accessibility: input.accessibility,
            accessControl: input.accessControl, data: input.data, returns: result == nil ? [] : input.returns))
        if let added, let result {
            result.pointee = ResultEncoding.encode([added], returns: input.returns, limit: .one)
        }
    }
}

/// Finds items that match a query.
/// - Parameters:
///   - query: class, attributes, search and return-type properties (or a persistent reference).
///   - result: receives the result, shaped by the `kSecReturn…` flags and `kSecMatchLimit`; left nil when
///     nothing matches.
/// - Returns: `errSecSuccess`, `errSecItemNotFound`, or another `errSec…` code.
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    result?.pointee = nil
    return SecurityRuntime.perform("SecItemCopyMatching") { keychain in
        let input = try SecDictionary(decoding: query)
        if input.data != nil {
            throw KeychainError.param.because("kSecValueData is not a search criterion")
        }
        let limit = input.limit ?? .one
        let report = try keychain.search(input.query(limit: limit))
        if let note = report.note { SecurityRuntime.log("SecItemCopyMatching", note) }
        if let result {
            result.pointee = ResultEncoding.encode(report.results, returns: input.returns, limit: limit)
        }
    }
}

/// Changes every item that matches a query, all or nothing.
/// - Parameters:
///   - query: class, attributes and search properties; return-type properties are refused with `errSecParam`.
///   - attributesToUpdate: attributes and value properties to set.
/// - Returns: `errSecSuccess`, `errSecItemNotFound`, `errSecDuplicateItem`, or another `errSec…` code.
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    SecurityRuntime.perform("SecItemUpdate") { keychain in
        let input = try SecDictionary(decoding: query)
        if input.groups.contains(.returnType) {
            throw KeychainError.param.because("an update query cannot take kSecReturn… properties")
        }
        if input.data != nil {
            throw KeychainError.param.because("kSecValueData belongs in the attributes to update, not the query")
        }
        if attributesToUpdate.object(forKey: "class") != nil {
            throw KeychainError.noSuchAttr.because("kSecClass cannot be changed by an update")
        }
        let changes = try SecDictionary(decoding: attributesToUpdate, itemClass: input.itemClass)
        let misplaced = changes.groups.subtracting([.attribute, .value, .use])
        if !misplaced.isEmpty || changes.persistentReference != nil {
            throw KeychainError.noSuchAttr.because(
                "the attributes to update may hold only attributes and kSecValueData")
        }
        if changes.synchronizable == .any {
            throw KeychainError.param.because("kSecAttrSynchronizableAny is for queries, not for updating an item")
        }
        try keychain.update(
            input.query(limit: input.limit ?? .all),
            with: ItemChanges(
                attributes: changes.attributes, accessGroup: changes.accessGroup,
                synchronizable: changes.synchronizable.map { $0 == .yes }, accessibility: changes.accessibility,
                accessControl: changes.accessControl, data: changes.data))
    }
}

/// Deletes every item that matches a query (a delete has no limit).
/// - Parameter query: class, attributes and search properties. Return-type properties and kSecValueData, which
///   callers often leave in a query they reuse, are ignored.
/// - Returns: `errSecSuccess`, `errSecItemNotFound`, or another `errSec…` code.
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    SecurityRuntime.perform("SecItemDelete") { keychain in
        let input = try SecDictionary(decoding: query)
        var itemQuery = input.query(limit: input.limit ?? .all)
        itemQuery.returns = []
        try keychain.delete(itemQuery)
    }
}

extension SecDictionary {
    /// The typed query this dictionary describes.
    func query(limit: MatchLimit) -> ItemQuery {
        ItemQuery(
            itemClass: itemClass, attributes: attributes, accessGroup: accessGroup,
            synchronizable: synchronizable ?? .no, accessibility: accessibility, limit: limit,
            caseInsensitive: caseInsensitive, returns: returns, persistentReference: persistentReference)
    }
}
