/// The shape of one item table as the store reads and writes it: fixed columns plus one keyed-digest column per
/// searchable attribute. The engine decides which columns exist and creates them through its frozen schema
/// history; this layer only names them in SQL.
package struct ItemTableSpec: Sendable {
    /// The table name (the class's raw name, e.g. "genp").
    package let name: String
    /// Digest columns, in order.
    package let digestColumns: [String]

    package init(name: String, digestColumns: [String]) {
        self.name = name
        self.digestColumns = digestColumns
    }
}
