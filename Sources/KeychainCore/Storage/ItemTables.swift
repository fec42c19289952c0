import KeychainStore

/// Maps each stored class's schema to its table's columns: a digest column `d_<attr>` per attribute, plus
/// `f_<attr>` (the case-folded digest) for text attributes, plus the group and sync digests. The tables themselves
/// (and their lookup indexes) are created by `SchemaHistory`.
enum ItemTables {
    static func digestColumn(_ key: AttributeKey) -> String { "d_" + key.rawValue }
    static func foldedColumn(_ key: AttributeKey) -> String { "f_" + key.rawValue }
    /// The two digest columns every lookup filters on, named once.
    static let accessGroupColumn = digestColumn(.accessGroup)
    static let synchronizableColumn = digestColumn(.synchronizable)

    /// The spec of `schema`'s table, built once per class: every write binds its index with it.
    static func spec(_ schema: ClassSchema) -> ItemTableSpec {
        specs[schema.itemClass] ?? makeSpec(schema)
    }

    private static let specs: [ItemClass: ItemTableSpec] = Dictionary(
        uniqueKeysWithValues: ClassSchema.stored.map { ($0.itemClass, makeSpec($0)) })

    private static func makeSpec(_ schema: ClassSchema) -> ItemTableSpec {
        var columns = [digestColumn(.accessGroup), digestColumn(.synchronizable)]
        for key in schema.indexedAttributes {
            columns.append(digestColumn(key))
            if schema.attributes[key] == .text { columns.append(foldedColumn(key)) }
        }
        return ItemTableSpec(name: schema.itemClass.rawValue, digestColumns: columns)
    }

    static var all: [ItemTableSpec] { ClassSchema.stored.map(makeSpec) }
}
