extension Keychain {
    /// Deletes every item that matches `query` (`SecItemDelete`): a delete has no limit.
    /// - Returns: the number of items deleted.
    /// - Throws: `errSecItemNotFound` when nothing matches.
    @discardableResult
    public func delete(_ query: ItemQuery) throws -> Int {
        let (schema, query) = try resolvePersistentReference(query)
        try validate(query.attributes, in: schema, writing: false)
        guard query.limit == .all else {
            throw KeychainError.param.because("a delete removes every match; kSecMatchLimit must be absent or All")
        }
        if query.authentication.ui == .skip {
            throw KeychainError.param.because("kSecUseAuthenticationUISkip is for searches (SecItemCopyMatching) only")
        }
        let groups = try searchGroups(query.accessGroup)
        let deleted = try withStore { store in
            try store.database.writeTransaction {
                let matches = try matchingRows(query, schema: schema, groups: groups, limit: .all, reading: [],
                                               store: store)
                return try store.delete(rowids: matches.map(\.row.rowid), from: schema.itemClass.rawValue)
            }
        }
        guard deleted > 0 else {
            throw KeychainError.itemNotFound.because(notFoundReason(
                query, schema: schema,
                base: "no item of class \(schema.itemClass.rawValue) matches the delete's query"))
        }
        return deleted
    }
}
