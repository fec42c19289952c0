/// Joined classes (identities): their items are made by joining two stored classes, as the schema's
/// `JoinedClasses` says, so each operation on them runs as operations on the halves. The searches of the halves
/// are the engine's own, so groups, protection classes, lock states, access control and damaged rows are
/// handled as for any item.
extension Keychain {
    /// One joined item: its primary half (the certificate) and its partner (the private key), as searches of
    /// their classes returned them (each with its persistent reference and what the joined query asked for).
    struct JoinedItem {
        let primary: ItemResult
        let partner: ItemResult
        /// The value that links them (the certificate's `pkhh`, the key's `klbl`).
        let link: AttributeValue
    }

    /// What a join found, and the matches the lock state or damage kept out of it.
    struct JoinOutcome {
        var items: [JoinedItem] = []
        var leftOut = 0
        var damaged = 0
        var firstLockedReason: KeychainError.Reason?
        /// Primary items that matched but have no partner in the caller's groups.
        var unpaired = 0
        /// Primary items whose partner needs authentication that `kSecUseAuthenticationUISkip` skipped.
        var skipped = 0
    }

    /// The joined items that match `query` (its class resolved to a joined one), at most `limit` of them.
    /// - Parameter returns: what each half must bring besides its persistent reference and attributes.
    /// - Throws: errSecInteractionNotAllowed, for the whole join, when a matching item's partner needs a prompt
    ///   the query forbids, as a search of a stored class fails for such an item; one whose class is locked is
    ///   left out, as there.
    func joinedItems(
        _ query: ItemQuery, join: JoinedClasses, caller: CallerIdentity, context: AuthenticationContext?,
        limit: MatchLimit, returns: ReturnOptions
    ) throws -> JoinOutcome {
        let parts = join.split(query.attributes)
        var primaryQuery = ItemQuery(
            itemClass: join.primary, attributes: parts.primary, accessGroup: query.accessGroup,
            synchronizable: query.synchronizable, limit: .all, caseInsensitive: query.caseInsensitive,
            returns: returns.union([.attributes, .persistentReference]),
            persistentReference: query.persistentReference.map {
                PersistentReference(itemClass: join.primary, uuid: $0.uuid)
            })
        primaryQuery.authentication = query.authentication
        var outcome = JoinOutcome()
        let primaries: SearchReport
        do {
            primaries = try search(primaryQuery, as: caller, context: context)
        } catch KeychainError.itemNotFound {
            return outcome
        }
        outcome.leftOut = primaries.leftOut
        outcome.damaged = primaries.damaged
        if primaries.leftOut > 0 { outcome.firstLockedReason = primaries.explanation }
        for primary in primaries.results {
            if case .count(let count) = limit, outcome.items.count >= count { break }
            if limit == .one, !outcome.items.isEmpty { break }
            guard let link = primary.attributes?[join.primaryAttribute] else {
                outcome.unpaired += 1
                continue
            }
            // The owner sees every app's items: its pair is sought in the primary's own group, so that two apps'
            // copies of one identity are never paired across the apps.
            var partnerGroup = query.accessGroup
            if caller.isOwner, partnerGroup == nil, case .string(let group)? = primary.attributes?[.accessGroup] {
                partnerGroup = group
            }
            var partnerQuery = ItemQuery(
                itemClass: join.partner,
                attributes: parts.partner.merging(join.partnerConditions) { given, _ in given }
                    .merging([join.partnerAttribute: link]) { _, linked in linked },
                accessGroup: partnerGroup, synchronizable: query.synchronizable,
                accessibility: query.accessibility, limit: .one, caseInsensitive: query.caseInsensitive,
                returns: returns.union(.persistentReference))
            partnerQuery.authentication = query.authentication
            do {
                guard let partner = try searchTellingPrompts(partnerQuery, as: caller, context: context).results.first
                else { continue }
                outcome.items.append(JoinedItem(primary: primary, partner: partner, link: link))
            } catch var refused as ConstraintNeedsInteraction {
                // Named by the joined item's own reference (its primary's UUID), which is what the caller sees.
                refused.uuid = primary.persistentReference?.uuid ?? refused.uuid
                throw refused.searchError
            } catch KeychainError.itemNotFound {
                if try partnerWasSkipped(partnerQuery, as: caller) {
                    outcome.skipped += 1
                } else {
                    outcome.unpaired += 1
                }
            } catch let error as KeychainError where error.status == SecurityStatus.interactionNotAllowed {
                outcome.leftOut += 1
                if outcome.firstLockedReason == nil { outcome.firstLockedReason = error.explanation }
            } catch KeychainError.decode {
                outcome.damaged += 1
            }
        }
        return outcome
    }

    /// Whether a partner search that found nothing under `kSecUseAuthenticationUISkip` found nothing because the
    /// partner needs authentication: its attributes alone, which need none, are found.
    private func partnerWasSkipped(_ partnerQuery: ItemQuery, as caller: CallerIdentity) throws -> Bool {
        guard partnerQuery.authentication.ui == .skip else { return false }
        var attributesOnly = partnerQuery
        attributesOnly.returns = [.attributes, .persistentReference]
        do {
            return try !search(attributesOnly, as: caller).results.isEmpty
        } catch let error as KeychainError where error.status == SecurityStatus.itemNotFound {
            return false
        }
    }

    /// A search of a joined class (`SecItemCopyMatching` of `kSecClassIdentity`).
    /// - Throws: errSecItemNotFound when no primary item in the caller's groups has its partner there.
    func searchJoined(
        _ query: ItemQuery, schema: ClassSchema, join: JoinedClasses, caller: CallerIdentity,
        context: AuthenticationContext?
    ) throws -> SearchReport {
        var wanted: ReturnOptions = []
        if Self.readsValue(query.returns) { wanted.insert(.data) }
        if query.returns.contains(.attributes) { wanted.insert(.attributes) }
        let outcome = try joinedItems(
            query, join: join, caller: caller, context: context, limit: query.limit, returns: wanted)
        let results = outcome.items.map { joinedResult($0, schema: schema, returns: query.returns) }
        if results.isEmpty, outcome.leftOut > 0, let reason = outcome.firstLockedReason {
            throw KeychainError.interactionNotAllowed.because(
                "\(outcome.leftOut) matching item(s) cannot be read now: \(reason)")
        }
        if results.isEmpty, outcome.damaged > 0 {
            throw KeychainError.decode.because(
                "\(outcome.damaged) matching item(s) are damaged and were skipped; delete them, or restore them "
                    + "from a backup")
        }
        guard !results.isEmpty else { throw joinedNotFound(schema, join: join, outcome: outcome) }
        return SearchReport(
            results: results, leftOut: outcome.leftOut, damaged: outcome.damaged,
            explanation: outcome.leftOut > 0 ? outcome.firstLockedReason : nil)
    }

    /// Why a joined query found nothing: no primary item matched, or some did without a partner.
    func joinedNotFound(_ schema: ClassSchema, join: JoinedClasses, outcome: JoinOutcome) -> KeychainError {
        let base: KeychainError.Reason =
            "no item of class \(schema.itemClass.rawValue) in the caller's groups matches the query"
        var reasons: [KeychainError.Reason] = [base]
        if outcome.unpaired > 0 {
            reasons.append(
                Reason(
                    "\(outcome.unpaired) item(s) of class \(join.primary.rawValue) match, but none has a private key "
                        + "item (\(join.partner.rawValue) with \(join.partnerAttribute.rawValue) equal to its "
                        + "\(join.primaryAttribute.rawValue)) in the caller's groups that matches too"))
        }
        if outcome.skipped > 0 {
            reasons.append(
                Reason(
                    "\(outcome.skipped) item(s) of class \(join.primary.rawValue) match, but their private key needs "
                        + "authentication, which kSecUseAuthenticationUISkip skips"))
        }
        guard reasons.count > 1 else { return KeychainError.itemNotFound.because(base) }
        return KeychainError.itemNotFound.because(.joined(reasons))
    }

    /// One joined item as the caller asked for it: its value made of both halves; the partner's attributes
    /// with the primary's over them (the certificate's label, group and dates are the identity's); the
    /// primary's persistent reference under the joined class.
    private func joinedResult(_ item: JoinedItem, schema: ClassSchema, returns: ReturnOptions) -> ItemResult {
        var value: ItemValue?
        if case .certificate(let certificate)? = item.primary.value, case .key(let key)? = item.partner.value {
            value = .identity(IdentityValue(certificate: certificate, key: key))
        }
        var attributes: [AttributeKey: AttributeValue]?
        if returns.contains(.attributes) {
            attributes = (item.partner.attributes ?? [:]).merging(item.primary.attributes ?? [:]) { _, primary in
                primary
            }
        }
        let reference = item.primary.persistentReference.map {
            PersistentReference(itemClass: schema.itemClass, uuid: $0.uuid)
        }
        return ItemResult(
            itemClass: schema.itemClass, value: value, attributes: attributes,
            persistentReference: returns.contains(.persistentReference) ? reference : nil,
            accessControl: attributes == nil ? nil : item.partner.accessControl)
    }
}
