/// Everything an item class is, in one place: its attributes and their kinds, its primary key, what its value
/// is, whether its items may leave the device in a backup, and the class a not-found explanation points to.
/// A class of constants: every operation hands its schema along several calls, and a reference is one count where
/// a struct of collections is one per field.
package final class ClassSchema: Sendable {
    /// What an item of a class holds as its value.
    package enum ValueKind: Sendable {
        /// Secret bytes (`kSecValueData`): the password classes.
        case secret
        /// A key (`SecKey`), stored as its external representation, sealed like a password.
        case key
        /// A certificate (`SecCertificate`), stored as its DER bytes.
        case certificate
        /// A certificate and its private key (`SecIdentity`): a joined class's value, never stored as one.
        case identity
    }

    /// A class whose items a caller may have meant instead, and how its attributes correspond.
    package struct RelatedClass: Sendable {
        package let itemClass: ItemClass
        /// Attributes of this class named differently there (a generic password's service is a server).
        package let renames: [AttributeKey: AttributeKey]
    }

    package let itemClass: ItemClass
    /// The protection class of an item added without one: Apple's server gives a certificate `Always` (it is
    /// public, and trust evaluation reads it while the device is locked) and every other item `WhenUnlocked`.
    package var defaultProtection: Accessibility { itemClass == .certificate ? .always : .default }
    /// The attributes a caller may set or match, with their kinds (agrp, sync and pdmn are handled apart).
    package let attributes: [AttributeKey: AttributeKind]
    /// The attributes that, with the access group and synchronizable, identify an item.
    package let primaryKey: [AttributeKey]
    package let valueKind: ValueKind
    /// Whether items of the migratable protection classes, without access-control constraints, go into backups.
    package let backsUp: Bool
    /// The class a not-found explanation checks, if any.
    package let relatedClass: RelatedClass?
    /// Attributes that describe the value itself (a key's class, type and size): set from the value on add,
    /// never changed by an update, so the stored value can always be rebuilt from them.
    package let describesValue: Set<AttributeKey>
    /// For a class whose items are not stored but made by joining two stored classes (identities), how.
    package let join: JoinedClasses?

    /// The schema of `itemClass`, or nil for a class this engine does not know yet.
    package static func of(_ itemClass: ItemClass) -> ClassSchema? {
        stored.first { $0.itemClass == itemClass } ?? joined.first { $0.itemClass == itemClass }
    }

    /// Every class this engine stores, one file each in `Classes/`: adding a class is adding a descriptor there
    /// (and its table as a new step of `SchemaHistory`).
    package static let stored: [ClassSchema] = [.genericPassword, .internetPassword, .key, .certificate]

    /// Classes without a table of their own, whose items join items of two stored classes (`Classes/`).
    package static let joined: [ClassSchema] = [.identity]

    /// Attributes every password class has; `alis` too, a column of both of Apple's password tables.
    static let sharedPasswordAttributes: [AttributeKey: AttributeKind] = [
        .label: .text, .alias: .text, .description: .text, .comment: .text, .creator: .number, .type: .number,
        .isInvisible: .boolean, .isNegative: .boolean, .creationDate: .date, .modificationDate: .date,
    ]

    /// The value an add gives a primary-key attribute it left out: the default of Apple's column (securityd's
    /// `SecItemSchema.c`, `SecDbItemCopyValue` in `SecDbItem.c`): 0 for a number (flag `Z`), empty data for a text
    /// or data attribute (flag `E`; securityd's text columns are blobs, whose default is an empty CFData, not a
    /// string). It is sealed with the item's attributes, as securityd seals its defaults with the item, so an
    /// item added without an account reads back `acct` as empty data, as on a device. Absent, "" and empty data
    /// collide as there: the digests hash a value's bytes without its type. Rows written before this default was
    /// data keep the "" they stored. `ptcl` keeps "": Apple's is a number defaulting to 0, whose digest differs
    /// from that of "", so following it would split existing items' primary keys (docs/compatibility.md).
    func defaultValue(for key: AttributeKey) -> AttributeValue {
        switch attributes[key] {
        case .number?: .number(0)
        case .text? where key == .protocol: .string("")
        case .text?, .data?: .data([])
        default: .string("")
        }
    }

    /// Attributes with an index digest column (every attribute but the dates), in a fixed order.
    let indexedAttributes: [AttributeKey]

    init(
        itemClass: ItemClass, attributes: [AttributeKey: AttributeKind], primaryKey: [AttributeKey],
        valueKind: ValueKind, backsUp: Bool, relatedClass: RelatedClass? = nil,
        describesValue: Set<AttributeKey> = [], join: JoinedClasses? = nil
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.primaryKey = primaryKey
        self.valueKind = valueKind
        self.backsUp = backsUp
        self.relatedClass = relatedClass
        self.describesValue = describesValue
        self.join = join
        indexedAttributes = attributes.filter { $0.value != .date }.keys.sorted()
    }
}
