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
    /// - Parameters:
    ///   - caller: whose access groups are searched; nil means `configuration.identity`.
    ///   - context: the evaluated context a constrained item's authentication reuses (and records into).
    public func update(
        _ query: ItemQuery, with changes: ItemChanges, as caller: CallerIdentity? = nil,
        context: AuthenticationContext? = nil
    ) throws {
        let caller = identity(caller)
        let (schema, query, groups, newGroup) = try checkedUpdate(query, with: changes, caller: caller)
        if let join = schema.join {
            return try updateJoined(query, with: changes, schema: schema, join: join, caller: caller, context: context)
        }
        let job = UpdateJob(
            changes: changes, query: query, schema: schema, groups: groups, caller: caller,
            check: AttributeMatcher(query, groups: groups),
            newGroup: newGroup, now: configuration.clock())
        try apply([job], context: context)
    }

    /// Several updates of stored classes' items in one write section, all or nothing: the halves of a joined
    /// item (`updateJoined`). Each is checked as ``update(_:with:as:context:)`` checks it; the first step's
    /// query says how its authentication may prompt.
    func updateTogether(
        _ steps: [(query: ItemQuery, changes: ItemChanges)], caller: CallerIdentity, context: AuthenticationContext?
    ) throws {
        let now = configuration.clock()
        let jobs = try steps.map { step in
            let (schema, query, groups, newGroup) = try checkedUpdate(step.query, with: step.changes, caller: caller)
            return UpdateJob(
                changes: step.changes, query: query, schema: schema, groups: groups, caller: caller,
                check: AttributeMatcher(query, groups: groups), newGroup: newGroup, now: now)
        }
        try apply(jobs, context: context)
    }

    private func apply(_ jobs: [UpdateJob], context: AuthenticationContext?) throws {
        guard let first = jobs.first else { return }
        // One context for every match: an authentication for the first one covers the others.
        let authentication = self.authentication(
            first.query.authentication, context: context ?? AuthenticationContext(), caller: first.caller)
        // A user taking their time at a prompt must hold up no other call of this process and no writer of
        // another: the update runs with prompts deferred, and if one is needed its transaction is rolled back,
        // the prompts are asked outside the store's lock, and the update runs again, finding them in the context.
        // The run after the prompts defers them too: were one needed again (an item matching now that did not
        // then, a reuse window run out), it would otherwise be asked inside the transaction (and keychaind's group
        // committer cannot ask at all). Items that keep changing under it end the update after a few rounds.
        var deferring = authentication
        deferring.defersPrompts = true
        for round in 1...Self.updateAuthenticationRounds {
            do {
                return try applyInTransaction(jobs, authentication: deferring)
            } catch is PromptDeferred where round < Self.updateAuthenticationRounds {
                for job in jobs { try authenticateAhead(job, authentication: authentication) }
            } catch is PromptDeferred {
                break  // no prompt whose answer would not be used
            }
        }
        throw KeychainError.authFailed.because(
            "the items to update needed a new authentication each time the update ran again; nothing was changed")
    }

    /// How many times an update asks for its authentications and runs again before it gives up.
    static let updateAuthenticationRounds = 3

    /// One update: what it changes, where, and when.
    private struct UpdateJob {
        let changes: ItemChanges
        let query: ItemQuery
        let schema: ClassSchema
        let groups: GroupScope
        let caller: CallerIdentity
        let check: AttributeMatcher
        /// The access group items move to, if the update moves them.
        let newGroup: String?
        let now: Date
    }

    /// The items the update applies to, with what it reads of them.
    private func matches(of job: UpdateJob, store: ItemStore) throws -> [MatchedRow] {
        try matchingRows(
            job.query, schema: job.schema, groups: job.groups, limit: .all, reading: [.metadata, .secret],
            store: store)
    }

    private func applyInTransaction(_ jobs: [UpdateJob], authentication: ReadAuthentication) throws {
        try writeSection { store in
            for job in jobs {
                let matches = try matches(of: job, store: store)
                guard !matches.isEmpty else {
                    throw KeychainError.itemNotFound.because(
                        notFoundReason(
                            job.query, schema: job.schema, caller: job.caller,
                            base: "no item of class \(job.schema.itemClass.rawValue) matches the update's query",
                            store: store))
                }
                for match in matches {
                    try apply(
                        try plan(job, for: match), job: job, to: match, authentication: authentication,
                        store: store)
                }
            }
        }
    }

    /// Asks, outside the store's lock, for every matching item whose update opens its constrained secret; the
    /// authentications land in `authentication`'s context.
    private func authenticateAhead(_ job: UpdateJob, authentication: ReadAuthentication) throws {
        for match in try withStore({ try matches(of: job, store: $0) }) {
            let plan = try plan(job, for: match)
            guard plan.opensConstrainedSecret, let oldPolicy = plan.oldPolicy else { continue }
            var opened = try openConstrained(
                match.row.secret, policy: oldPolicy, sealer: plan.oldSealer, itemKey: plan.itemKey,
                authentication: authentication
            ).bytes
            wipe(&opened)
        }
    }

    /// The checks of an update that need no item: what ``update(_:with:)`` and its preview validate first.
    /// - Returns: the class's schema, the resolved query, the groups it searches and the group items move to.
    func checkedUpdate(_ query: ItemQuery, with changes: ItemChanges, caller: CallerIdentity) throws
        -> (schema: ClassSchema, query: ItemQuery, groups: GroupScope, newGroup: String?)
    {
        let (schema, query) = try resolvePersistentReference(query)
        try validate(query.attributes, in: schema)
        guard query.returns.isEmpty else {
            throw KeychainError.param.because("an update query cannot ask for results (kSecReturn…)")
        }
        guard query.limit == .all else {
            throw KeychainError.param.because("an update applies to every match; kSecMatchLimit must be absent or All")
        }
        try ItemValue.check(changes.value, for: schema, in: KeychainError.Reason("an update"))
        if changes.value != nil, schema.valueKind != .secret {
            throw KeychainError.unimplemented.because(
                "an update cannot replace the value of a \(schema.itemClass.rawValue) item yet: delete it and add the "
                    + "new one; nothing was changed")
        }
        if let fixed = changes.attributes.keys.sorted().first(where: schema.describesValue.contains) {
            throw KeychainError.param.because(
                "\(fixed.rawValue) describes the item's \(schema.valueKind) value and cannot be changed by an update")
        }
        if query.authentication.ui == .skip {
            throw KeychainError.param.because("kSecUseAuthenticationUISkip is for searches (SecItemCopyMatching) only")
        }
        try validate(changes.attributes, in: schema)
        try validate(dataCount: changes.dataCount)
        try refuseAccessibleBeside(changes.accessibility, changes.accessControl)
        let groups = try searchGroups(query.accessGroup, of: caller)
        let newGroup = try changes.accessGroup.map { try writeGroup($0, of: caller) }
        return (schema, query, groups, newGroup)
    }

    /// What an update makes of one item, worked out before anything is written or asked.
    private struct UpdatePlan {
        let oldSealer: ItemSealer
        let itemKey: SecureBytes
        /// Whether a retired class key opened the item key (the row is rekeyed as it is written).
        let itemKeyUnderRetiredKey: Bool
        let attributes: [AttributeKey: AttributeValue]
        let oldPolicy: AccessControlPolicy?
        let newPolicy: AccessControlPolicy?
        let protection: Accessibility
        /// Whether the secret must be sealed again (new access control or new class).
        let rewrapping: Bool
        /// Whether the update must open a constrained secret, which needs the authentication a read needs.
        let opensConstrainedSecret: Bool
    }

    private func plan(_ job: UpdateJob, for match: MatchedRow) throws -> UpdatePlan {
        let (changes, schema, newGroup) = (job.changes, job.schema, job.newGroup)
        try refuseDamaged(match)
        let oldSealer = sealer(for: match.row, schema: schema, protection: match.protection)
        let opened = try openItemKey(
            wrapped: match.row.wrappedKey, sealer: oldSealer, protection: match.protection,
            classKey: try classKey(match.protection))
        let itemKey = opened.key
        var attributes = try oldSealer.openAttributes(match.row.metadata, itemKey: itemKey)
        guard job.check.holds(for: attributes, schema: schema) else {
            throw KeychainError.decode.because("an item's index does not match its contents (the row is damaged)")
        }
        let oldPolicy = try storedPolicy(attributes)
        attributes.merge(changes.attributes) { $1 }
        if let newGroup { attributes[.accessGroup] = .string(newGroup) }
        if let sync = changes.synchronizable { attributes[.synchronizable] = .bool(sync) }
        attributes[.modificationDate] = .date(job.now)
        try checkStaysOnDevice(attributes)
        let synchronizable = attributes[.synchronizable] == .bool(true)
        let requested = changes.accessibility ?? changes.accessControl?.accessibility
        let newPolicy = updatedPolicy(oldPolicy, changes: changes)
        let protection = try self.protection(
            accessibility: requested ?? (changes.accessControl == nil ? match.protection : nil),
            accessControl: changes.accessControl ?? newPolicy, synchronizable: synchronizable, schema: schema)
        attributes[AccessControlPolicy.attributeKey] = newPolicy.map { .data($0.encoded) }
        // An older item format alone needs no new seal of a constrained secret: its envelope is carried over.
        let rewrapping = newPolicy != oldPolicy || protection != match.protection
        return UpdatePlan(
            oldSealer: oldSealer, itemKey: itemKey, itemKeyUnderRetiredKey: opened.underRetiredKey,
            attributes: attributes, oldPolicy: oldPolicy,
            newPolicy: newPolicy, protection: protection, rewrapping: rewrapping,
            opensConstrainedSecret: oldPolicy != nil && (changes.dataCount != nil || rewrapping))
    }

    private func apply(
        _ plan: UpdatePlan, job: UpdateJob, to match: MatchedRow, authentication: ReadAuthentication,
        store: ItemStore
    ) throws {
        let schema = job.schema
        var secret = try updatedSecret(
            job.changes, match: match, oldPolicy: plan.oldPolicy, oldSealer: plan.oldSealer, itemKey: plan.itemKey,
            rewrapping: plan.rewrapping, authentication: authentication)
        defer { if secret != nil { wipe(&secret!) } }

        let index = try indexRow(plan.attributes, schema: schema)
        var row = match.row
        let sealer = ItemSealer(
            table: schema.itemClass.rawValue, uuid: row.uuid, protection: plan.protection,
            version: ItemSealer.formatVersion, indexBinding: index.binding)
        let sealed = try sealer.seal(
            attributes: plan.attributes, secret: plan.newPolicy == nil ? secret ?? [] : [],
            itemKey: plan.itemKey, classKey: try classKey(plan.protection))
        row.primaryKeyDigest = index.primaryKey
        row.digests = index.digests
        row.indexBinding = index.binding
        row.protection = plan.protection.rawValue
        row.version = ItemSealer.formatVersion
        row.wrappedKey = sealed.wrappedKey
        row.metadata = sealed.metadata
        row.secret = try sealedSecret(
            secret, policy: plan.newPolicy, sealer: sealer, itemKey: plan.itemKey, sealed: sealed.secret,
            unchanged: (match.row.secret, plan.oldSealer), context: authentication.context)
        if plan.itemKeyUnderRetiredKey {
            // The item key was under a class key of before a passcode change, which an older copy of the home
            // opens: the updated contents get a new one.
            row = try rekeyed(
                row, schema: schema, protection: plan.protection, itemKey: plan.itemKey,
                classKey: try classKey(plan.protection), newItemKey: try SystemRandom.key())
        }
        do {
            try store.replace(row, in: schema.itemClass.rawValue)
        } catch let error as StoreError where error.isUniqueViolation {
            let key = describePrimaryKey(plan.attributes, schema: schema)
            throw KeychainError.duplicateItem.because(
                "the update would give an item the primary key of another (\(key)); nothing was changed")
        }
    }
}
