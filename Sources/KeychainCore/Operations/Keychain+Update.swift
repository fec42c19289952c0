import Foundation
import KeychainCrypto
import KeychainStore

extension Keychain {
    /// Changes every item that matches `query` (`SecItemUpdate`), all or nothing: if any change would collide
    /// with another item's primary key, nothing is applied. Creation date and persistent reference survive;
    /// the modification date is refreshed. Changing the protection class re-encrypts the item under the new
    /// class key in the same transaction. For an item with access-control constraints, changing its secret,
    /// its access control or its class needs the authentication a read of the secret needs.
    /// - Throws: `errSecItemNotFound`, `errSecDuplicateItem`, `errSecParam`, `errSecNoSuchAttr`,
    ///   `errSecMissingEntitlement`; errSecUserCanceled, errSecAuthFailed, errSecInteractionNotAllowed.
    public func update(_ query: ItemQuery, with changes: ItemChanges) throws {
        let (schema, query, groups, newGroup) = try checkedUpdate(query, with: changes)
        let now = configuration.clock()

        try withStore { store in
            try store.database.writeTransaction {
                let matches = try matchingRows(
                    query, schema: schema, groups: groups, limit: .all, reading: [.metadata, .secret],
                    store: store)
                guard !matches.isEmpty else {
                    throw KeychainError.itemNotFound.because(
                        notFoundReason(
                            query, schema: schema,
                            base: "no item of class \(schema.itemClass.rawValue) matches the update's query",
                            store: store))
                }
                let check = MatchCheck(query, groups: groups)
                // One context for every match: an authentication for the first one covers the others.
                let authentication = ReadAuthentication(
                    context: query.authentication.context ?? AuthenticationContext(), ui: query.authentication.ui,
                    operationPrompt: query.authentication.operationPrompt)
                for match in matches {
                    try apply(
                        changes, to: match, schema: schema, check: check, newGroup: newGroup, now: now,
                        authentication: authentication, store: store)
                }
            }
        }
    }

    /// The checks of an update that need no item: what ``update(_:with:)`` and its preview validate first.
    /// - Returns: the class's schema, the resolved query, the groups it searches and the group items move to.
    func checkedUpdate(_ query: ItemQuery, with changes: ItemChanges) throws
        -> (schema: ClassSchema, query: ItemQuery, groups: [String], newGroup: String?)
    {
        let (schema, query) = try resolvePersistentReference(query)
        try validate(query.attributes, in: schema, writing: false)
        guard query.returns.isEmpty else {
            throw KeychainError.param.because("an update query cannot ask for results (kSecReturn…)")
        }
        guard query.limit == .all else {
            throw KeychainError.param.because("an update applies to every match; kSecMatchLimit must be absent or All")
        }
        guard !changes.isEmpty else { throw KeychainError.param.because("the update changes nothing") }
        if query.authentication.ui == .skip {
            throw KeychainError.param.because("kSecUseAuthenticationUISkip is for searches (SecItemCopyMatching) only")
        }
        try validate(changes.attributes, in: schema, writing: true)
        try validate(data: changes.data)
        let groups = try searchGroups(query.accessGroup)
        let newGroup = try changes.accessGroup.map { try writeGroup($0) }
        return (schema, query, groups, newGroup)
    }

    private func apply(
        _ changes: ItemChanges, to match: MatchedRow, schema: ClassSchema, check: MatchCheck, newGroup: String?,
        now: Date, authentication: ReadAuthentication,
        store: ItemStore
    ) throws {
        let oldSealer = sealer(for: match.row, schema: schema, protection: match.protection)
        let itemKey = try oldSealer.itemKey(wrapped: match.row.wrappedKey, classKey: try classKey(match.protection))
        var attributes = try oldSealer.openAttributes(match.row.metadata, itemKey: itemKey)
        guard check.holds(for: attributes, schema: schema) else {
            throw KeychainError.decode.because("an item's index does not match its contents (the row is damaged)")
        }
        let oldPolicy = try storedPolicy(attributes)
        attributes.merge(changes.attributes) { $1 }
        if let newGroup { attributes[.accessGroup] = .string(newGroup) }
        if let sync = changes.synchronizable { attributes[.synchronizable] = .bool(sync) }
        attributes[.modificationDate] = .date(now)
        let synchronizable = attributes[.synchronizable] == .bool(true)
        let requested = changes.accessibility ?? changes.accessControl?.accessibility
        let newPolicy = updatedPolicy(oldPolicy, changes: changes)
        let protection = try self.protection(
            accessibility: requested ?? (changes.accessControl == nil ? match.protection : nil),
            accessControl: changes.accessControl ?? newPolicy, synchronizable: synchronizable)
        attributes[AccessControlPolicy.attributeKey] = newPolicy.map { .data($0.encoded) }
        var secret = try updatedSecret(
            changes, match: match, oldPolicy: oldPolicy, oldSealer: oldSealer, itemKey: itemKey,
            rewrapping: newPolicy != oldPolicy || protection != match.protection, authentication: authentication)
        defer { if secret != nil { wipe(&secret!) } }

        let index = try indexRow(attributes, schema: schema)
        var row = match.row
        let sealer = ItemSealer(
            table: schema.itemClass.rawValue, uuid: row.uuid, protection: protection,
            version: ItemSealer.formatVersion)
        let sealed = try sealer.seal(
            attributes: attributes, secret: newPolicy == nil ? secret ?? [] : [],
            itemKey: itemKey, classKey: try classKey(protection))
        row.primaryKeyDigest = index.primaryKey
        row.digests = index.digests
        row.protection = protection.rawValue
        row.version = ItemSealer.formatVersion
        row.wrappedKey = sealed.wrappedKey
        row.metadata = sealed.metadata
        row.secret = try sealedSecret(
            secret, policy: newPolicy, sealer: sealer, sealed: sealed.secret,
            unchanged: match.row.secret, context: authentication.context)
        do {
            try store.replace(row, in: schema.itemClass.rawValue)
        } catch let error as StoreError where error.isUniqueViolation {
            throw KeychainError.duplicateItem.because(
                "the update would give an item the primary key of another (\(describePrimaryKey(attributes, schema: schema))); nothing was changed"
            )
        }
    }
}
