import Foundation

@testable import KeychainCore

/// The UTF-8 bytes of `text`.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A generic password to add, with service, account and secret, plus whatever else a test needs.
func genericPassword(
    service: String = "service", account: String = "account", secret: String = "secret",
    extra: [AttributeKey: AttributeValue] = [:], accessGroup: String? = nil, synchronizable: Bool = false,
    accessibility: Accessibility? = nil, returns: ReturnOptions = []
) -> NewItem {
    NewItem(
        itemClass: .genericPassword,
        attributes: [.service: .string(service), .account: .string(account)].merging(extra) { $1 },
        accessGroup: accessGroup, synchronizable: synchronizable, accessibility: accessibility,
        data: bytes(secret), returns: returns)
}

/// A generic-password query on exactly `attributes`.
func genericQuery(
    _ attributes: [AttributeKey: AttributeValue], limit: MatchLimit = .one, returns: ReturnOptions = [],
    accessGroup: String? = nil, synchronizable: SynchronizableFilter = .no, caseInsensitive: Bool = false
) -> ItemQuery {
    ItemQuery(
        itemClass: .genericPassword, attributes: attributes, accessGroup: accessGroup, synchronizable: synchronizable,
        limit: limit, caseInsensitive: caseInsensitive, returns: returns)
}

extension Keychain {
    /// The secret of the one item matching `query`, as text.
    func secret(_ query: ItemQuery) throws -> String? {
        var query = query
        query.returns = .data
        query.limit = .one
        return try copyMatching(query).first?.data.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// The attributes of the one item matching `query`.
    func attributes(_ query: ItemQuery) throws -> [AttributeKey: AttributeValue] {
        var query = query
        query.returns = .attributes
        query.limit = .one
        return try copyMatching(query).first?.attributes ?? [:]
    }

    /// How many items match `query` (0 when none).
    func count(_ query: ItemQuery) throws -> Int {
        var query = query
        query.limit = .all
        query.returns = []
        do { return try copyMatching(query).count } catch KeychainError.itemNotFound { return 0 }
    }
}
