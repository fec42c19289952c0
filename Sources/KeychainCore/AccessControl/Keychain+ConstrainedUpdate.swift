import KeychainCrypto

/// `SecItemUpdate` of items with access-control constraints, as Apple: attributes alone change with no
/// authentication; a new secret, a new access control or a new protection class re-seal the secret, which
/// needs the authentication a read of it needs (the old policy's): asked outside the update's transaction, which
/// then finds it in the context.
extension Keychain {
    /// The access control stored in an item's attributes, if it has constraints.
    /// - Throws: `errSecDecode` when the stored value is damaged.
    func storedPolicy(_ attributes: [AttributeKey: AttributeValue]) throws -> AccessControlPolicy? {
        guard let value = attributes[AccessControlPolicy.attributeKey] else { return nil }
        guard case .data(let bytes) = value, let policy = AccessControlPolicy(encoded: bytes) else {
            throw KeychainError.decode.because("an item's access control is damaged")
        }
        return policy
    }

    /// The constraints an item has after `changes`: a new access control replaces them (one without
    /// constraints removes them); a new protection class alone keeps the flags under the new class.
    func updatedPolicy(_ old: AccessControlPolicy?, changes: ItemChanges) -> AccessControlPolicy? {
        if let control = changes.accessControl { return control.hasConstraints ? control : nil }
        if let old, let accessibility = changes.accessibility {
            return AccessControlPolicy(accessibility: accessibility, flags: old.flags)
        }
        return old
    }

    /// The secret to seal after an update, or nil when a constrained item's sealed secret stays as it is.
    /// - Parameter rewrapping: whether the secret must be sealed again (new access control, class or format).
    /// - Throws: as a read of the secret (errSecUserCanceled, errSecAuthFailed, errSecInteractionNotAllowed)
    ///   when a constrained item's secret is replaced or re-sealed.
    func updatedSecret(
        _ changes: ItemChanges, match: MatchedRow, oldPolicy: AccessControlPolicy?, oldSealer: ItemSealer,
        itemKey: SecureBytes, rewrapping: Bool, authentication: ReadAuthentication
    ) throws -> [UInt8]? {
        guard let oldPolicy else {
            return try changes.data ?? oldSealer.openSecret(match.row.secret, itemKey: itemKey).bytes
        }
        guard changes.dataCount != nil || rewrapping else { return nil }  // attributes only: no authentication
        // Apple: updating the secret of a constrained item needs the same authentication as reading it.
        let current = try openConstrained(
            match.row.secret, policy: oldPolicy, sealer: oldSealer, itemKey: itemKey, authentication: authentication)
        return changes.data ?? current.bytes
    }

    /// The secret column after an update: sealed under the item key without constraints, under a fresh
    /// constraint envelope with them, or, when the secret was not touched, the stored envelope (sealed again
    /// only if the item's format changes).
    /// - Parameter unchanged: the stored column and the sealer it was written with.
    func sealedSecret(
        _ secret: [UInt8]?, policy: AccessControlPolicy?, sealer: ItemSealer, itemKey: SecureBytes, sealed: [UInt8],
        unchanged: (column: [UInt8], sealer: ItemSealer), context: AuthenticationContext?
    ) throws -> [UInt8] {
        guard let policy else { return sealed }
        guard let secret else {
            return try carriedOverEnvelope(unchanged.column, from: unchanged.sealer, to: sealer, itemKey: itemKey)
        }
        return try sealConstrained(secret, policy: policy, sealer: sealer, itemKey: itemKey, context: context)
    }

    /// A constrained secret column moved, as it is, to a row written by `sealer`: the envelope is not opened,
    /// so no factor is needed, only the item key.
    func carriedOverEnvelope(
        _ column: [UInt8], from old: ItemSealer, to sealer: ItemSealer, itemKey: SecureBytes
    ) throws -> [UInt8] {
        if old.version == sealer.version, old.protection == sealer.protection { return column }
        var framed = try constrainedEnvelopeColumn(column, sealer: old, itemKey: itemKey)
        defer { wipe(&framed) }
        return try sealer.sealEnvelope(framed, itemKey: itemKey)
    }
}
