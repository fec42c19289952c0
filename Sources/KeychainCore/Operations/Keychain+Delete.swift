extension Keychain {
    /// Deletes every item that matches `query` (`SecItemDelete`): a delete has no limit.
    /// - Returns: the number of items deleted.
    /// - Throws: `errSecItemNotFound` when nothing matches.
    @discardableResult
    public func delete(_ query: ItemQuery, as caller: CallerIdentity? = nil) throws -> Int {
        let caller = identity(caller)
        let (schema, query, groups) = try checkedDelete(query, caller: caller)
        if let join = schema.join { return try deleteJoined(query, schema: schema, join: join, caller: caller) }
        let deleted = try writeSection { store in
            let matches = try matchingRows(
                query, schema: schema, groups: groups, limit: .all,
                reading: [.metadata], store: store)
            let check = AttributeMatcher(query, groups: groups)
            for match in matches { try verify(match, against: check, schema: schema) }
            return try store.delete(rowids: matches.map(\.row.rowid), from: schema.itemClass.rawValue)
        }
        guard deleted > 0 else {
            throw KeychainError.itemNotFound.because(
                notFoundReason(
                    query, schema: schema, caller: caller,
                    base: "no item of class \(schema.itemClass.rawValue) matches the delete's query"))
        }
        return deleted
    }

    /// The checks of a delete that need no item, shared by the delete and its dry run: the class, the
    /// attributes, the limit, the authentication UI and the groups it covers.
    func checkedDelete(_ query: ItemQuery, caller: CallerIdentity) throws -> (ClassSchema, ItemQuery, GroupScope) {
        let (schema, query) = try resolvePersistentReference(query)
        try validate(query.attributes, in: schema)
        guard query.limit == .all else {
            throw KeychainError.param.because("a delete removes every match; kSecMatchLimit must be absent or All")
        }
        if query.authentication.ui == .skip {
            throw KeychainError.param.because("kSecUseAuthenticationUISkip is for searches (SecItemCopyMatching) only")
        }
        return (schema, query, try searchGroups(query.accessGroup, of: caller))
    }

    /// Checks a row a delete matched by its digests against its decrypted attributes, as an update does: digests
    /// are not bound to their row, so a row whose digest columns were swapped must not be removed for another's
    /// query. A row whose class is locked is deleted on its digests alone, as a device deletes locked items, and
    /// so is a row that no longer decrypts: deleting is the only way to be rid of it.
    /// - Throws: `errSecDecode` when the row's contents do not satisfy the query.
    private func verify(_ match: MatchedRow, against check: AttributeMatcher, schema: ClassSchema) throws {
        guard !match.isDamaged, let classKey = try? classKey(match.protection) else { return }
        let sealer = sealer(for: match.row, schema: schema, protection: match.protection)
        guard
            let itemKey = try? itemKey(
                wrapped: match.row.wrappedKey, sealer: sealer, protection: match.protection, classKey: classKey),
            let attributes = try? sealer.openAttributes(match.row.metadata, itemKey: itemKey, only: check.keys)
        else { return }
        guard check.holds(for: attributes, schema: schema) else {
            throw KeychainError.decode.because(
                "an item's index does not match its contents (the row is damaged); nothing was deleted")
        }
    }
}
