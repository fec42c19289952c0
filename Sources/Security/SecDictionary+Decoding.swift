import Foundation
import KeychainCore

extension SecDictionary {
    /// Reads a SecItem dictionary as clients send it (Swift or NS values through `NSDictionary`).
    /// - Parameters:
    ///   - dictionary: the caller's dictionary.
    ///   - itemClass: the class, when it comes from elsewhere (an update's attributes take the query's).
    /// - Throws: `errSecParam` for a value of the wrong type, `errSecNoSuchClass` for an unknown class,
    ///   `errSecUnimplemented` for a key this implementation declares but does not support yet.
    init(decoding dictionary: NSDictionary, itemClass known: ItemClass? = nil) throws {
        if let rawClass = dictionary.object(forKey: "class") {
            guard let name = rawClass as? String else { throw KeychainError.param.because("kSecClass is not a string") }
            guard let itemClass = ItemClass(rawValue: name) else {
                throw KeychainError(SecurityStatus.noSuchClass, reason: "\"\(name)\" is not a keychain item class")
            }
            self.itemClass = itemClass
        } else {
            itemClass = known
        }
        let schema = itemClass.flatMap(ClassSchema.of)
        for (rawKey, value) in dictionary {
            guard let key = rawKey as? String else { throw KeychainError.param.because("a dictionary key is not a string") }
            let property = PropertyKey.of(key)
            groups.insert(property.group)
            try read(property, key: key, value: value, schema: schema)
        }
    }

    private mutating func read(_ property: PropertyKey, key: String, value: Any, schema: ClassSchema?) throws {
        switch property {
        case .itemClass: break
        case .accessGroup:
            guard let group = value as? String else { throw Self.wrongType(key) }
            accessGroup = group
        case .synchronizable:
            if let text = value as? String, text == "syna" {
                synchronizable = .any
            } else {
                synchronizable = try Self.boolean(value, key) ? .yes : .no
            }
        case .accessible:
            guard let raw = value as? String, let protection = Accessibility(rawValue: raw) else {
                throw KeychainError.param.because("kSecAttrAccessible is not one of the kSecAttrAccessible… values")
            }
            accessibility = protection
        case .accessControl:
            guard let control = value as? SecAccessControl else { throw Self.wrongType(key) }
            accessControl = control.policy
        case .attribute(let attribute):
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
            guard let bytes = value as? Data else {
                throw KeychainError.param.because("kSecValueData must be data (CFData), not \(type(of: value))")
            }
            data = Array(bytes)
        case .valuePersistentRef:
            guard let bytes = value as? Data, let reference = PersistentReference(bytes: Array(bytes)) else {
                throw KeychainError.param.because("kSecValuePersistentRef is not a persistent reference")
            }
            persistentReference = reference
        case .authenticationUI:
            guard let raw = value as? String, ["u_AuthUIA", "u_AuthUIF", "u_AuthUIS"].contains(raw) else {
                throw Self.wrongType(key)
            }
        case .accepted: break
        case .unimplemented:
            throw KeychainError.unimplemented.because("\(key) is not supported yet")
        }
    }

    private static func wrongType(_ key: String) -> KeychainError {
        KeychainError.param.because("\(key) has a value of the wrong type")
    }

    static func boolean(_ value: Any, _ key: String) throws -> Bool {
        if let flag = value as? Bool { return flag }
        if let number = value as? NSNumber { return number.boolValue }
        throw wrongType(key)
    }

    private static func matchLimit(_ value: Any) throws -> MatchLimit {
        if let text = value as? String {
            switch text {
            case "m_LimitOne": return .one
            case "m_LimitAll": return .all
            default: throw KeychainError.param.because("kSecMatchLimit must be One, All or a number")
            }
        }
        guard let number = value as? NSNumber ?? (value as? Int).map(NSNumber.init(value:)) else {
            throw KeychainError.param.because("kSecMatchLimit must be One, All or a number")
        }
        let count = number.intValue
        guard count >= 0 else { throw KeychainError.param.because("kSecMatchLimit is negative") }
        return count == 1 ? .one : .count(count)
    }

    static func attributeValue(_ value: Any, kind: AttributeKind, key: String) throws -> AttributeValue {
        switch kind {
        case .text, .data:
            if let bytes = value as? Data { return .data(Array(bytes)) }
            if let text = value as? String { return .string(text) }
        case .number:
            if value is Bool { break }
            if let number = value as? NSNumber { return .number(number.int64Value) }
            if let number = value as? Int { return .number(Int64(number)) }
        case .boolean:
            return .bool(try boolean(value, key))
        case .date:
            if let date = value as? Date { return .date(date) }
        }
        throw wrongType(key)
    }
}
