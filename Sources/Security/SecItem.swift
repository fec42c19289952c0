import Foundation
import KeychainCore
import KeychainMessages
import KeychainRequests

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
        var notes: [KeychainError.Reason] = []
        var (item, context) = try SecItemRequest.add(attributes, notes: &notes)
        SecurityRuntime.log("SecItemAdd", notes: notes)
        let returns = item.returns
        if result == nil { item.returns = [] }
        let added = try keychain.using(context).add(item)
        if let added, let result {
            result.pointee = ResultEncoding.encode([added], returns: returns, limit: .one)
        }
    }
}

/// Finds items that match a query.
/// - Parameters:
///   - query: class, attributes, search and return-type properties (or a persistent reference). A
///     kSecValueData, which must be data, is accepted and ignored, as on iOS. The certificate search keys
///     (`kSecMatchIssuers`, `kSecMatchPolicy`, …) filter what the keychain finds before the limit.
///   - result: receives the result, shaped by the `kSecReturn…` flags and `kSecMatchLimit`; left nil when
///     nothing matches.
/// - Returns: `errSecSuccess`, `errSecItemNotFound`, or another `errSec…` code.
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    result?.pointee = nil
    return SecurityRuntime.perform("SecItemCopyMatching") { keychain in
        var notes: [KeychainError.Reason] = []
        let (itemQuery, context, certificateMatch, byIdentityReference) = try SecItemRequest.copyMatching(
            query, notes: &notes)
        SecurityRuntime.log("SecItemCopyMatching", notes: notes)
        let client = keychain.using(context)
        let report =
            certificateMatch.isEmpty
            ? try client.search(itemQuery)
            : try CertificateMatchSearch(client: client, query: itemQuery, match: certificateMatch).run()
        if let note = report.explanation { SecurityRuntime.log("SecItemCopyMatching", note.text(in: .current)) }
        if let result, !byIdentityReference || SecItemRequest.identityReferenceAnswers(itemQuery) {
            result.pointee = ResultEncoding.encode(report.results, returns: itemQuery.returns, limit: itemQuery.limit)
        }
    }
}

/// Changes every item that matches a query, all or nothing.
/// - Parameters:
///   - query: class, attributes and search properties; return-type properties are refused with `errSecParam`.
///     A kSecValueData (apps pass the old password, or their add dictionary) must be data and is ignored.
///   - attributesToUpdate: attributes and value properties to set.
/// - Returns: `errSecSuccess`, `errSecItemNotFound`, `errSecDuplicateItem`, or another `errSec…` code.
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    SecurityRuntime.perform("SecItemUpdate") { keychain in
        var notes: [KeychainError.Reason] = []
        let request = try SecItemRequest.update(query, attributesToUpdate, notes: &notes)
        SecurityRuntime.log("SecItemUpdate", notes: notes)
        try keychain.using(request.context).update(request.query, with: request.changes)
    }
}

/// Deletes every item that matches a query (a delete has no limit).
/// - Parameter query: class, attributes and search properties. Return-type properties and kSecValueData (which
///   must be data), which callers often leave in a query they reuse, are ignored.
/// - Returns: `errSecSuccess`, `errSecItemNotFound`, or another `errSec…` code.
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    SecurityRuntime.perform("SecItemDelete") { keychain in
        var notes: [KeychainError.Reason] = []
        let itemQuery = try SecItemRequest.delete(query, notes: &notes)
        SecurityRuntime.log("SecItemDelete", notes: notes)
        try keychain.delete(itemQuery)
    }
}

extension SecDictionary {
    /// The typed query this dictionary describes (its `kSecUseAuthenticationContext` travels apart, by id).
    func query(limit: MatchLimit) -> ItemQuery {
        // A query by kSecValueRef finds the item of that key: its class, type, size and application label.
        var attributes = attributes
        if let valueReference { attributes.merge(valueReference.identifyingAttributes) { given, _ in given } }
        if let certificateReference, let identifying = try? certificateReference.identifyingAttributes() {
            attributes.merge(identifying) { given, _ in given }
        }
        // An identity is found by its certificate's primary key.
        if let identityReference, let identifying = try? identityReference.identifyingAttributes() {
            attributes.merge(identifying) { given, _ in given }
        }
        var query = ItemQuery(
            itemClass: itemClass, attributes: attributes, accessGroup: accessGroup,
            synchronizable: synchronizable ?? .no, accessibility: accessibility, limit: limit,
            caseInsensitive: caseInsensitive, returns: engineReturns, persistentReference: persistentReference)
        query.authentication = ReadAuthentication(
            ui: authenticationUI ?? (noAuthenticationUI ? .fail : .allow), operationPrompt: operationPrompt)
        return query
    }
}
