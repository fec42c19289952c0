import KeychainStore

extension Keychain {
    /// Finds items (`SecItemCopyMatching`): at most `query.limit` of them, in insertion order, each with what
    /// `query.returns` asks for.
    /// - Throws: `errSecItemNotFound` when nothing matches (including a limit of 0).
    public func copyMatching(
        _ query: ItemQuery, as caller: CallerIdentity? = nil, context: AuthenticationContext? = nil
    ) throws -> [ItemResult] {
        try search(query, as: caller, context: context).results
    }

    /// Finds items like ``copyMatching(_:)`` and also says what the lock state kept out: items whose class
    /// is unavailable are left out of a search that finds readable ones, never silently.
    /// - Parameters:
    ///   - caller: whose access groups are searched; nil means `configuration.identity`.
    ///   - context: the evaluated context (`kSecUseAuthenticationContext`) whose authentications a constrained
    ///     item's read reuses, and where the ones it asks for are recorded.
    public func search(_ query: ItemQuery, as caller: CallerIdentity? = nil, context: AuthenticationContext? = nil)
        throws -> SearchReport
    {
        do {
            return try searchTellingPrompts(query, as: identity(caller), context: context)
        } catch let refused as ConstraintNeedsInteraction {
            throw refused.searchError
        }
    }

    /// ``search(_:as:context:)``, but a matching item that needs a prompt the call forbids throws
    /// ``ConstraintNeedsInteraction``: both it and a locked item are errSecInteractionNotAllowed, and a joined
    /// search, whose halves are searches, must tell them apart to fail whole for the one and leave out the other.
    func searchTellingPrompts(_ query: ItemQuery, as caller: CallerIdentity, context: AuthenticationContext?)
        throws -> SearchReport
    {
        var (schema, query, groups) = try checkedSearch(query, caller: caller)
        if let join = schema.join {
            return try searchJoined(query, schema: schema, join: join, caller: caller, context: context)
        }
        // Resolved only for a constrained item: the default prompt is text built per call.
        let given = query.authentication
        let readAuthentication = { self.authentication(given, context: context, caller: caller) }
        var columns = RowColumns.metadata  // not an array literal: an OptionSet built from one costs an array
        if Self.readsValue(query.returns) { columns.insert(.secret) }
        // Rows are read under a connection's lock (one SELECT reads one snapshot); decrypting them, and any prompt
        // an item's access control asks for, happen after it is released, so a user taking their time at a
        // prompt never holds up the process's other keychain calls.
        let rows = try withSearchStore { store in
            try matchingRows(query, schema: schema, groups: groups, limit: query.limit, reading: columns, store: store)
        }
        let check = AttributeMatcher(query, groups: groups)
        // The query is validated: each attribute is the class's, and only a date attribute holds a date.
        let checkedByDigests = !query.attributes.values.contains { if case .date = $0 { true } else { false } }
        var outcome = SearchOutcome()
        try collect(
            rows, query: query, schema: schema, check: check, byDigests: checkedByDigests,
            authentication: readAuthentication, into: &outcome)
        if outcome.lockedOut + outcome.damaged > 0, query.limit != .all, !outcome.isFull(query.limit) {
            // Items of an unavailable class, or damaged ones, hid readable ones behind the limit: look past them.
            let seen = Set(rows.map(\.row.uuid))
            let more = try withSearchStore { store in
                try matchingRows(query, schema: schema, groups: groups, limit: .all, reading: columns, store: store)
            }
            try collect(
                more.filter { !seen.contains($0.row.uuid) }, query: query, schema: schema, check: check,
                byDigests: checkedByDigests, authentication: readAuthentication, into: &outcome)
        }
        if outcome.results.isEmpty, let reason = outcome.firstLockedReason {
            throw KeychainError.interactionNotAllowed.because(
                "\(outcome.lockedOut) matching item(s) cannot be read now: \(reason)")
        }
        if outcome.results.isEmpty, outcome.damaged > 0 {
            throw KeychainError.decode.because(outcome.damagedNote(schema))
        }
        guard !outcome.results.isEmpty else {
            throw KeychainError.itemNotFound.because(
                notFoundReason(
                    query, schema: schema, caller: caller,
                    base: "no item of class \(schema.itemClass.rawValue) in the caller's groups matches the query"))
        }
        var notes: [KeychainError.Reason] = []
        if outcome.lockedOut > 0 {
            notes.append(
                Reason(
                    "\(outcome.lockedOut) matching item(s) were left out because their class is not "
                        + "available: \(outcome.firstLockedReason ?? "")"))
        }
        if outcome.damaged > 0 { notes.append(outcome.damagedNote(schema)) }
        return SearchReport(
            results: outcome.results, leftOut: outcome.lockedOut, damaged: outcome.damaged,
            explanation: notes.isEmpty ? nil : .joined(notes))
    }

    /// What a search found that can be read now, and how many matches the lock state kept out.
    private struct SearchOutcome {
        var results: [ItemResult] = []
        var lockedOut = 0
        var firstLockedReason: KeychainError.Reason?
        /// Matches that do not decrypt or whose contents contradict their index, by UUID.
        var damagedUUIDs: [[UInt8]] = []
        var damaged: Int { damagedUUIDs.count }

        /// Which items are damaged (their persistent-reference UUIDs: nothing of their contents is readable).
        func damagedNote(_ schema: ClassSchema) -> KeychainError.Reason {
            let shown = damagedUUIDs.prefix(5).map(\.hexadecimal)
            return Reason(
                "\(damaged) matching item(s) of class \(schema.itemClass.rawValue) are damaged and were "
                    + "skipped (UUID \(shown.joined(separator: ", "))\(damaged > 5 ? ", …" : "")); delete them, or "
                    + "restore them from a backup")
        }

        func isFull(_ limit: MatchLimit) -> Bool {
            switch limit {
            case .all: false
            case .one: results.count >= 1
            case .count(let count): results.count >= count
            }
        }
    }

    /// Decrypts `rows` into `outcome` until the query's limit is reached, counting those the lock state keeps
    /// out and leaving out those `kSecUseAuthenticationUISkip` skips; one that needs a prompt the call forbids
    /// fails the search (``ConstraintNeedsInteraction``, naming it). `byDigests`: the rows' digests answered
    /// every rule of `check`; `authentication`: how a constrained item's secret may be authenticated for.
    private func collect(
        _ rows: [MatchedRow], query: ItemQuery, schema: ClassSchema, check: AttributeMatcher, byDigests: Bool,
        authentication: () -> ReadAuthentication, into outcome: inout SearchOutcome
    ) throws {
        // By index: each row is handed to `result` in place, not copied out of the array first.
        for index in rows.indices where !outcome.isFull(query.limit) {
            do {
                outcome.results.append(
                    try result(
                        for: rows[index], schema: schema, returns: query.returns, check: check,
                        authentication: authentication(), checkedByDigests: byDigests))
            } catch is ConstraintSkip {
                continue
            } catch var refused as ConstraintNeedsInteraction {
                // Apple's s3dl_query goes on past such an item, then query_error fails the call: no partial results.
                refused.uuid = rows[index].row.uuid
                throw refused
            } catch let error as KeychainError where error.status == SecurityStatus.interactionNotAllowed {
                outcome.lockedOut += 1
                if outcome.firstLockedReason == nil { outcome.firstLockedReason = error.explanation }
            } catch let error as KeychainError where error.status == SecurityStatus.decode {
                outcome.damagedUUIDs.append(rows[index].row.uuid)
            }
        }
    }

    /// The checks of a search, shared by the search itself and its dry run: the class, the attributes, the
    /// caller's groups it covers, and the limit.
    func checkedSearch(_ query: ItemQuery, caller: CallerIdentity) throws -> (ClassSchema, ItemQuery, GroupScope) {
        let (schema, query) = try resolvePersistentReference(query)
        try validate(query.attributes, in: schema)
        if query.accessGroup == CallerIdentity.tokenAccessGroup {
            // Open to every app on iOS; only external tokens (smart cards) put items there, and none does here.
            throw KeychainError.itemNotFound.because("no external token provides items (kSecAttrAccessGroupToken)")
        }
        let groups = try searchGroups(query.accessGroup, of: caller)
        if case .count(let count) = query.limit {
            guard count >= 0 else { throw KeychainError.param.because("kSecMatchLimit is negative") }
            guard count > 0 else { throw KeychainError.itemNotFound.because("kSecMatchLimit is 0") }
        }
        return (schema, query, groups)
    }

    /// A query by persistent reference takes its class from the reference; other attributes in it narrow the
    /// match further, as in Apple's query parser.
    func resolvePersistentReference(_ query: ItemQuery) throws -> (ClassSchema, ItemQuery) {
        var query = query
        if let reference = query.persistentReference {
            if let named = query.itemClass, named != reference.itemClass {
                // Apple's query parser answers a second, different class this way.
                throw KeychainError(
                    SecurityStatus.noSuchClass, reason: "kSecClass does not match the persistent reference's class")
            }
            query.itemClass = reference.itemClass
            query.synchronizable = .any
        }
        return (try schema(query.itemClass), query)
    }
}
