/// A value bound to or read from SQLite.
package enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])

    /// The bytes of a blob, or nil.
    package var blobValue: [UInt8]? {
        if case .blob(let bytes) = self { return bytes }
        return nil
    }

    /// The integer, or nil.
    package var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The text, or nil.
    package var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}
