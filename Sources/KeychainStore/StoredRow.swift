/// One encrypted item row as stored: nothing in it is plaintext but the protection class name.
package struct StoredRow: Sendable {
    /// SQLite's rowid: insertion order.
    package var rowid: Int64
    /// The item's 16-byte UUID (its persistent reference).
    package var uuid: [UInt8]
    /// The keyed digest of the item's primary key; unique per table.
    package var primaryKeyDigest: [UInt8]
    /// The protection class ("ak", "ck", …), needed before any key is unwrapped.
    package var protection: String
    /// The item format version, bound into the ciphertexts.
    package var version: Int64
    /// The item key, wrapped by the class key.
    package var wrappedKey: [UInt8]
    /// The sealed attributes.
    package var metadata: [UInt8]
    /// The sealed secret; empty when a read did not ask for it.
    package var secret: [UInt8]
    /// The digest columns' values, in the order of the table's ``ItemTableSpec/digestColumns`` (nil is NULL):
    /// what a write stores. Reads leave it empty.
    package var digests: [[UInt8]?]
    /// The row's digest columns as its secret's seal binds them (``ItemTableSpec/indexBinding(_:)``), as read
    /// with the secret; empty when a read did not ask for the secret.
    package var indexBinding: [UInt8]

    package init(
        rowid: Int64 = 0, uuid: [UInt8], primaryKeyDigest: [UInt8], protection: String, version: Int64,
        wrappedKey: [UInt8], metadata: [UInt8], secret: [UInt8], digests: [[UInt8]?],
        indexBinding: [UInt8] = []
    ) {
        self.rowid = rowid
        self.uuid = uuid
        self.primaryKeyDigest = primaryKeyDigest
        self.protection = protection
        self.version = version
        self.wrappedKey = wrappedKey
        self.metadata = metadata
        self.secret = secret
        self.digests = digests
        self.indexBinding = indexBinding
    }
}

/// Which rows a read or delete selects: every condition must hold.
package struct RowFilter: Sendable {
    /// Each digest column must equal one of the listed values.
    package var digestsAnyOf: [(column: String, values: [[UInt8]])] = []
    package var protection: String?
    package var uuid: [UInt8]?
    /// At most this many rows, in insertion order.
    package var limit: Int?
    /// Only rows written in an item format older than this.
    package var versionBelow: Int64?
    /// Only rows after this rowid: a walk over a large table in batches goes on where the last batch stopped.
    package var rowidAbove: Int64?

    package init(
        digestsAnyOf: [(column: String, values: [[UInt8]])] = [], protection: String? = nil, uuid: [UInt8]? = nil,
        limit: Int? = nil
    ) {
        self.digestsAnyOf = digestsAnyOf
        self.protection = protection
        self.uuid = uuid
        self.limit = limit
    }
}
