import KeychainCrypto
import KeychainStore

/// The result builder: what a caller gets back for a matched row (attributes, the typed value, the persistent
/// reference), with the row checked against its own decrypted attributes on the way.
extension Keychain {
    /// Builds what the caller asked to have returned for one matched row. With a `check`, the row's decrypted
    /// attributes must satisfy the query too: lookups compare digests in SQL, and digests are not bound to
    /// the row, so a row whose digest columns were swapped with another's must not hand out its secret.
    /// - Throws: `errSecDecode` for such a row; `errSecInteractionNotAllowed` when its class is unavailable.
    /// - Parameters:
    ///   - authentication: how a constrained item's secret may be authenticated for.
    ///   - suppliedSecret: the secret the caller just added, returned as is for a constrained item.
    ///   - checkedByDigests: the lookup's digest conditions covered every rule of `check` (no date condition).
    func result(
        for match: MatchedRow, schema: ClassSchema, returns: ReturnOptions, check: AttributeMatcher? = nil,
        authentication: @autoclosure () -> ReadAuthentication = ReadAuthentication(), suppliedSecret: Secret? = nil,
        checkedByDigests: Bool = false
    ) throws -> ItemResult {
        let reference = PersistentReference(itemClass: schema.itemClass, uuid: match.row.uuid)
        try refuseDamaged(match)
        let sealer = sealer(for: match.row, schema: schema, protection: match.protection)
        // Even a search that returns no contents reveals the item; it needs the class to be available.
        let classKey = try classKey(match.protection)
        let itemKey = try itemKey(
            wrapped: match.row.wrappedKey, sealer: sealer, protection: match.protection, classKey: classKey)
        if checkedByDigests,
            let value = try dataOnlyValue(
                match, schema: schema, returns: returns, sealer: sealer, itemKey: itemKey,
                keyScheduleMayStay: classKey.isKeptInProcess)
        {
            return ItemResult(
                itemClass: schema.itemClass, value: value, attributes: nil,
                persistentReference: returns.contains(.persistentReference) ? reference : nil)
        }
        // A key's or certificate's reference object is made from its value; a password has none.
        let readsValue = Self.readsValue(returns)
        var attributes: [AttributeKey: AttributeValue]? = match.attributes
        if attributes == nil, returns.contains(.attributes) {
            attributes = try sealer.openAttributes(match.row.metadata, itemKey: itemKey)
        } else if attributes == nil, let check {
            let wanted = check.keys + (readsValue ? [AccessControlPolicy.attributeKey] + schema.describesValue : [])
            attributes = try sealer.openAttributes(match.row.metadata, itemKey: itemKey, only: wanted)
        }
        if let check, let attributes, !check.holds(for: attributes, schema: schema, protection: match.protection) {
            throw KeychainError.decode.because("an item's index does not match its contents (the row is damaged)")
        }
        var returned: [AttributeKey: AttributeValue]? = nil
        if returns.contains(.attributes), var opened = attributes {
            opened[.accessible] = .string(match.protection.rawValue)
            returned = opened
        }
        if readsValue, attributes == nil {
            attributes = try sealer.openAttributes(
                match.row.metadata, itemKey: itemKey, only: [AccessControlPolicy.attributeKey] + schema.describesValue)
        }
        // The access control is decoded here, once, and reaches the caller typed.
        let policy = try attributes.flatMap(storedPolicy)
        var data: Secret?
        if readsValue {
            if let policy {
                if let suppliedSecret {
                    data = suppliedSecret
                } else {
                    do {
                        data = Secret(
                            try openConstrained(
                                match.row.secret, policy: policy, sealer: sealer, itemKey: itemKey,
                                authentication: authentication()))
                    } catch let error as KeychainError where error.status == SecurityStatus.interactionNotAllowed {
                        // The class key opened above: the item's constraint wants a prompt the call forbids.
                        throw ConstraintNeedsInteraction(error: error)
                    }
                }
            } else {
                data = Secret(
                    try sealer.openSecret(
                        match.row.secret, itemKey: itemKey, keyScheduleMayStay: classKey.isKeptInProcess))
            }
        }
        let value = try data.map { try Self.itemValue($0, schema: schema, attributes: attributes ?? [:]) }
        var result = ItemResult(
            itemClass: schema.itemClass, value: value, attributes: returned,
            persistentReference: returns.contains(.persistentReference) ? reference : nil)
        if returned != nil { result.accessControl = policy }
        return result
    }

    /// The value of a row whose secret's seal binds its digests (format 3), when the caller wants only the value
    /// (and perhaps the reference) of a class whose value needs no attribute: the seal opening proves that the
    /// digests the lookup matched are the row's own, which is what comparing the decrypted attributes would
    /// prove, so the attributes stay sealed. Nil when the row must take the full path: an older format, a
    /// constrained item (its secret is an envelope, sealed as another part), or a seal that does not open (a
    /// damaged row, whose full path then says so as before).
    private func dataOnlyValue(
        _ match: MatchedRow, schema: ClassSchema, returns: ReturnOptions, sealer: ItemSealer, itemKey: SecureBytes,
        keyScheduleMayStay: Bool
    ) throws -> ItemValue? {
        guard match.row.version >= ItemSealer.indexBoundFormat, match.attributes == nil,
            returns.subtracting(.persistentReference) == .data, schema.describesValue.isEmpty,
            let secret = try? sealer.openSecret(
                match.row.secret, itemKey: itemKey, keyScheduleMayStay: keyScheduleMayStay)
        else { return nil }
        return try Self.itemValue(Secret(secret), schema: schema, attributes: [:])
    }

    /// Whether a result needs the item's value: for `.data`, and for `.reference`, whose object is made from it
    /// (keys, certificates) or which, for a password, has none and returns the data in its place (securityd
    /// decrypts the item whenever a reference is asked for, and Apple's client keeps the data it fetched for one).
    static func readsValue(_ returns: ReturnOptions) -> Bool {
        returns.contains(.data) || returns.contains(.reference)
    }

    /// The typed value of an item from its decrypted secret column and the attributes that describe it.
    /// - Throws: errSecDecode when a key item's describing attributes are missing (the row is damaged).
    static func itemValue(_ bytes: Secret, schema: ClassSchema, attributes: [AttributeKey: AttributeValue]) throws
        -> ItemValue
    {
        switch schema.valueKind {
        case .secret: return .secret(bytes)
        case .certificate: return .certificate(CertificateValue(derBytes: bytes.bytes))
        case .identity:
            throw KeychainError(
                SecurityStatus.internalComponent, reason: "an identity is joined from two items, never read as one")
        case .key:
            guard case .number(let type)? = attributes[.keyType], case .number(let keyClass)? = attributes[.keyClass],
                case .number(let bits)? = attributes[.keySizeInBits]
            else { throw KeychainError.decode.because("a key item lacks its type, class or size (the row is damaged)") }
            return .key(
                KeyValue(
                    keyType: String(type), keyClass: String(keyClass), sizeInBits: Int(bits),
                    externalRepresentation: bytes))
        }
    }
}
