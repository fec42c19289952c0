import KeychainCore

/// The engine's values in the typed encoding; ``WireDecoder`` reads them back in the same order.
extension WireEncoder {
    mutating func attributeValue(_ value: AttributeValue) {
        switch value {
        case .string(let text):
            byte(0)
            string(text)
        case .data(let bytes):
            byte(1)
            self.bytes(bytes)
        case .number(let number):
            byte(2)
            uint64(UInt64(bitPattern: number))
        case .bool(let flag):
            byte(3)
            bool(flag)
        case .date(let date):
            byte(4)
            double(date.timeIntervalSinceReferenceDate)
        }
    }

    /// Attributes in key order, so one dictionary always encodes to the same bytes.
    mutating func attributes(_ attributes: [AttributeKey: AttributeValue]) {
        array(attributes.sorted { $0.key < $1.key }) { encoder, pair in
            encoder.string(pair.key.rawValue)
            encoder.attributeValue(pair.value)
        }
    }

    mutating func accessControl(_ policy: AccessControlPolicy) {
        string(policy.accessibility.rawValue)
        uint64(UInt64(policy.flags.rawValue))
    }

    mutating func itemValue(_ value: ItemValue) {
        switch value {
        case .secret(let secret):
            byte(0)
            self.secret(secret)
        case .key(let key):
            byte(1)
            string(key.keyType)
            string(key.keyClass)
            int(key.sizeInBits)
            secret(key.externalRepresentation)
        case .certificate(let certificate):
            byte(2)
            bytes(certificate.derBytes)
        case .identity(let identity):
            byte(3)
            bytes(identity.certificate.derBytes)
            itemValue(.key(identity.key))
            attributes(identity.certificateAttributes)
            attributes(identity.keyAttributes)
        }
    }

    mutating func persistentReference(_ reference: PersistentReference) { bytes(reference.bytes) }

    mutating func query(_ query: ItemQuery) {
        optional(query.itemClass) { $0.string($1.rawValue) }
        attributes(query.attributes)
        optional(query.accessGroup) { $0.string($1) }
        switch query.synchronizable {
        case .no: byte(0)
        case .yes: byte(1)
        case .any: byte(2)
        }
        optional(query.accessibility) { $0.string($1.rawValue) }
        switch query.limit {
        case .one: byte(0)
        case .all: byte(1)
        case .count(let count):
            byte(2)
            int(count)
        }
        bool(query.caseInsensitive)
        byte(query.returns.rawValue)
        optional(query.persistentReference) { $0.persistentReference($1) }
        switch query.authentication.ui {
        case .allow: byte(0)
        case .fail: byte(1)
        case .skip: byte(2)
        }
        optional(query.authentication.operationPrompt) { $0.string($1) }
    }

    mutating func newItem(_ item: NewItem) {
        string(item.itemClass.rawValue)
        attributes(item.attributes)
        optional(item.accessGroup) { $0.string($1) }
        bool(item.synchronizable)
        optional(item.accessibility) { $0.string($1.rawValue) }
        optional(item.accessControl) { $0.accessControl($1) }
        optional(item.value) { $0.itemValue($1) }
        byte(item.returns.rawValue)
    }

    mutating func changes(_ changes: ItemChanges) {
        attributes(changes.attributes)
        optional(changes.accessGroup) { $0.string($1) }
        optional(changes.synchronizable) { $0.bool($1) }
        optional(changes.accessibility) { $0.string($1.rawValue) }
        optional(changes.accessControl) { $0.accessControl($1) }
        optional(changes.value) { $0.itemValue($1) }
    }

    mutating func itemResult(_ result: ItemResult) {
        string(result.itemClass.rawValue)
        optional(result.value) { $0.itemValue($1) }
        optional(result.attributes) { $0.attributes($1) }
        optional(result.persistentReference) { $0.persistentReference($1) }
        optional(result.accessControl) { $0.accessControl($1) }
    }

    mutating func policy(_ policy: AuthenticationPolicy) {
        switch policy {
        case .biometrics: byte(0)
        case .deviceOwner: byte(1)
        case .devicePasscode: byte(2)
        case .companion: byte(3)
        case .biometricsOrCompanion: byte(4)
        }
    }
}
