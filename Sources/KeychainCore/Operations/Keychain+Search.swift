import KeychainStore

extension Keychain {
    /// Finds items (`SecItemCopyMatching`): at most `query.limit` of them, in insertion order, each with what
    /// `query.returns` asks for.
    /// - Throws: `errSecItemNotFound` when nothing matches (including a limit of 0).
    public func copyMatching(_ query: ItemQuery) throws -> [ItemResult] {
        let (schema, query) = try resolvePersistentReference(query)
        try validate(query.attributes, in: schema, writing: false)
        let groups = try searchGroups(query.accessGroup)
        if case .count(let count) = query.limit {
            guard count >= 0 else { throw KeychainError.param.because("kSecMatchLimit is negative") }
            guard count > 0 else { throw KeychainError.itemNotFound.because("kSecMatchLimit is 0") }
        }
        let results = try withStore { store in
            // One SELECT reads one snapshot; no explicit transaction is needed.
            var columns: RowColumns = []
            if query.returns.contains(.data) { columns.insert(.secret) }
            if query.returns.contains(.attributes) { columns.insert(.metadata) }
            return try matchingRows(query, schema: schema, groups: groups, limit: query.limit, reading: columns,
                                    store: store)
                .map { try result(for: $0, schema: schema, returns: query.returns) }
        }
        guard !results.isEmpty else {
            throw KeychainError.itemNotFound.because("no item of class \(schema.itemClass.rawValue) in the caller's groups matches the query")
        }
        return results
    }

    /// A query by persistent reference takes its class from the reference.
    func resolvePersistentReference(_ query: ItemQuery) throws -> (ClassSchema, ItemQuery) {
        var query = query
        if let reference = query.persistentReference {
            guard query.attributes.isEmpty, query.accessGroup == nil, query.accessibility == nil else {
                throw KeychainError.param.because("a persistent reference cannot be combined with attributes")
            }
            if let named = query.itemClass, named != reference.itemClass {
                throw KeychainError.param.because("kSecClass does not match the persistent reference's class")
            }
            query.itemClass = reference.itemClass
            query.synchronizable = .any
        }
        return (try schema(query.itemClass), query)
    }
}
