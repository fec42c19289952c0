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
    static func spec(_ schema: ClassSchema) -> ItemTableSpec { layout(schema).spec }

    /// The layout of `schema`'s table, built once per class.
    static func layout(_ schema: ClassSchema) -> Layout {
        layouts[schema.itemClass] ?? Layout(schema)
    }

    private static let layouts: [ItemClass: Layout] = Dictionary(
        uniqueKeysWithValues: ClassSchema.stored.map { ($0.itemClass, Layout($0)) })

    static var all: [ItemTableSpec] { ClassSchema.stored.map { Layout($0).spec } }

    /// A table's digest columns and where each indexed attribute's digests go among them, so that a write fills
    /// its row by position instead of by column name.
    struct Layout {
        /// Where the group's and the sync flag's digests go.
        static let accessGroupPosition = 0
        static let synchronizablePosition = 1

        /// An indexed attribute and the positions of its digest and, for text, its case-folded digest.
        struct Indexed {
            let key: AttributeKey
            let digest: Int
            let folded: Int?
        }

        let spec: ItemTableSpec
        /// The schema's indexed attributes, in its order.
        let indexed: [Indexed]

        init(_ schema: ClassSchema) {
            var columns = [digestColumn(.accessGroup), digestColumn(.synchronizable)]
            var indexed: [Indexed] = []
            for key in schema.indexedAttributes {
                let digest = columns.count
                columns.append(digestColumn(key))
                var folded: Int?
                if schema.attributes[key] == .text {
                    folded = columns.count
                    columns.append(foldedColumn(key))
                }
                indexed.append(Indexed(key: key, digest: digest, folded: folded))
            }
            spec = ItemTableSpec(name: schema.itemClass.rawValue, digestColumns: columns)
            self.indexed = indexed
        }
    }
}
