/// The shape of one item table: fixed columns plus one keyed-digest column per searchable attribute.
/// The engine decides which columns exist; this layer only turns that into SQL.
package struct ItemTableSpec: Sendable {
    /// The table name (the class's raw name, e.g. "genp").
    package let name: String
    /// Digest columns, in order.
    package let digestColumns: [String]
    /// Column lists that get an index, for the common lookups.
    package let indexes: [[String]]

    package init(name: String, digestColumns: [String], indexes: [[String]]) {
        self.name = name
        self.digestColumns = digestColumns
        self.indexes = indexes
    }

    /// The statements that create the table and its indexes.
    var createSQL: String {
        let digests = digestColumns.map { "\($0) BLOB" }.joined(separator: ", ")
        var sql = """
            CREATE TABLE \(name) (
                rowid INTEGER PRIMARY KEY,
                uuid BLOB NOT NULL UNIQUE,
                pkey BLOB NOT NULL UNIQUE,
                pdmn TEXT NOT NULL,
                version INTEGER NOT NULL,
                wrappedkey BLOB NOT NULL,
                meta BLOB NOT NULL,
                secret BLOB NOT NULL,
                \(digests));
            """
        for columns in indexes {
            sql +=
                "\nCREATE INDEX \(name)_\(columns.joined(separator: "_")) ON \(name) (\(columns.joined(separator: ", ")));"
        }
        return sql
    }
}
