import KeychainStore

/// Adding, deleting and updating items of a joined class (identities): each writes both halves, as Apple's
/// `SecItemAdd`, `SecItemDelete` and `SecItemUpdate` split an identity into its certificate and its key.
extension Keychain {
    /// Adds both halves of an identity in one transaction. As on Apple's keychain, a half already present is
    /// kept and the other added; only when both are there is the identity a duplicate.
    /// - Throws: errSecDuplicateItem when both halves exist; errSecParam when the key is not the certificate's
    ///   private key; what adding either half throws (then neither is added).
    func addJoined(
        _ item: NewItem, schema: ClassSchema, join: JoinedClasses, caller: CallerIdentity,
        context: AuthenticationContext?
    ) throws -> ItemResult? {
        guard case .identity(let value)? = item.value, let schemas = join.schemas else {
            throw KeychainError.param.because(
                "an item of class \(schema.itemClass.rawValue) needs its value (kSecValueRef); none was given")
        }
        try validate(item.attributes, in: schema)
        // The caller's attributes go to each half whose class has them; what the certificate's DER says wins
        // over them but for its label and alias, and the caller's win over the key's own, as for single adds.
        var primaryAttributes = item.attributes.filter { schemas.primary.attributes[$0.key] != nil }
            .merging(value.certificateAttributes) { _, derived in derived }
        for name in [AttributeKey.label, .alias] where item.attributes[name] != nil {
            primaryAttributes[name] = item.attributes[name]
        }
        let partnerAttributes = item.attributes.filter { schemas.partner.attributes[$0.key] != nil }
            .merging(value.keyAttributes) { given, _ in given }
        let link = primaryAttributes[join.primaryAttribute]
        guard let link, partnerAttributes[join.partnerAttribute] == link,
            join.partnerConditions.allSatisfy({ partnerAttributes[$0.key] == $0.value })
        else {
            throw KeychainError.param.because(
                "the identity's key is not the private key of its certificate (its \(join.partnerAttribute.rawValue) "
                    + "is not the certificate's \(join.primaryAttribute.rawValue)); nothing was added")
        }
        var primaryItem = NewItem(
            itemClass: join.primary, attributes: primaryAttributes, accessGroup: item.accessGroup,
            synchronizable: item.synchronizable, accessibility: item.accessibility ?? item.accessControl?.accessibility)
        primaryItem.value = .certificate(value.certificate)
        // The access control guards the private key, which is what it is for.
        var partnerItem = NewItem(
            itemClass: join.partner, attributes: partnerAttributes, accessGroup: item.accessGroup,
            synchronizable: item.synchronizable, accessibility: item.accessibility, accessControl: item.accessControl)
        partnerItem.value = .key(value.key)
        let halves = try sealingAgainAfterAPasscodeChange {
            [
                try prepare(primaryItem, caller: caller, context: context),
                try prepare(partnerItem, caller: caller, context: context),
            ]
        } write: {
            try insertHalves($0, schema: schema)
        }
        guard !item.returns.isEmpty else { return nil }
        return try addedJoinedResult(item, halves: halves, schema: schema, caller: caller)
    }

    /// Inserts the halves in one transaction, keeping a half that is there already.
    private func insertHalves(_ halves: [PreparedItem], schema: ClassSchema) throws {
        // One write section: its own transaction, or a savepoint in the daemon's group commit.
        try writeSection { store in
            var present = 0
            for half in halves {
                do {
                    try checkSealedUnderCurrentPasscode(half)
                    _ = try store.insert(half.row, into: half.schema.itemClass.rawValue)
                } catch let error as StoreError where error.isUniqueViolation {
                    // The statement failed alone; the section goes on with the other half.
                    present += 1
                }
            }
            guard present < halves.count else {
                let described = halves.first.map { describePrimaryKey($0.attributes, schema: $0.schema) } ?? ""
                throw KeychainError.duplicateItem.because(
                    "the \(schema.itemClass.rawValue) is in the keychain already: both its certificate "
                        + "(\(described)) and its private key are there")
            }
        }
    }

    /// What an identity's add returns: the item as a search finds it, its value the one just added (returning
    /// it needs no authentication, as for any add).
    private func addedJoinedResult(
        _ item: NewItem, halves: [PreparedItem], schema: ClassSchema, caller: CallerIdentity
    ) throws -> ItemResult? {
        guard let primary = halves.first else { return nil }
        let group = try writeGroup(item.accessGroup, of: caller)
        let query = ItemQuery(
            itemClass: schema.itemClass, attributes: primary.attributes.filter { schema.primaryKey.contains($0.key) },
            accessGroup: group, synchronizable: item.synchronizable ? .yes : .no, limit: .one,
            returns: item.returns.subtracting([.data, .reference]))
        guard let found = try search(query, as: caller).results.first else { return nil }
        var value: ItemValue?
        if case .identity(let added)? = item.value, !item.returns.isDisjoint(with: [.data, .reference]) {
            value = .identity(IdentityValue(certificate: added.certificate, key: added.key))
        }
        return ItemResult(
            itemClass: found.itemClass, value: value, attributes: found.attributes,
            persistentReference: found.persistentReference, accessControl: found.accessControl)
    }

    /// Deletes every joined item that matches: its certificate, and its key unless another certificate in the
    /// caller's groups still pairs with the key (Apple's `SecItemDelete` of an identity keeps such a key).
    /// - Returns: the number of identities deleted. - Throws: errSecItemNotFound when none matches.
    func deleteJoined(_ query: ItemQuery, schema: ClassSchema, join: JoinedClasses, caller: CallerIdentity) throws
        -> Int
    {
        let outcome = try joinedItems(query, join: join, caller: caller, context: nil, limit: .all, returns: [])
        guard !outcome.items.isEmpty, let schemas = join.schemas else {
            throw joinedNotFound(schema, join: join, outcome: outcome)
        }
        let primaries = outcome.items.compactMap { $0.primary.persistentReference?.uuid }
        try writeSection { store in
            // Decided in the section, on its own connection: a certificate added meanwhile with the same key (by
            // another process, or earlier in the same group commit) keeps the key, as one there before would.
            var partners: [[UInt8]] = []
            for item in outcome.items {
                guard let uuid = item.partner.persistentReference?.uuid, !partners.contains(uuid) else { continue }
                let paired = try isStillPaired(
                    item.link, schema: schemas.primary, join: join, except: Set(primaries), caller: caller,
                    store: store)
                if !paired { partners.append(uuid) }
            }
            try deleteRows(primaries, schema: schemas.primary, caller: caller, store: store)
            try deleteRows(partners, schema: schemas.partner, caller: caller, store: store)
        }
        return primaries.count
    }

    /// Whether a primary item other than `except` links to `link` in the caller's groups. The rows are matched
    /// by their digests alone, so a locked or damaged one counts too: the key is kept rather than orphan a
    /// certificate the caller cannot read now.
    private func isStillPaired(
        _ link: AttributeValue, schema: ClassSchema, join: JoinedClasses, except: Set<[UInt8]>,
        caller: CallerIdentity, store: ItemStore
    ) throws -> Bool {
        let query = ItemQuery(itemClass: join.primary, attributes: [join.primaryAttribute: link], synchronizable: .any)
        let rows = try matchingRows(
            query, schema: schema, groups: GroupScope(of: caller), limit: .all, reading: [], store: store)
        return rows.contains { !except.contains($0.row.uuid) }
    }

    /// Deletes the rows of `schema`'s table with these UUIDs in the caller's groups (inside a transaction).
    private func deleteRows(_ uuids: [[UInt8]], schema: ClassSchema, caller: CallerIdentity, store: ItemStore) throws {
        var rowids: [Int64] = []
        for uuid in uuids {
            let query = ItemQuery(
                itemClass: schema.itemClass, synchronizable: .any,
                persistentReference: PersistentReference(itemClass: schema.itemClass, uuid: uuid))
            rowids += try matchingRows(
                query, schema: schema, groups: GroupScope(of: caller), limit: .one, reading: [], store: store
            ).map(\.row.rowid)
        }
        guard !rowids.isEmpty else { return }
        _ = try store.delete(rowids: rowids, from: schema.itemClass.rawValue)
    }

    /// Applies an update to both halves of every joined item that matches, as Apple's `SecItemUpdate` of an
    /// identity updates its certificate and then its key. Each attribute goes to the halves whose class has
    /// it; the access control to the key. Every half is written in one write section (its own transaction, or
    /// a savepoint in the daemon's group commit): a half that fails (a collision, a canceled prompt) leaves
    /// every other half as it was.
    func updateJoined(
        _ query: ItemQuery, with changes: ItemChanges, schema: ClassSchema, join: JoinedClasses,
        caller: CallerIdentity, context: AuthenticationContext?
    ) throws {
        // checkedUpdate has refused a new value: an update never replaces an identity's certificate or key.
        guard let schemas = join.schemas else { throw KeychainError.unimplemented }
        let outcome = try joinedItems(query, join: join, caller: caller, context: context, limit: .all, returns: [])
        guard !outcome.items.isEmpty else { throw joinedNotFound(schema, join: join, outcome: outcome) }
        var primaryChanges = changes
        primaryChanges.attributes = changes.attributes.filter { schemas.primary.attributes[$0.key] != nil }
        primaryChanges.accessControl = nil
        primaryChanges.accessibility = changes.accessibility ?? changes.accessControl?.accessibility
        var partnerChanges = changes
        partnerChanges.attributes = changes.attributes.filter { schemas.partner.attributes[$0.key] != nil }
        var steps: [(query: ItemQuery, changes: ItemChanges)] = []
        for item in outcome.items {
            for (half, halfChanges) in [(item.primary, primaryChanges), (item.partner, partnerChanges)]
            where !halfChanges.isEmpty {
                guard let reference = half.persistentReference else { continue }
                var halfQuery = ItemQuery(
                    itemClass: reference.itemClass, synchronizable: .any, limit: .all, persistentReference: reference)
                halfQuery.authentication = query.authentication
                steps.append((halfQuery, halfChanges))
            }
        }
        try updateTogether(steps, caller: caller, context: context)
    }

    /// Dry runs look at one table's rows; a joined class has none. - Throws: errSecUnimplemented for it.
    func refuseDryRun(of schema: ClassSchema?) throws {
        guard let schema, schema.join != nil else { return }
        throw KeychainError.unimplemented.because(
            "dry runs of \(schema.itemClass.rawValue) items are not supported yet; run the operation itself")
    }
}
