import KeychainStore

/// Explanations: the reasons attached to failing calls, in terms of the caller's own query. They run on the
/// failure path only, look only at the caller's own access groups (never another app's), and never contain
/// secret bytes: items are described by their primary keys and the attributes the query named.
extension Keychain {
    typealias Reason = KeychainError.Reason

    /// At most this many nearby items are decrypted to explain an errSecItemNotFound.
    static let explanationCandidateLimit = 20
    /// At most this many nearby items are named in one explanation.
    static let explanationItemsShown = 3

    // MARK: - errSecItemNotFound

    /// The reason for an errSecItemNotFound: `base`, then the nearest items by primary key in the caller's
    /// groups and the query attributes that kept each from matching, and an item of the other password class
    /// that would have matched. Never throws: when the explanation cannot be computed, `base` alone is returned.
    func notFoundReason(_ query: ItemQuery, schema: ClassSchema, caller: CallerIdentity, base: KeychainError.Reason)
        -> KeychainError.Reason
    {
        guard query.persistentReference == nil else { return base }
        return (try? withStore { notFoundReason(query, schema: schema, caller: caller, base: base, store: $0) })
            ?? base
    }

    /// ``notFoundReason(_:schema:caller:base:)`` for a caller that holds the store already (in a transaction).
    func notFoundReason(
        _ query: ItemQuery, schema: ClassSchema, caller: CallerIdentity, base: KeychainError.Reason, store: ItemStore
    ) -> KeychainError.Reason {
        guard query.persistentReference == nil,
            let notes = try? notFoundNotes(query, schema: schema, caller: caller, store: store), !notes.isEmpty
        else { return base }
        return .joined([base] + notes)
    }

    private func notFoundNotes(_ query: ItemQuery, schema: ClassSchema, caller: CallerIdentity, store: ItemStore)
        throws -> [KeychainError.Reason]
    {
        let groups = GroupScope(of: caller)
        guard groups != .only([]) else { return [] }
        var notes: [KeychainError.Reason] = []
        var examined: [(primaryKey: String, mismatches: [KeychainError.Reason])] = []
        var unavailable = 0
        for row in try nearbyRows(query, schema: schema, groups: groups, store: store) {
            guard let protection = Accessibility(rawValue: row.protection) else { continue }
            let match = MatchedRow(row: row, protection: protection, attributes: nil)
            var attributes: [AttributeKey: AttributeValue]
            do {
                attributes = try openAttributes(of: match, schema: schema)
            } catch let error as KeychainError where error.status == SecurityStatus.interactionNotAllowed {
                unavailable += 1
                continue
            }
            attributes[.accessible] = .string(protection.rawValue)
            let mismatches = Self.mismatches(
                of: attributes, against: query, schema: schema, callerGroups: groups, protection: protection)
            guard !mismatches.isEmpty else { continue }
            examined.append((describePrimaryKey(attributes, schema: schema), mismatches))
        }
        // Nearest first: the fewest attributes in the way; insertion order among equals.
        let nearest = examined.enumerated().sorted {
            ($0.element.mismatches.count, $0.offset) < ($1.element.mismatches.count, $1.offset)
        }.map(\.element)
        for item in nearest.prefix(Self.explanationItemsShown) {
            notes.append(Reason("nearest item (\(item.primaryKey)): \(Reason.joined(item.mismatches))"))
        }
        if nearest.count > Self.explanationItemsShown {
            notes.append(Reason("\(nearest.count - Self.explanationItemsShown) more nearby item(s) not shown"))
        }
        if unavailable > 0 {
            let state = Self.lockStateName((try? dataProtection.lockState()) ?? .locked)
            notes.append(
                Reason(
                    "\(unavailable) nearby item(s) could not be examined: their protection class is not available "
                        + "now (the keychain is \(state))"))
        }
        if let other = try otherClassNote(query, schema: schema, groups: groups, store: store) {
            notes.append(other)
        }
        if notes.isEmpty, !query.attributes.isEmpty {
            notes.append(Reason("no item of this class in the caller's groups shares any of the query's key values"))
        }
        return notes
    }

    /// Rows of the caller's groups, of either sync state, that share a primary-key value (exactly or up to case)
    /// with the query; every row of those groups when the query names no such value. At most
    /// ``explanationCandidateLimit``.
    private func nearbyRows(_ query: ItemQuery, schema: ClassSchema, groups: GroupScope, store: ItemStore) throws
        -> [StoredRow]
    {
        let named = query.attributes.filter { schema.attributes[$0.key] != .date }
        let keyValues = named.filter { schema.primaryKey.contains($0.key) }
        var anyOf: [(column: String, value: [UInt8])] = []
        for (key, value) in (keyValues.isEmpty ? named : keyValues).sorted(by: { $0.key < $1.key }) {
            anyOf.append((ItemTables.digestColumn(key), try digester.digest(key, value)))
            if schema.attributes[key] == .text, let folded = try digester.foldedDigest(key, value) {
                anyOf.append((ItemTables.foldedColumn(key), folded))
            }
        }
        var within: (column: String, values: [[UInt8]])?
        if case .only(let names) = groups {
            within = (
                ItemTables.digestColumn(.accessGroup),
                try names.map { try digester.recurringDigest(.accessGroup, .string($0)) }
            )
        }
        return try store.selectNearby(
            from: schema.itemClass.rawValue, within: within, anyOf: anyOf, limit: Self.explanationCandidateLimit)
    }

    /// Why an item with `item`'s attributes does not match `query`: one phrase per rule in the way, from the
    /// matcher the searches use.
    static func mismatches(
        of item: [AttributeKey: AttributeValue], against query: ItemQuery, schema: ClassSchema,
        callerGroups: GroupScope, protection: Accessibility?
    ) -> [KeychainError.Reason] {
        let matcher = AttributeMatcher(query, groups: query.accessGroup.map { .only([$0]) } ?? callerGroups)
        return matcher.mismatches(item, schema: schema, protection: protection).map { describe($0, query: query) }
    }

    /// One mismatch as a phrase that says what to change.
    private static func describe(_ mismatch: AttributeMatcher.Mismatch, query: ItemQuery) -> KeychainError.Reason {
        switch mismatch {
        case .absent(let key, let wanted):
            return Reason("\(key) is not set on the item (the query asks for \(display(wanted)))")
        case .differs(let key, let actual, let wanted, onlyInCase: true):
            return Reason(
                "\(key) differs only in case (the item has \(display(actual)), the query "
                    + "\(display(wanted))): set kSecMatchCaseInsensitive or fix the case")
        case .differs(let key, let actual, let wanted, onlyInCase: false):
            return Reason(
                "\(key) value differs (the item has \(display(actual)), the query \(display(wanted)))")
        case .synchronizable(itemIsSynchronizable: true):
            return Reason(
                "synchronizable filter: the item is synchronizable (sync=true), and a query without "
                    + "kSecAttrSynchronizable matches only non-synchronizable items: add kSecAttrSynchronizable: "
                    + "kSecAttrSynchronizableAny")
        case .synchronizable(itemIsSynchronizable: false):
            return Reason(
                "synchronizable filter: the item is not synchronizable, and the query asks for "
                    + "kSecAttrSynchronizable: true: use kSecAttrSynchronizableAny")
        case .accessGroup(let group):
            let named = query.accessGroup ?? ""
            return Reason(
                "access group: the item is in \"\(group)\", another of the caller's groups, and the query "
                    + "names \"\(named)\", which has no such item: name \"\(group)\" or leave kSecAttrAccessGroup out")
        case .accessibility(let actual, let wanted):
            return Reason("kSecAttrAccessible: the item is \(actual), the query asks for \(wanted)")
        }
    }

    /// The other password class (`genp` ↔ `inet`) with the query's attributes, the service standing for the
    /// server and back: a note when such an item exists in the caller's groups.
    private func otherClassNote(_ query: ItemQuery, schema: ClassSchema, groups: GroupScope, store: ItemStore) throws
        -> KeychainError.Reason?
    {
        guard let related = schema.relatedClass, let other = ClassSchema.of(related.itemClass) else { return nil }
        let renames = related.renames
        var attributes: [AttributeKey: AttributeValue] = [:]
        for (key, value) in query.attributes {
            let renamed = renames[key] ?? key
            guard other.attributes[renamed] != nil else { return nil }  // the other class cannot have this item
            attributes[renamed] = value
        }
        guard !attributes.isEmpty else { return nil }
        let translated = ItemQuery(
            itemClass: other.itemClass, attributes: attributes, synchronizable: .any, limit: .one)
        let found = try matchingRows(translated, schema: other, groups: groups, limit: .one, reading: [], store: store)
        guard !found.isEmpty else { return nil }
        let renamed = renames.filter { query.attributes[$0.key] != nil }
            .map { Reason(" (\($0.value.rawValue) for \($0.key.rawValue))") }
            .reduce(Reason("")) { Reason("\($0)\($1)") }
        return Reason(
            "class: an item of class \(other.itemClass.rawValue) in the caller's groups has the query's "
                + "attributes\(renamed), but the query asks for class \(schema.itemClass.rawValue)")
    }

    // MARK: - errSecDuplicateItem

    /// The reason for an errSecDuplicateItem on add: the colliding primary key (never the secret) and the key
    /// attributes the add left out, which took their defaults (empty data, which digests as "" does, or 0) and so
    /// collided.
    func duplicateReason(_ attributes: [AttributeKey: AttributeValue], schema: ClassSchema, leftOut: [AttributeKey])
        -> KeychainError.Reason
    {
        let key = describePrimaryKey(attributes, schema: schema)
        guard !leftOut.isEmpty else {
            return Reason("an item with the same primary key exists (\(key)); use SecItemUpdate to change it")
        }
        let names = leftOut.map { key in
            let value = schema.defaultValue(for: key)
            return value == .data([])
                ? Reason("\(key.rawValue) (defaulted to empty data, which matches an empty string)")
                : Reason("\(key.rawValue) (defaulted to \(Self.display(value)))")
        }
        let list = names.dropFirst().reduce(names[0]) { Reason("\($0), \($1)") }
        return leftOut.count == 1
            ? Reason(
                "an item with the same primary key exists (\(key)); the add left out \(list), so it collides "
                    + "with any item stored without it: give it a value, or use SecItemUpdate to change the existing item"
            )
            : Reason(
                "an item with the same primary key exists (\(key)); the add left out \(list), so it collides "
                    + "with any item stored without them: give them a value, or use SecItemUpdate to change the existing "
                    + "item")
    }

    // MARK: - errSecInteractionNotAllowed

    /// What to do about a class that is unavailable in the current lock state.
    static func lockedClassFix(_ protection: Accessibility) -> KeychainError.Reason {
        let keep = Reason("do not delete the item on this error: it is intact and readable again after the unlock")
        switch protection {
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly:
            return Reason("fix: retry after the first unlock since the restart; \(keep)")
        default:
            return Reason(
                "fix: an item read in the background or while locked needs "
                    + "kSecAttrAccessibleAfterFirstUnlock (move it there with SecItemUpdate while unlocked); \(keep)")
        }
    }

    /// A lock state as the explanations name it.
    static func lockStateName(_ state: LockState) -> KeychainError.Reason {
        switch state {
        case .noPasscode: Reason("no passcode")
        case .beforeFirstUnlock: Reason("before first unlock")
        case .unlocked: Reason("unlocked")
        case .locked: Reason("locked")
        }
    }

    // MARK: - errSecMissingEntitlement

    /// The reason a call naming `named` fails: the group asked for and the caller's groups.
    static func missingGroupReason(_ named: String, groups: [String]) -> KeychainError.Reason {
        let list = groups.map { "\"\($0)\"" }.joined(separator: ", ")
        return Reason(
            "the call names access group \"\(named)\", which is not among the caller's groups [\(list)]; "
                + "check that \"\(named)\" is in the entitlements' keychain-access-groups (with the team prefix), "
                + "or leave kSecAttrAccessGroup out to use \"\(groups.first ?? "")\"")
    }

    // MARK: - errSecNoSuchAttr

    /// The reason an attribute is refused for a class: the attribute and those the class has.
    static func noSuchAttributeReason(_ key: AttributeKey, schema: ClassSchema) -> KeychainError.Reason {
        let accepted = (schema.attributes.keys.map(\.rawValue) + ["agrp", "pdmn", "sync"]).sorted()
        return Reason(
            "\(key.rawValue) is not an attribute of class \(schema.itemClass.rawValue); "
                + "its attributes are \(accepted.joined(separator: ", "))")
    }
}
