import KeychainStore

/// Dry runs: what an add, search, update or delete would do, with the failure and explanation it would end
/// with, without writing anything. Each runs the operation's own checks, then looks at the items.
extension Keychain {
    /// Checks an add without adding: validation, entitlement, protection class and lock state, and a collision.
    /// - Throws: what ``add(_:)`` would throw, with the same explanations (`errSecDuplicateItem` names the
    ///   existing item's primary key and what the add left out).
    public func previewAdd(_ item: NewItem, as caller: CallerIdentity? = nil) throws {
        try refuseDryRun(of: ClassSchema.of(item.itemClass))
        let checked = try checkedAdd(item, caller: identity(caller))
        _ = try classKey(checked.protection)  // an add seals under the class key: a locked class cannot take new items
        // Equal digests on every key column are an equal primary-key digest.
        let key = checked.attributes.filter { checked.schema.primaryKey.contains($0.key) }
        guard case .string(let group)? = checked.attributes[.accessGroup] else { return }
        let sameKey = ItemQuery(
            itemClass: checked.schema.itemClass, attributes: key, synchronizable: item.synchronizable ? .yes : .no,
            limit: .one)
        let collides = try withStore { store in
            try !matchingRows(
                sameKey, schema: checked.schema, groups: .only([group]), limit: .one, reading: [], store: store
            )
            .isEmpty
        }
        if collides {
            throw KeychainError.duplicateItem.because(
                duplicateReason(checked.attributes, schema: checked.schema, leftOut: checked.leftOut))
        }
    }

    /// The items a search would find (up to its limit).
    /// - Throws: what ``search(_:)`` would throw for an invalid query, or errSecItemNotFound with its explanation.
    public func previewSearch(_ query: ItemQuery, as caller: CallerIdentity? = nil) throws -> OperationPreview {
        let caller = identity(caller)
        let (schema, query, groups) = try checkedSearch(query, caller: caller)
        try refuseDryRun(of: schema)
        return try preview(
            query, schema: schema, groups: groups, caller: caller, limit: query.limit, base: "the query")
    }

    /// The items an update would change.
    /// - Throws: what ``update(_:with:)`` would throw before changing anything.
    public func previewUpdate(_ query: ItemQuery, with changes: ItemChanges, as caller: CallerIdentity? = nil)
        throws -> OperationPreview
    {
        let caller = identity(caller)
        let (schema, query, groups, _) = try checkedUpdate(query, with: changes, caller: caller)
        try refuseDryRun(of: schema)
        let found = try preview(
            query, schema: schema, groups: groups, caller: caller, limit: .all, base: "the update's query")
        try predictCollision(found.items, changes: changes, schema: schema)
        return found
    }

    /// An update that changes primary-key attributes fails, and changes nothing, if two of its items would end
    /// with one key or one would take the key of an item it does not touch.
    private func predictCollision(
        _ items: [[AttributeKey: AttributeValue]], changes: ItemChanges, schema: ClassSchema
    ) throws {
        var newKeys = Set<[AttributeKey: AttributeValue]>()
        for item in items {
            var old = item
            old[.accessible] = nil
            var new = old
            for key in schema.primaryKey { if let value = changes.attributes[key] { new[key] = value } }
            if let group = changes.accessGroup { new[.accessGroup] = .string(group) }
            if let sync = changes.synchronizable { new[.synchronizable] = .bool(sync) }
            let reason = Reason(
                "the update would give an item the primary key of another "
                    + "(\(describePrimaryKey(new, schema: schema))); nothing would be changed")
            guard newKeys.insert(new).inserted else { throw KeychainError.duplicateItem.because(reason) }
            guard new != old, case .string(let group)? = new[.accessGroup] else { continue }
            let sameKey = ItemQuery(
                itemClass: schema.itemClass, attributes: new.filter { schema.primaryKey.contains($0.key) },
                synchronizable: new[.synchronizable] == .bool(true) ? .yes : .no, limit: .one)
            let taken = try withStore { store in
                try !matchingRows(
                    sameKey, schema: schema, groups: .only([group]), limit: .one, reading: [], store: store
                )
                .isEmpty
            }
            if taken { throw KeychainError.duplicateItem.because(reason) }
        }
    }

    /// The items a delete would remove.
    /// - Throws: what ``delete(_:)`` would throw before removing anything.
    public func previewDelete(_ query: ItemQuery, as caller: CallerIdentity? = nil) throws -> OperationPreview {
        let caller = identity(caller)
        let (schema, query, groups) = try checkedDelete(query, caller: caller)
        try refuseDryRun(of: schema)
        return try preview(
            query, schema: schema, groups: groups, caller: caller, limit: .all, base: "the delete's query")
    }

    private func preview(
        _ query: ItemQuery, schema: ClassSchema, groups: GroupScope, caller: CallerIdentity, limit: MatchLimit,
        base: Reason
    ) throws -> OperationPreview {
        let check = AttributeMatcher(query, groups: groups)
        let keys = schema.primaryKey + [.accessGroup, .synchronizable]
        return try withStore { store in
            var items: [[AttributeKey: AttributeValue]] = []
            var unavailable = 0
            for match in try matchingRows(
                query, schema: schema, groups: groups, limit: limit, reading: [.metadata],
                store: store)
            {
                let attributes: [AttributeKey: AttributeValue]
                do {
                    attributes = try openAttributes(of: match, schema: schema)
                } catch let error as KeychainError
                    where error.status == SecurityStatus.interactionNotAllowed || error.status == SecurityStatus.decode
                {
                    // Unreadable now, or damaged (which a delete removes on its digests alone): counted, not shown.
                    unavailable += 1
                    continue
                }
                guard check.holds(for: attributes, schema: schema) else { continue }
                var key = attributes.filter { keys.contains($0.key) }
                key[.accessible] = .string(match.protection.rawValue)
                items.append(key)
            }
            guard !items.isEmpty || unavailable > 0 else {
                throw KeychainError.itemNotFound.because(
                    notFoundReason(
                        query, schema: schema, caller: caller,
                        base: "no item of class \(schema.itemClass.rawValue) in the caller's groups matches \(base)",
                        store: store))
            }
            return OperationPreview(items: items, unavailable: unavailable)
        }
    }
}
