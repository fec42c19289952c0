import Foundation
import KeychainCore

/// The typed engine requests the SecItem functions send, decoded and checked from their dictionaries as the
/// functions do it. The functions use these; `security doctor` uses them too (the `package` entry point), so
/// its verdict on a dictionary is the functions' own.
package enum SecItemRequest {
    /// `SecItemAdd`'s item. - Throws: `KeychainError` as `SecItemAdd` reports it.
    package static func add(_ attributes: NSDictionary) throws -> NewItem {
        var notes: [KeychainError.Reason] = []
        return try add(attributes, notes: &notes).item
    }

    /// `SecItemAdd`'s item and the id of its `kSecUseAuthenticationContext`, with what `KEYCHAIN_DEBUG` should
    /// say about it added to `notes`.
    package static func add(_ attributes: NSDictionary, notes: inout [KeychainError.Reason]) throws
        -> (item: NewItem, context: AuthenticationContextID?)
    {
        let function = SecItemFunction.add
        let input = try SecDictionary(decoding: attributes)
        if input.holds(.search) {
            throw function.misplaced(.search, keys: input.keysByGroup[.search] ?? [])
        }
        if input.persistentReference != nil {
            throw function.refused("v_PersistentRef", because: "an add cannot name an existing item")
        }
        if input.synchronizable == .any {
            // iOS's server skips the value, so the item is added as not synchronizable: SAMKeychain and its ports
            // add with the dictionary they query with, which holds it by default.
            notes.append(
                KeychainError.Reason(
                    "kSecAttrSynchronizableAny in an add is ignored, as by the iOS keychain: the item is not "
                        + "synchronizable"))
        }
        guard let itemClass = input.itemClass else { throw function.refused("class", because: "kSecClass is missing") }
        if input.authenticationUI == .skip {
            throw function.refused("u_AuthUI", because: "kSecUseAuthenticationUISkip is for SecItemCopyMatching only")
        }
        noteSynchronizableThisDeviceOnly(
            synchronizable: input.synchronizable == .yes,
            protection: input.accessControl?.accessibility ?? input.accessibility, into: &notes)
        var item = NewItem(
            itemClass: itemClass, attributes: input.attributes, accessGroup: input.accessGroup,
            synchronizable: input.synchronizable == .yes, accessibility: input.accessibility,
            accessControl: input.accessControl, data: input.data, returns: input.engineReturns)
        if let key = input.valueReference {
            item.value = .key(try key.itemValue())
            // The key's own attributes fill in what the caller did not give, as Apple's SecItemAdd merges them.
            item.attributes.merge(key.itemAttributes) { given, _ in given }
        } else if let key = input.keyValueAsGiven() {
            item.value = .key(key)
            // Apple's default for an effective size not given is 0, not the size in bits a key reference reports.
            if item.attributes[.effectiveKeySize] == nil { item.attributes[.effectiveKeySize] = .number(0) }
        }
        if let certificate = try input.certificateToAdd() {
            item.value = .certificate(CertificateValue(derBytes: [UInt8](certificate.x509.der)))
            // What the DER says wins; only the label and alias may be the caller's own.
            try item.attributes.merge(certificate.itemAttributeValues()) { _, derived in derived }
            for name in [AttributeKey.label, .alias] where input.attributes[name] != nil {
                item.attributes[name] = input.attributes[name]
            }
        }
        if let identity = input.identityReference {
            // Each half's own attributes travel with it; the engine adds both (Classes/Identity.swift).
            item.value = .identity(try identity.itemValue())
        }
        return (item, input.authenticationContext)
    }

    /// `SecItemCopyMatching`'s query (its limit defaults to one). - Throws: `KeychainError`.
    /// The dry runs (`security doctor`) use it, and the engine cannot apply the certificate search keys: a query
    /// with one is errSecUnimplemented here rather than a verdict on other items.
    package static func copyMatching(_ query: NSDictionary) throws -> ItemQuery {
        var notes: [KeychainError.Reason] = []
        let request = try copyMatching(query, notes: &notes)
        if let key = request.certificateMatch.keys.sorted().first {
            throw KeychainError.unimplemented.because(
                "a dry run does not apply \(key) and the other certificate search keys; SecItemCopyMatching does")
        }
        return request.query
    }

    /// `SecItemCopyMatching`'s query and the id of its `kSecUseAuthenticationContext`, with what
    /// `KEYCHAIN_DEBUG` should say about it added to `notes`, its certificate search keys, which the face
    /// applies to what the engine finds (`CertificateMatchSearch`), and whether it names an identity by
    /// `kSecValueRef` (``identityReferenceAnswers(_:)``).
    static func copyMatching(_ query: NSDictionary, notes: inout [KeychainError.Reason]) throws
        -> (
            query: ItemQuery, context: AuthenticationContextID?, certificateMatch: CertificateMatch,
            byIdentityReference: Bool
        )
    {
        let input = try SecDictionary(decoding: query)
        try input.refuseAttributesBesidePersistentReference(in: .copyMatching)
        input.noteIgnoredKeys(&notes)
        return (
            input.query(limit: input.limit ?? .one), input.authenticationContext, input.certificateMatch,
            input.identityReference != nil
        )
    }

    /// Whether a query by an identity's `kSecValueRef` hands back its result. Apple's client runs such a query as
    /// one for the certificate and one for the key (both must be found) and answers only when the certificate's
    /// result is a single persistent reference, which it turns into the identity's; any other result is dropped
    /// and the call still succeeds.
    static func identityReferenceAnswers(_ query: ItemQuery) -> Bool {
        query.returns == [.persistentReference] && query.limit == .one
    }

    /// `SecItemUpdate`'s query and changes (the query's limit defaults to all). - Throws: `KeychainError`.
    package static func update(_ query: NSDictionary, _ attributesToUpdate: NSDictionary) throws
        -> (query: ItemQuery, changes: ItemChanges)
    {
        var notes: [KeychainError.Reason] = []
        let request = try update(query, attributesToUpdate, notes: &notes)
        return (request.query, request.changes)
    }

    /// `SecItemUpdate`'s query and changes, with what `KEYCHAIN_DEBUG` should say about them added to `notes`.
    package static func update(
        _ query: NSDictionary, _ attributesToUpdate: NSDictionary, notes: inout [KeychainError.Reason]
    ) throws -> (query: ItemQuery, changes: ItemChanges, context: AuthenticationContextID?) {
        let input = try SecDictionary(decoding: query)
        if input.holds(.returnType) {
            throw SecItemFunction.updateQuery.misplaced(.returnType, keys: input.keysByGroup[.returnType] ?? [])
        }
        try input.refuseCertificateMatch(in: .updateQuery)
        try input.refuseSearchKeys(in: .updateQuery)
        try input.refuseAttributesBesidePersistentReference(in: .updateQuery)
        input.noteIgnoredKeys(&notes)
        if attributesToUpdate.object(forKey: "class") != nil {
            throw SecItemFunction.updateAttributes.misplaced(
                .itemClass, keys: ["class"], detail: "an update cannot change an item's class")
        }
        // The changes are read against the item's class, which a persistent reference may be alone in naming.
        let itemClass = input.itemClass ?? input.persistentReference?.itemClass
        let changes = try SecDictionary(decoding: attributesToUpdate, itemClass: itemClass)
        let function = SecItemFunction.updateAttributes
        for group in [PropertyGroup.search, .returnType] where changes.holds(group) {
            throw function.misplaced(group, keys: changes.keysByGroup[group] ?? [])
        }
        // Apple's client takes the kSecUse… keys from the query only; securityd's update parser reads the ones left
        // in attributesToUpdate as attributes it does not know, all but kSecUseDataProtectionKeychain.
        let useKeys = (changes.keysByGroup[.use] ?? []).filter { $0 != "nleg" }
        if !useKeys.isEmpty { throw function.misplaced(.use, keys: useKeys) }
        if changes.persistentReference != nil {
            throw function.misplaced(.value, keys: ["v_PersistentRef"], detail: "of the values, only kSecValueData")
        }
        if changes.valueReference != nil || changes.certificateReference != nil || changes.identityReference != nil {
            // Apple's client expands a reference into its item's attributes, kSecClass among them (SecItem.m,
            // SecItemAttributesPrepare), and securityd refuses a class in an update: errSecNoSuchAttr.
            throw function.misplaced(
                .value, keys: ["v_Ref"],
                detail: "a kSecValueRef stands for its item's attributes, kSecClass among them, which an update "
                    + "cannot change")
        }
        if changes.synchronizable == .any {
            // Skipped by iOS's server as in an add: the items keep what they are.
            notes.append(
                KeychainError.Reason(
                    "kSecAttrSynchronizableAny in attributesToUpdate is ignored, as by the iOS keychain: each item "
                        + "stays synchronizable or not"))
        }
        let newSynchronizable = changes.synchronizable == .any ? nil : changes.synchronizable.map { $0 == .yes }
        noteSynchronizableThisDeviceOnly(
            synchronizable: newSynchronizable ?? (input.synchronizable == .yes),
            protection: changes.accessControl?.accessibility ?? changes.accessibility ?? input.accessibility,
            into: &notes)
        let itemChanges = ItemChanges(
            attributes: changes.attributes, accessGroup: changes.accessGroup,
            synchronizable: newSynchronizable, accessibility: changes.accessibility,
            accessControl: changes.accessControl, data: changes.data)
        return (input.query(limit: input.limit ?? .all), itemChanges, input.authenticationContext)
    }

    /// `SecItemDelete`'s query: a delete has no limit; return types and kSecValueData are ignored.
    /// - Throws: `KeychainError`.
    package static func delete(_ query: NSDictionary) throws -> ItemQuery {
        var notes: [KeychainError.Reason] = []
        return try delete(query, notes: &notes)
    }

    /// `SecItemDelete`'s query, with what `KEYCHAIN_DEBUG` should say about it added to `notes`.
    package static func delete(_ query: NSDictionary, notes: inout [KeychainError.Reason]) throws -> ItemQuery {
        let input = try SecDictionary(decoding: query)
        try input.refuseCertificateMatch(in: .delete)
        try input.refuseSearchKeys(in: .delete)
        try input.refuseAttributesBesidePersistentReference(in: .delete)
        input.noteIgnoredKeys(&notes)
        var itemQuery = input.query(limit: input.limit ?? .all)
        itemQuery.returns = []
        return itemQuery
    }
}

extension SecDictionary {
    /// Apple's keychain applies the certificate search keys only when it copies items: a delete or an update
    /// that carries one fails with errSecItemMatchUnsupported (which is errSecParam), and changes nothing.
    func refuseCertificateMatch(in function: SecItemFunction) throws {
        guard let key = certificateMatch.keys.sorted().first else { return }
        throw function.refused(
            key, because: "the certificate search keys filter only what SecItemCopyMatching returns")
    }
}

extension SecDictionary {
    /// iOS's server refuses every search key in a delete or an update's query (errSecItemMatchUnsupported, which
    /// is errSecParam), `kSecMatchLimitAll` included; a case-insensitive delete would remove items iOS keeps.
    /// A query that names its item by persistent reference names it by nothing else: iOS answers errSecParam when
    /// attributes stand beside the reference (the access group, a protection class and a synchronizable flag
    /// count; `kSecAttrSynchronizableAny`, which a reference query implies, does not).
    func refuseAttributesBesidePersistentReference(in function: SecItemFunction) throws {
        guard persistentReference != nil else { return }
        var named = attributes.keys.map(\.rawValue)
        if accessGroup != nil { named.append("agrp") }
        if accessibility != nil { named.append("pdmn") }
        if let synchronizable, synchronizable != .any { named.append("sync") }
        guard let first = named.sorted().first else { return }
        throw function.refused(
            first, because: "iOS refuses attributes beside kSecValuePersistentRef, which names the item alone")
    }

    /// `kSecMatchLimit` alone is left to the engine: it takes `kSecMatchLimitAll` as the macOS keychain does
    /// (wrappers compiled for anything but iOS send it), and refuses a limit of one or a number.
    func refuseSearchKeys(in function: SecItemFunction) throws {
        guard let key = (keysByGroup[.search] ?? []).filter({ $0 != "m_Limit" }).sorted().first else { return }
        throw function.refused(
            key, because: "iOS refuses every search key but kSecMatchLimit here, and changes nothing")
    }
}

extension SecDictionary {
    /// A key added as `kSecValueData` (no `kSecValueRef`), stored as the bytes given: iOS derives nothing from
    /// them (it asks only a reference's key for its attributes), so the item is what its attributes say, with
    /// Apple's default of 0 for a class, type or size left out. Any bytes are accepted (an app's 64 random bytes
    /// for a database key); `kSecReturnRef` makes a `SecKey` of them only when the class and type name a key that
    /// the bytes are.
    func keyValueAsGiven() -> KeyValue? {
        guard itemClass == .key, valueReference == nil, let data else { return nil }
        func number(_ attribute: AttributeKey) -> Int64 {
            guard case .number(let value)? = attributes[attribute] else { return 0 }
            return value
        }
        return KeyValue(
            keyType: String(number(.keyType)), keyClass: String(number(.keyClass)),
            sizeInBits: Int(clamping: number(.keySizeInBits)), externalRepresentation: Secret(data))
    }
}

extension SecDictionary {
    /// The certificate an add stores: its `kSecValueRef`, or for `kSecClassCertificate` a `kSecValueData` read
    /// as DER. - Throws: errSecParam for data that is not one DER certificate.
    func certificateToAdd() throws -> SecCertificate? {
        if let certificateReference { return certificateReference }
        guard itemClass == .certificate, let data else { return nil }
        guard let certificate = SecCertificateCreateWithData(nil, Data(data) as NSData) else {
            throw KeychainError.param.because("kSecValueData is not one DER-encoded X.509 certificate")
        }
        return certificate
    }
}

/// iOS stores a synchronizable item with a ThisDeviceOnly class (sync = 1, pdmn aku, …) although Apple's header
/// says the two may not be combined: code that relies on it is warned.
private func noteSynchronizableThisDeviceOnly(
    synchronizable: Bool, protection: Accessibility?, into notes: inout [KeychainError.Reason]
) {
    guard synchronizable, let protection, protection.isThisDeviceOnly else { return }
    notes.append(
        KeychainError.Reason(
            "kSecAttrSynchronizable with the ThisDeviceOnly (\(protection.rawValue)) class: stored as iOS stores it, but "
                + "Apple's documentation rules the combination out, and the item never leaves this machine"))
}

extension SecDictionary {
    /// Apple's query parser keeps a query's kSecValueData (it must be data) and only an add reads it: apps update
    /// with the old password in the query, or reuse their add dictionary as the query.
    /// Also names the search keys iOS takes and never applies.
    func noteIgnoredKeys(_ notes: inout [KeychainError.Reason]) {
        if data != nil {
            notes.append(
                KeychainError.Reason(
                    "kSecValueData in the query is ignored: a query never matches on an item's data"))
        }
        for key in ignoredKeys.sorted() {
            notes.append(KeychainError.Reason("\(key) is ignored, as by the iOS keychain: strings match exactly"))
        }
    }
}
