import KeychainCrypto
import KeychainStore

/// A validated, encrypted item ready to insert.
struct PreparedItem {
    let schema: ClassSchema
    let row: StoredRow
    let protection: Accessibility
    let attributes: [AttributeKey: AttributeValue]
    /// The passcode's epoch when the item was sealed (``ProtectionState/passcodeEpoch``): a change since means
    /// new class keys, so the item is sealed again before it is written.
    let passcodeEpoch: String?
    /// The primary-key attributes the caller left out (they took their defaults), for explanations.
    var leftOut: [AttributeKey] = []
}

extension Keychain {
    /// Adds an item (`SecItemAdd`). Returns what `item.returns` asks for, or nil when it asks for nothing.
    /// - Parameters:
    ///   - caller: whose access groups the item goes into; nil means `configuration.identity`.
    ///   - context: holds the application password an `.applicationPassword` access control needs.
    /// - Throws: `errSecDuplicateItem` when an item with the same primary key exists; `errSecParam`,
    ///   `errSecNoSuchAttr`, `errSecMissingEntitlement`, `errSecUnimplemented` for invalid requests.
    @discardableResult
    public func add(_ item: NewItem, as caller: CallerIdentity? = nil, context: AuthenticationContext? = nil) throws
        -> ItemResult?
    {
        if let schema = ClassSchema.of(item.itemClass), let join = schema.join {
            return try addJoined(item, schema: schema, join: join, caller: identity(caller), context: context)
        }
        let prepared = try sealingAgainAfterAPasscodeChange {
            try prepare(item, caller: identity(caller), context: context)
        } write: {
            try insert([$0])
        }
        guard !item.returns.isEmpty else { return nil }
        let match = MatchedRow(row: prepared.row, protection: prepared.protection, attributes: prepared.attributes)
        // The caller has just handed over the secret: returning it needs no authentication.
        return try result(
            for: match, schema: prepared.schema, returns: item.returns,
            suppliedSecret: item.value?.storedSecret ?? Secret([]))
    }

    /// Adds several items in one transaction: all of them, or, if any is invalid or a duplicate, none.
    /// - Throws: the first item's failure, as ``add(_:)`` would report it.
    public func add(contentsOf items: [NewItem], as caller: CallerIdentity? = nil) throws {
        let caller = identity(caller)
        _ = try sealingAgainAfterAPasscodeChange {
            try items.map { try prepare($0, caller: caller, context: nil) }
        } write: {
            try insert($0)
        }
    }

    private func insert(_ items: [PreparedItem]) throws {
        var current: PreparedItem?
        do {
            try writeSection { store in
                for item in items {
                    current = item
                    try checkSealedUnderCurrentPasscode(item)
                    try store.insert(item.row, into: item.schema.itemClass.rawValue)
                }
            }
        } catch KeychainError.duplicateItem {
            guard let current else { throw KeychainError.duplicateItem }
            throw KeychainError.duplicateItem.because(
                duplicateReason(current.attributes, schema: current.schema, leftOut: current.leftOut))
        }
    }

    /// An add that passed every check: its class, group and protection, and its attributes with the primary
    /// key's defaults, the group and the sync flag filled in.
    struct CheckedAdd {
        let schema: ClassSchema
        let protection: Accessibility
        let attributes: [AttributeKey: AttributeValue]
        /// The primary-key attributes the caller left out (they took their defaults), for explanations.
        let leftOut: [AttributeKey]
    }

    /// The checks of an add, shared by the add itself and its dry run.
    func checkedAdd(_ item: NewItem, caller: CallerIdentity) throws -> CheckedAdd {
        let schema = try schema(item.itemClass)
        try ItemValue.check(item.value, for: schema, in: KeychainError.Reason("an add"))
        try validate(item.attributes, in: schema)
        try validate(dataCount: item.value?.storedByteCount)
        try refuseAccessibleBeside(item.accessibility, item.accessControl)
        let group = try writeGroup(item.accessGroup, of: caller)
        let protection = try protection(
            accessibility: item.accessibility, accessControl: item.accessControl, synchronizable: item.synchronizable,
            schema: schema)
        var attributes = try valueAttributes(item, schema: schema)
        for key in schema.primaryKey where attributes[key] == nil {
            attributes[key] = schema.defaultValue(for: key)
        }
        attributes[.accessGroup] = .string(group)
        attributes[.synchronizable] = .bool(item.synchronizable)
        try checkStaysOnDevice(attributes)
        return CheckedAdd(
            schema: schema, protection: protection, attributes: attributes,
            leftOut: schema.primaryKey.filter { item.attributes[$0] == nil })
    }

    /// The item's attributes with those that describe its value (a key's class, type and size) filled in from the
    /// value where the caller left them out: the caller's own are stored as given, as Apple's SecItemAdd lets them
    /// override a reference's (SecItem.m, SecItemAttributesPrepare). - Throws: errSecParam when a key or
    /// certificate item has no value.
    private func valueAttributes(_ item: NewItem, schema: ClassSchema) throws -> [AttributeKey: AttributeValue] {
        var attributes = item.attributes
        switch (schema.valueKind, item.value) {
        case (.secret, _): return attributes
        case (.identity, _):
            throw KeychainError.unimplemented.because(
                "an item of class \(schema.itemClass.rawValue) is added alone (add), not among others")
        case (.key, .key(let key)?):
            guard let type = Int64(key.keyType), let keyClass = Int64(key.keyClass) else {
                throw KeychainError.param.because("the key's type or class is not a number")
            }
            let described: [AttributeKey: AttributeValue] = [
                .keyClass: .number(keyClass), .keyType: .number(type), .keySizeInBits: .number(Int64(key.sizeInBits)),
            ]
            for (attribute, value) in described where attributes[attribute] == nil {
                attributes[attribute] = value
            }
            if attributes[.effectiveKeySize] == nil { attributes[.effectiveKeySize] = .number(Int64(key.sizeInBits)) }
            return attributes
        case (.certificate, .certificate?):
            // The face derives every certificate attribute from the DER; the engine only checks they are there.
            for attribute in schema.primaryKey where attributes[attribute] == nil {
                throw KeychainError.param.because(
                    "a certificate item needs \(attribute.rawValue), which the certificate's DER gives")
            }
            return attributes
        default:
            throw KeychainError.param.because(
                "an item of class \(schema.itemClass.rawValue) needs its value (kSecValueRef); none was given")
        }
    }

    /// Validates an add and encrypts the new item.
    func prepare(_ item: NewItem, caller: CallerIdentity, context: AuthenticationContext?) throws
        -> PreparedItem
    {
        let checked = try checkedAdd(item, caller: caller)
        var attributes = checked.attributes
        let now = configuration.clock()
        attributes[.creationDate] = .date(now)
        attributes[.modificationDate] = .date(now)
        let constraints = item.accessControl.flatMap { $0.hasConstraints ? $0 : nil }
        if let constraints { attributes[AccessControlPolicy.attributeKey] = .data(constraints.encoded) }
        let fresh = try FreshItemIdentity.draw()
        var secret = item.value?.storedBytes ?? []
        defer { wipe(&secret) }
        var prepared = try prepare(
            attributes, secret: secret, schema: checked.schema,
            protection: checked.protection, uuid: fresh.uuid, itemKey: fresh.itemKey,
            constraints: constraints, context: context)
        prepared.leftOut = checked.leftOut
        return prepared
    }

    /// Encrypts an item whose attributes are complete (group, sync and dates included) under a given UUID:
    /// what an add does once validated, and what a restore does with an item from a backup.
    /// - Parameter itemKey: the item's fresh key, drawn here when nil.
    func prepare(
        _ attributes: [AttributeKey: AttributeValue], secret: [UInt8], schema: ClassSchema, protection: Accessibility,
        uuid: [UInt8], itemKey: SecureBytes? = nil, constraints: AccessControlPolicy? = nil,
        context: AuthenticationContext? = nil
    ) throws -> PreparedItem {
        // Read before the class key: a change after this is seen when the item is written.
        let epoch = try dataProtection.passcodeEpoch
        let index = try indexRow(attributes, schema: schema)
        let sealer = ItemSealer(
            table: schema.itemClass.rawValue, uuid: uuid, protection: protection,
            version: ItemSealer.formatVersion, indexBinding: index.binding)
        let itemKey = try itemKey ?? SystemRandom.key()
        let sealed = try sealer.seal(
            attributes: attributes, secret: constraints == nil ? secret : [],
            itemKey: itemKey, classKey: try classKey(protection))
        // A constrained secret is sealed under a key of its own, which only the constraint keys unwrap.
        let sealedSecret = try constraints.map {
            try sealConstrained(secret, policy: $0, sealer: sealer, itemKey: itemKey, context: context)
        }
        let row = StoredRow(
            uuid: uuid, primaryKeyDigest: index.primaryKey, protection: protection.rawValue,
            version: ItemSealer.formatVersion, wrappedKey: sealed.wrappedKey, metadata: sealed.metadata,
            secret: sealedSecret ?? sealed.secret, digests: index.digests, indexBinding: index.binding)
        return PreparedItem(
            schema: schema, row: row, protection: protection, attributes: attributes, passcodeEpoch: epoch)
    }
}
