/// Checks shared by the four operations: classes, attributes, sizes and access groups.
extension Keychain {
    /// The largest secret accepted (16 MiB): far above any credential, below anything that strains memory.
    package static let maximumDataSize = 16 << 20
    /// The largest single attribute value accepted (1 MiB).
    package static let maximumAttributeSize = 1 << 20

    /// The schema of a class this engine stores. - Throws: `errSecUnimplemented` for a class without a descriptor
    /// in `ClassSchema.stored`.
    func schema(_ itemClass: ItemClass?) throws -> ClassSchema {
        guard let itemClass else { throw KeychainError.param.because("the query names no class (kSecClass)") }
        guard let schema = ClassSchema.of(itemClass) else {
            throw KeychainError.unimplemented.because("items of class \(itemClass.rawValue) are not supported yet")
        }
        return schema
    }

    /// Every attribute must belong to the class, have the right kind and fit the size bound. The dates may be
    /// written, as on Apple's keychain: an add replaces both with its own time, an update keeps a creation date
    /// given and replaces the modification date (code that copies an item's returned attributes into an add or an
    /// update works).
    func validate(_ attributes: [AttributeKey: AttributeValue], in schema: ClassSchema) throws {
        for (key, value) in attributes {
            guard let kind = schema.attributes[key] else {
                throw KeychainError.noSuchAttr.because(Self.noSuchAttributeReason(key, schema: schema))
            }
            guard Self.value(value, fits: kind) else {
                throw KeychainError.param.because("\(key.rawValue) has a value of the wrong type")
            }
            if case .date(let date) = value, !AttributeValue.isValidDate(date) {
                throw KeychainError.param.because(
                    "\(key.rawValue) is not a date between the years 0 and 9999 "
                        + "(\(date.timeIntervalSinceReferenceDate) seconds since 2001)")
            }
            guard value.byteCount <= Self.maximumAttributeSize else {
                throw KeychainError.param.because("\(key.rawValue) is larger than \(Self.maximumAttributeSize) bytes")
            }
        }
    }

    private static func value(_ value: AttributeValue, fits kind: AttributeKind) -> Bool {
        switch (kind, value) {
        // A number attribute, flags included, may hold a string that is not a number (iOS stores kSecAttrPort: ""
        // as given), and a text or data attribute a number (iOS keeps kSecAttrAccount: 42 as the number).
        case (.text, .string), (.text, .data), (.text, .number), (.data, .data), (.data, .string), (.data, .number),
            (.number, .number), (.number, .string), (.boolean, .bool), (.boolean, .number), (.boolean, .string),
            (.date, .date):
            true
        default: false
        }
    }

    /// Checks the size of a secret.
    func validate(dataCount: Int?) throws {
        if let dataCount, dataCount > Self.maximumDataSize {
            throw KeychainError.param.because("kSecValueData is larger than \(Self.maximumDataSize) bytes")
        }
    }

    /// The identity a call acts as: the one it names, else the configuration's (the convenience API's caller).
    func identity(_ named: CallerIdentity?) -> CallerIdentity {
        named ?? configuration.identity
    }

    /// The groups a search covers: the one named, which the caller must hold, or all of the caller's (every
    /// group, for the owner).
    func searchGroups(_ named: String?, of caller: CallerIdentity) throws -> GroupScope {
        let groups = caller.accessGroups
        if caller.isOwner {
            guard let named else { return .every }
            try Self.checkOwnersGroupName(named)
            return .only([named])
        }
        guard !groups.isEmpty else {
            throw KeychainError.missingEntitlement.because("the caller has no keychain access groups")
        }
        guard let named else { return .only(groups) }
        guard groups.contains(named) else {
            throw KeychainError.missingEntitlement.because(Self.missingGroupReason(named, groups: groups))
        }
        return .only([named])
    }

    /// The group a write goes to: the one named, which the caller must hold (any an app may hold, for the owner),
    /// or the caller's first.
    func writeGroup(_ named: String?, of caller: CallerIdentity) throws -> String {
        if caller.isOwner, let group = named ?? caller.accessGroups.first {
            try Self.checkOwnersWriteGroup(group)
            return group
        }
        guard case .only(let groups) = try searchGroups(named, of: caller), let group = groups.first else {
            throw KeychainError.missingEntitlement.because("the caller has no keychain access groups")
        }
        return group
    }

    /// The longest access group the owner may name. An app's groups come from its entitlements (the
    /// administrator's policy through keychaind); the owner's are its own text, and each name it uses is digested
    /// and kept in the engine's cache of recent values.
    static let longestOwnersGroupName = 1024

    /// The checks of a group the owner writes to (a restore's items too): any an app may hold.
    static func checkOwnersWriteGroup(_ group: String) throws {
        // External tokens' group is theirs alone (its searches find none of the keychain's items), and an
        // empty name is no app's.
        guard group != CallerIdentity.tokenAccessGroup, !group.isEmpty else {
            throw KeychainError.missingEntitlement.because(
                "no app holds the access group \"\(group)\": nothing is written there")
        }
        try checkOwnersGroupName(group)
    }

    private static func checkOwnersGroupName(_ group: String) throws {
        guard group.utf8.count <= longestOwnersGroupName else {
            throw KeychainError.param.because(
                "kSecAttrAccessGroup is longer than \(longestOwnersGroupName) bytes: no app holds such a group")
        }
    }

    /// An access control with flags names the item's class itself: Apple's keychain makes a second access control
    /// of kSecAttrAccessible and refuses the two as conflicting (errSecParam), even of one class. Without flags
    /// the two agree when their classes do.
    func refuseAccessibleBeside(_ accessibility: Accessibility?, _ accessControl: AccessControlPolicy?) throws {
        guard accessibility != nil, let accessControl, accessControl.hasFlags else { return }
        throw KeychainError.param.because(
            "kSecAttrAccessible cannot be given beside a kSecAttrAccessControl with flags, whose protection class is "
                + "the item's: leave kSecAttrAccessible out")
    }

    /// Apple's rules for protection and sync: an access control's class must agree with kSecAttrAccessible;
    /// a synchronizable item may not carry constraints (SecItem.m). A synchronizable ThisDeviceOnly item is
    /// stored, as iOS stores it, though Apple's header rules the combination out. `.privateKeyUsage` is for key
    /// items only.
    func protection(
        accessibility: Accessibility?, accessControl: AccessControlPolicy?, synchronizable: Bool, schema: ClassSchema
    ) throws -> Accessibility {
        if let accessibility, let accessControl, accessibility != accessControl.accessibility {
            throw KeychainError.param.because("kSecAttrAccessible conflicts with the access control's protection class")
        }
        let protection = accessControl?.accessibility ?? accessibility ?? schema.defaultProtection
        if synchronizable && accessControl?.hasConstraints == true {
            throw KeychainError.param.because("a synchronizable item cannot carry access-control constraints")
        }
        if let accessControl, accessControl.hasFlags {
            if accessControl.hasConstraints, protection == .always || protection == .alwaysThisDeviceOnly {
                throw KeychainError.param.because(
                    "the deprecated Always classes cannot carry access-control constraints (\(protection.rawValue))")
            }
            if accessControl.flags.contains(.privateKeyUsage), schema.valueKind != .key {
                throw KeychainError.param.because(
                    ".privateKeyUsage applies to key items (kSecClassKey), not to items of class "
                        + "\(schema.itemClass.rawValue); nothing was stored")
            }
        }
        if protection == .whenPasscodeSetThisDeviceOnly, try !dataProtection.hasPasscode {
            throw KeychainError.authFailed.because(
                "WhenPasscodeSetThisDeviceOnly needs a keychain passcode, and none is set")
        }
        return protection
    }

    /// A token's item (`tkid`: a Secure Enclave key, bound to this machine's enclave) is never synchronizable, on
    /// an add or by an update. `attributes` are the item's whole attributes, its sync flag included.
    func checkStaysOnDevice(_ attributes: [AttributeKey: AttributeValue]) throws {
        guard attributes[.tokenID] != nil, attributes[.synchronizable] == .bool(true) else { return }
        throw KeychainError.param.because(
            "a key of a token (kSecAttrTokenID) is bound to this device and cannot be synchronizable")
    }
}
