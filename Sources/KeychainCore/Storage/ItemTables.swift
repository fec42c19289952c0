import KeychainStore

/// Maps each stored class's schema to its table: a digest column `d_<attr>` per attribute, plus `f_<attr>`
/// (the case-folded digest) for text attributes, plus the group and sync digests.
enum ItemTables {
    static let storedClasses: [ClassSchema] = [.genericPassword, .internetPassword]

    static func digestColumn(_ key: AttributeKey) -> String { "d_" + key.rawValue }
    static func foldedColumn(_ key: AttributeKey) -> String { "f_" + key.rawValue }

    static func spec(_ schema: ClassSchema) -> ItemTableSpec {
        var columns = [digestColumn(.accessGroup), digestColumn(.synchronizable)]
        for key in schema.indexedAttributes {
            columns.append(digestColumn(key))
            if schema.attributes[key] == .text { columns.append(foldedColumn(key)) }
        }
        let lookups: [[String]] = switch schema.itemClass {
        case .genericPassword: [[digestColumn(.service), digestColumn(.account)], [digestColumn(.account)]]
        case .internetPassword: [[digestColumn(.server), digestColumn(.account)], [digestColumn(.account)]]
        default: []
        }
        return ItemTableSpec(name: schema.itemClass.rawValue, digestColumns: columns, indexes: lookups)
    }

    static var all: [ItemTableSpec] { storedClasses.map(spec) }
}
