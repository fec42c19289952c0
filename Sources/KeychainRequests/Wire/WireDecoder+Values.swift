import Foundation
import KeychainCore

/// The engine's values read back from the typed encoding (``WireEncoder``'s order).
extension WireDecoder {
    mutating func attributeValue() throws -> AttributeValue {
        switch try byte() {
        case 0: return .string(try string())
        case 1: return .data(try bytes())
        case 2: return .number(Int64(bitPattern: try uint64()))
        case 3: return .bool(try bool())
        case 4:
            // The engine refuses such a date with this status anyway; refused here, no decoded request holds one
            // (Foundation traps formatting a NaN date).
            let date = Date(timeIntervalSinceReferenceDate: try double())
            guard AttributeValue.isValidDate(date) else {
                throw KeychainError.param.because(
                    "the message holds a date that is not between the years 0 and 9999 "
                        + "(\(date.timeIntervalSinceReferenceDate) seconds since 2001)")
            }
            return .date(date)
        case let tag: throw Self.invalid("an attribute value kind", tag)
        }
    }

    /// Attributes; a key named twice is refused (the dictionary would silently keep one).
    mutating func attributes() throws -> [AttributeKey: AttributeValue] {
        let count = try count(minimumSize: 5)
        var attributes: [AttributeKey: AttributeValue] = [:]
        attributes.reserveCapacity(min(count, Self.largestReservation))
        for _ in 0..<count {
            let key = AttributeKey(try string())
            guard attributes.updateValue(try attributeValue(), forKey: key) == nil else {
                throw KeychainError.decode.because("the message names the attribute \(key) twice")
            }
        }
        return attributes
    }

    mutating func accessControl() throws -> AccessControlPolicy {
        let accessibility = try accessibility()
        guard let flags = UInt(exactly: try uint64()) else { throw Self.damaged }
        return AccessControlPolicy(accessibility: accessibility, flags: AccessControlFlags(rawValue: flags))
    }

    mutating func itemValue() throws -> ItemValue {
        switch try byte() {
        case 0: return .secret(try secret())
        case 1: return .key(try keyValue())
        case 2: return .certificate(CertificateValue(derBytes: try bytes()))
        case 3:
            let certificate = CertificateValue(derBytes: try bytes())
            // An identity's key is read by the key's own reader, not by `itemValue()` again: a message nesting
            // identities in identities would otherwise recurse once per five bytes until the stack ran out.
            let kind = try byte()
            guard kind == 1 else { throw Self.invalid("an identity's key kind", kind) }
            let key = try keyValue()
            return .identity(
                IdentityValue(
                    certificate: certificate, key: key, certificateAttributes: try attributes(),
                    keyAttributes: try attributes()))
        case let tag: throw Self.invalid("an item value kind", tag)
        }
    }

    private mutating func keyValue() throws -> KeyValue {
        let keyType = try string()
        let keyClass = try string()
        let size = try int()
        return KeyValue(keyType: keyType, keyClass: keyClass, sizeInBits: size, externalRepresentation: try secret())
    }

    mutating func persistentReference() throws -> PersistentReference {
        guard let reference = PersistentReference(bytes: try bytes()) else {
            throw KeychainError.decode.because("the message carries a persistent reference of the wrong form")
        }
        return reference
    }

    mutating func query() throws -> ItemQuery {
        // Read into locals and built once: a default query filled in field by field made and dropped its empty
        // attributes first.
        let itemClass = try optional { try $0.itemClass() }
        let attributes = try attributes()
        let accessGroup = try optional { try $0.string() }
        let synchronizable: SynchronizableFilter
        switch try byte() {
        case 0: synchronizable = .no
        case 1: synchronizable = .yes
        case 2: synchronizable = .any
        case let tag: throw Self.invalid("a synchronizable filter", tag)
        }
        let accessibility = try optional { try $0.accessibility() }
        let limit: MatchLimit
        switch try byte() {
        case 0: limit = .one
        case 1: limit = .all
        case 2: limit = .count(try int())
        case let tag: throw Self.invalid("a match limit", tag)
        }
        let caseInsensitive = try bool()
        let returns = ReturnOptions(rawValue: try byte())
        let persistentReference = try optional { try $0.persistentReference() }
        let ui: AuthenticationUI
        switch try byte() {
        case 0: ui = .allow
        case 1: ui = .fail
        case 2: ui = .skip
        case let tag: throw Self.invalid("an authentication UI", tag)
        }
        var query = ItemQuery(
            itemClass: itemClass, attributes: attributes, accessGroup: accessGroup, synchronizable: synchronizable,
            accessibility: accessibility, limit: limit, caseInsensitive: caseInsensitive, returns: returns,
            persistentReference: persistentReference)
        query.authentication = ReadAuthentication(ui: ui, operationPrompt: try optional { try $0.string() })
        return query
    }

    mutating func newItem() throws -> NewItem {
        var item = NewItem(itemClass: try itemClass())
        item.attributes = try attributes()
        item.accessGroup = try optional { try $0.string() }
        item.synchronizable = try bool()
        item.accessibility = try optional { try $0.accessibility() }
        item.accessControl = try optional { try $0.accessControl() }
        item.value = try optional { try $0.itemValue() }
        item.returns = ReturnOptions(rawValue: try byte())
        return item
    }

    mutating func changes() throws -> ItemChanges {
        var changes = ItemChanges()
        changes.attributes = try attributes()
        changes.accessGroup = try optional { try $0.string() }
        changes.synchronizable = try optional { try $0.bool() }
        changes.accessibility = try optional { try $0.accessibility() }
        changes.accessControl = try optional { try $0.accessControl() }
        changes.value = try optional { try $0.itemValue() }
        return changes
    }

    mutating func itemResult() throws -> ItemResult {
        let itemClass = try itemClass()
        let value = try optional { try $0.itemValue() }
        let attributes = try optional { try $0.attributes() }
        let reference = try optional { try $0.persistentReference() }
        let accessControl = try optional { try $0.accessControl() }
        return ItemResult(
            itemClass: itemClass, value: value, attributes: attributes, persistentReference: reference,
            accessControl: accessControl)
    }

    mutating func policy() throws -> AuthenticationPolicy {
        switch try byte() {
        case 0: return .biometrics
        case 1: return .deviceOwner
        case 2: return .devicePasscode
        case 3: return .companion
        case 4: return .biometricsOrCompanion
        case let tag: throw Self.invalid("an authentication policy", tag)
        }
    }
}
