/// Whether an item's decrypted attributes satisfy a query, and if not, why: the one implementation of the
/// matching rules. Searches, updates and deletes use it to check rows found by their digests (digests are not
/// bound to their row); explanations use it to say what kept a nearby item from matching.
struct AttributeMatcher {
    /// One rule an item fails.
    enum Mismatch: Equatable {
        /// The query names an attribute the item does not have.
        case absent(AttributeKey, wanted: AttributeValue)
        /// The values differ; `onlyInCase` when they are equal once case-folded (and the query is case-sensitive).
        case differs(AttributeKey, actual: AttributeValue, wanted: AttributeValue, onlyInCase: Bool)
        /// The item's sync state is not the one the query's synchronizable filter accepts.
        case synchronizable(itemIsSynchronizable: Bool)
        /// The item is in a group the search does not cover.
        case accessGroup(item: String)
        /// The item's protection class is not the one the query names.
        case accessibility(item: String, wanted: String)
    }

    let conditions: [AttributeKey: AttributeValue]
    let caseInsensitive: Bool
    /// The groups the search covers.
    let groups: GroupScope
    let synchronizable: SynchronizableFilter
    let accessibility: Accessibility?

    init(_ query: ItemQuery, groups: GroupScope) {
        conditions = query.attributes
        caseInsensitive = query.caseInsensitive
        self.groups = groups
        synchronizable = query.synchronizable
        accessibility = query.accessibility
    }

    /// The attributes the matcher reads.
    var keys: [AttributeKey] { [.accessGroup, .synchronizable] + conditions.keys }

    /// Whether `item` (whose protection class is `protection`, when known) satisfies every rule.
    func holds(
        for item: [AttributeKey: AttributeValue], schema: ClassSchema, protection: Accessibility? = nil
    ) -> Bool {
        firstMismatches(item, schema: schema, protection: protection, limit: 1).isEmpty
    }

    /// Every rule `item` fails, in a stable order (attributes by name, then sync, group, class).
    func mismatches(_ item: [AttributeKey: AttributeValue], schema: ClassSchema, protection: Accessibility? = nil)
        -> [Mismatch]
    {
        firstMismatches(item, schema: schema, protection: protection, limit: .max)
    }

    private func firstMismatches(
        _ item: [AttributeKey: AttributeValue], schema: ClassSchema, protection: Accessibility?, limit: Int
    ) -> [Mismatch] {
        var found: [Mismatch] = []
        for (key, wanted) in conditions.sorted(by: { $0.key < $1.key }) where found.count < limit {
            // An absent primary-key attribute is stored as its default ("" or 0), as Apple's schema does.
            guard let actual = item[key] ?? (schema.primaryKey.contains(key) ? schema.defaultValue(for: key) : nil)
            else {
                found.append(.absent(key, wanted: wanted))
                continue
            }
            if actual.matchingBytes == wanted.matchingBytes { continue }
            let sameFolded =
                schema.attributes[key] == .text && actual.foldedBytes != nil
                && actual.foldedBytes == wanted.foldedBytes
            if sameFolded && caseInsensitive { continue }
            found.append(.differs(key, actual: actual, wanted: wanted, onlyInCase: sameFolded))
        }
        let synced = item[.synchronizable] == .bool(true)
        switch synchronizable {
        case .no where synced, .yes where !synced: found.append(.synchronizable(itemIsSynchronizable: synced))
        default: break
        }
        if case .string(let group)? = item[.accessGroup] {
            if !groups.contains(group) { found.append(.accessGroup(item: group)) }
        } else {
            found.append(.accessGroup(item: ""))
        }
        if let wanted = accessibility, let protection, protection != wanted {
            found.append(.accessibility(item: protection.rawValue, wanted: wanted.rawValue))
        }
        return Array(found.prefix(limit))
    }
}
