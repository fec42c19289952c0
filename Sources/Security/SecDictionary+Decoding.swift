import Foundation
import KeychainCore

extension SecDictionary {
    /// Reads a SecItem dictionary as clients send it (Swift or NS values through `NSDictionary`).
    /// - Parameters:
    ///   - dictionary: the caller's dictionary.
    ///   - itemClass: the class, when it comes from elsewhere (an update's attributes take the query's).
    /// - Throws: `errSecParam` for a value of the wrong type or a key of macOS file keychains,
    ///   `errSecNoSuchClass` for an unknown class.
    init(decoding dictionary: NSDictionary, itemClass known: ItemClass? = nil) throws {
        // Keys and values side by side, the keys as strings: no array of pairs is built and copied.
        let (rawKeys, values) = Self.keysAndValues(of: dictionary)
        guard rawKeys.count <= Self.mostKeys else {
            throw KeychainError.param.because(
                "the dictionary has \(rawKeys.count) keys; the keychain reads at most \(Self.mostKeys)")
        }
        var keys: [String] = []
        keys.reserveCapacity(rawKeys.count)
        for rawKey in rawKeys {
            guard let key = Self.string(rawKey) else {
                throw KeychainError.param.because("a dictionary key is not a string")
            }
            keys.append(key)
        }
        func value(of key: String) -> Any? { keys.firstIndex(of: key).map { values[$0] } }
        itemClass = known
        if let rawClass = value(of: "class") {
            guard let name = Self.string(rawClass) else {
                throw KeychainError.param.because("kSecClass is not a string")
            }
            guard let itemClass = ItemClass(rawValue: name) else {
                throw KeychainError(SecurityStatus.noSuchClass, reason: "\"\(name)\" is not a keychain item class")
            }
            self.itemClass = itemClass
        }
        // Without kSecClass, a reference object names its class, as in Apple's SecItemAdd.
        if itemClass == nil, let reference = value(of: "v_Ref") {
            if reference is SecKey { itemClass = .key }
            if reference is SecCertificate { itemClass = .certificate }
            if reference is SecIdentity { itemClass = .identity }
        }
        // Without kSecClass, a persistent reference names the class, and the other keys are read against it (as
        // Apple's query parser does). A mismatch with kSecClass is the engine's to report.
        let schemaClass = itemClass ?? value(of: "v_PersistentRef").flatMap(Self.referencedClass)
        let schema = schemaClass.flatMap(ClassSchema.of)
        keyGroups.reserveCapacity(keys.count)
        for (key, value) in zip(keys, values) {
            let property = PropertyKey.of(key)
            keyGroups.append((key, property.group))
            try read(property, key: key, value: value, schema: schema)
        }
    }

    /// The class a `kSecValuePersistentRef` value names, if it is a valid reference.
    private static func referencedClass(_ value: Any) -> ItemClass? {
        bytes(value).flatMap(PersistentReference.init(bytes:))?.itemClass
    }

    /// The most keys one dictionary may hold, as securityd's query parser allows (`QUERY_KEY_LIMIT`).
    static let mostKeys = 128

    /// The keys and the values of `dictionary`, in matching order. Foundation on Linux iterates an NSDictionary by
    /// looking every key up again, hashing the NSString each time; for its own two classes the keys and values
    /// come from one Swift dictionary in matching order, so they are read side by side instead.
    private static func keysAndValues(of dictionary: NSDictionary) -> (keys: [Any], values: [Any]) {
        let kind = type(of: dictionary)
        if kind == NSDictionary.self || kind == NSMutableDictionary.self {
            let keys = dictionary.allKeys
            let values = dictionary.allValues
            if keys.count == values.count { return (keys, values) }
        }
        var keys: [Any] = []
        var values: [Any] = []
        for (key, value) in dictionary {
            keys.append(key)
            values.append(value)
        }
        return (keys, values)
    }

    /// A string key or value as clients pass it: a Swift String or an NSString. An NSDictionary holds NSStrings;
    /// a class cast and a direct bridge cost a fraction of the runtime's `as? String`, which tries every bridging.
    static func string(_ value: Any) -> String? {
        if let text = value as? NSString { return text as String }
        if let text = value as? String { return text }
        return nil
    }

    /// The bytes of a data value (CFData), copied once from the object: Foundation on Linux makes `Data` of an
    /// NSData one byte at a time, through Core Foundation for each.
    static func bytes(_ value: Any) -> [UInt8]? {
        if let data = value as? NSData {
            let count = data.length
            guard count > 0 else { return [] }
            let source = UnsafeRawBufferPointer(start: data.bytes, count: count)
            return [UInt8](source)
        }
        if let data = value as? Data { return Array(data) }
        return nil
    }

    private mutating func read(_ property: PropertyKey, key: String, value: Any, schema: ClassSchema?) throws {
        switch property {
        case .itemClass: break
        case .accessGroup:
            guard let group = Self.string(value) else { throw Self.wrongType(key) }
            accessGroup = group
        case .synchronizable:
            if let text = Self.string(value) {
                if text == "syna" {
                    synchronizable = .any
                } else if let number = Self.decimalNumber(text) {
                    // securityd reads sync with copyNumber: "1" and "0" are the numbers.
                    synchronizable = number != 0 ? .yes : .no
                } else {
                    throw KeychainError.param.because(
                        "kSecAttrSynchronizable is the string \"\(text)\": iOS stores such a string as a third value "
                            + "of the flag, which only a query with the same string finds")
                }
            } else {
                synchronizable = try Self.boolean(value, key) ? .yes : .no
            }
        case .accessible:
            guard let raw = Self.string(value), let protection = Accessibility(rawValue: raw) else {
                throw KeychainError.param.because("kSecAttrAccessible is not one of the kSecAttrAccessible… values")
            }
            accessibility = protection
        case .accessControl:
            guard let control = value as? SecAccessControl else { throw Self.wrongType(key) }
            accessControl = control.policy
        case .attribute(let attribute):
            // Only four-character keys name attributes: securityd answers any other key it does not know with
            // errSecItemInvalidKey, which is errSecParam (a key name such as "kSecAttrService" given as text).
            guard key.utf16.count == 4 else {
                throw KeychainError.param.because("\(key) is not a key the keychain knows")
            }
            guard let kind = schema?.attributes[attribute] else {
                // Left to the engine, which knows whether the class is stored and answers precisely.
                attributes[attribute] = .string("")
                return
            }
            attributes[attribute] = try Self.attributeValue(value, kind: kind, key: key)
        case .matchLimit:
            limit = try Self.matchLimit(value)
        case .caseInsensitive:
            caseInsensitive = try Self.boolean(value, key)
        case .returnType(let option):
            if try Self.boolean(value, key) { returns.insert(option) }
        case .valueData:
            guard let bytes = Self.bytes(value) else {
                throw KeychainError.param.because("kSecValueData must be data (CFData), not \(type(of: value))")
            }
            data = bytes
        case .valueRef:
            if let certificate = value as? SecCertificate {
                certificateReference = certificate
                return
            }
            if let identity = value as? SecIdentity {
                identityReference = identity
                return
            }
            guard let key = value as? SecKey else {
                throw KeychainError.param.because(
                    "kSecValueRef must be a SecKey, a SecCertificate or a SecIdentity, not \(type(of: value))")
            }
            valueReference = key
        case .valuePersistentRef:
            guard let bytes = Self.bytes(value), let reference = PersistentReference(bytes: bytes) else {
                throw KeychainError.param.because("kSecValuePersistentRef is not a persistent reference")
            }
            persistentReference = reference
        case .authenticationUI:
            switch Self.string(value) {
            case "u_AuthUIA": authenticationUI = .allow
            case "u_AuthUIF": authenticationUI = .fail
            case "u_AuthUIS": authenticationUI = .skip
            default: throw Self.wrongType(key)
            }
        case .noAuthenticationUI:
            // As Apple's client: true stands for kSecUseAuthenticationUIFail where kSecUseAuthenticationUI is
            // absent; false for nothing.
            noAuthenticationUI = try Self.boolean(value, key)
        case .authenticationContext:
            guard let carrier = value as? AuthenticationContextCarrier else {
                throw KeychainError.param.because("kSecUseAuthenticationContext must be an LAContext")
            }
            authenticationContext = carrier.authenticationContextID
        case .operationPrompt:
            guard let prompt = value as? String else { throw Self.wrongType(key) }
            operationPrompt = prompt
        case .accepted: break
        case .ignoredSearch:
            _ = try Self.boolean(value, key)
            ignoredKeys.append(key)
        case .certificateMatch:
            try certificateMatch.read(key, value: value)
        case .fileKeychain:
            throw KeychainError.param.because(
                "\(key) names macOS file keychains or their items; this keychain has none, as on iOS")
        }
    }

    private static func wrongType(_ key: String) -> KeychainError {
        KeychainError.param.because("\(key) has a value of the wrong type")
    }

    static func boolean(_ value: Any, _ key: String) throws -> Bool {
        // An NSNumber first: a class cast, where `as? Bool` goes through the runtime's bridging; the answer is the
        // same, as a number that is exactly a Bool is 0 or 1.
        if let number = value as? NSNumber { return number.boolValue }
        if let flag = value as? Bool { return flag }
        throw wrongType(key)
    }

    private static func matchLimit(_ value: Any) throws -> MatchLimit {
        if let text = string(value) {
            switch text {
            case "m_LimitOne": return .one
            case "m_LimitAll": return .all
            default: throw KeychainError.param.because("kSecMatchLimit must be One, All or a number")
            }
        }
        // securityd takes a CFNumber here, not a CFBoolean.
        guard let number = value as? NSNumber ?? (value as? Int).map(NSNumber.init(value:)), !number.isBoolean else {
            throw KeychainError.param.because("kSecMatchLimit must be One, All or a number")
        }
        let count = number.intValue
        // securityd keeps the number as a CFIndex: -1 is its kSecMatchUnlimited; any other negative count ends its
        // row loop at the first row (`found >= limit`), whose match comes back in an array.
        if count == -1 { return .all }
        if count < 0 { return .count(1) }
        return count == 1 ? .one : .count(count)
    }

    /// The number a string stands for as securityd's `copyNumber` reads it (`SecDbItem.c`): only when it prints
    /// back as the same 32-bit integer ("7", "-7"; not "+7", "07", " 7" or "7.0").
    static func decimalNumber(_ text: String) -> Int32? {
        guard let number = Int32(text), String(number) == text else { return nil }
        return number
    }

    /// securityd's data attributes (`copyData` in `SecDbItem.c`), unlike its blobs (`gena`, text attributes), which
    /// keep the type they were given.
    private static let convertedToData: Set<String> = ["klbl", "subj", "slnr", "skid", "pkhh"]

    static func attributeValue(_ value: Any, kind: AttributeKind, key: String) throws -> AttributeValue {
        if key == "issr" {
            // Apple's client casts the issuer to data to normalize it before securityd sees it.
            guard let bytes = bytes(value) else {
                throw KeychainError.param.because("kSecAttrIssuer must be data (CFData), not \(type(of: value))")
            }
            return .data(issuerAsSent(bytes))
        }
        if convertedToData.contains(key) {
            if let bytes = bytes(value) { return .data(bytes) }
            // A string is its UTF-8 bytes; a whole number its 32-bit value's bytes, little-endian as on Apple's
            // devices (securityd truncates a wider one).
            if let text = string(value) { return .data(Array(text.utf8)) }
            let number = value as? NSNumber ?? (value as? Int).map(NSNumber.init(value:))
            if let number, !number.isBoolean, Double(number.int64Value) == number.doubleValue {
                return .data(withUnsafeBytes(of: Int32(truncatingIfNeeded: number.int64Value).littleEndian, Array.init))
            }
            throw wrongType(key)
        }
        switch kind {
        case .text, .data:
            if let text = string(value) { return .string(text) }
            if let bytes = bytes(value) { return .data(bytes) }
            // securityd keeps a number given for a blob attribute (an account that is a user id) as that number;
            // it refuses a Boolean. A fraction, which it would keep too, is refused here: no value of ours holds one.
            let number = value as? NSNumber ?? (value as? Int).map(NSNumber.init(value:))
            if let number, !number.isBoolean, Double(number.int64Value) == number.doubleValue {
                return .number(number.int64Value)
            }
        case .number:
            // As securityd reads a number attribute: a number (0 and 1 bridge to Bool on Linux) or a Boolean as
            // 0 or 1; a decimal string as its number, and any other string (iOS takes kSecAttrPort: "") as given.
            if let text = string(value) {
                if let number = decimalNumber(text) { return .number(Int64(number)) }
                return .string(text)
            }
            if let number = value as? NSNumber { return .number(number.int64Value) }
            if let number = value as? Int { return .number(Int64(number)) }
            if let flag = value as? Bool { return .number(flag ? 1 : 0) }
        case .boolean:
            // securityd's flags (invi, nega, a key's perm, sign, …) are number attributes: a string is read as for
            // any number attribute, a decimal one as the flag it stands for.
            if let text = string(value) {
                if let number = decimalNumber(text) { return .bool(number != 0) }
                return .string(text)
            }
            return .bool(try boolean(value, key))
        case .date:
            if let date = value as? Date { return .date(date) }
        }
        throw wrongType(key)
    }
}
