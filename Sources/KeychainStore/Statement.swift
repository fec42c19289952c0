@_implementationOnly import CSQLite

/// One prepared statement; finalized in `deinit`. Owned by its ``Database`` and used only under its lock.
package final class Statement {
    private let handle: OpaquePointer
    private unowned let database: Database
    // The bytes of the bound blobs and texts, in one buffer that outlives their binding (SQLite reads them in
    // place: one allocation per bind instead of a copy per value).
    private var bound: UnsafeMutableRawBufferPointer?

    init(database: Database, sql: String) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw database.error(code)
        }
        self.handle = statement
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
        bound?.deallocate()
    }

    /// Resets the statement and binds `values` to its parameters in order.
    package func bind(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        // Unbind before the buffer the old values point into goes.
        sqlite3_clear_bindings(handle)
        bound?.deallocate()
        bound = nil
        var size = 0
        for value in values {
            switch value {
            case .blob(let bytes): size += bytes.count
            case .text(let text): size += text.utf8.count
            case .null, .integer: break
            }
        }
        // Never empty, so a zero-length blob still gets a non-null pointer (SQLite stores NULL for a null one).
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 1)
        bound = buffer
        var used = 0
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
            case .text(let text):
                let start = used
                for byte in text.utf8 {
                    buffer[used] = byte
                    used += 1
                }
                code = sqlite3_bind_text(
                    handle, index, buffer.baseAddress.map { ($0 + start).assumingMemoryBound(to: CChar.self) },
                    Int32(used - start), nil)
            case .blob(let bytes):
                let start = used
                bytes.withUnsafeBytes { source in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[start..<(start + source.count)])
                        .copyMemory(from: source)
                }
                used += bytes.count
                code = sqlite3_bind_blob(handle, index, buffer.baseAddress.map { $0 + start }, Int32(bytes.count), nil)
            }
            guard code == SQLITE_OK else { throw database.error(code) }
        }
    }

    /// Resets the statement and binds the parameters `body` writes, in order, without building ``SQLValue``s:
    /// for a select whose values come straight from its filter. `byteCount` is the room the blobs and texts
    /// need (they are copied into one buffer that outlives their binding); writing more throws.
    func bind(byteCount: Int, _ body: (inout Parameters) throws -> Void) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        // The last buffer is reused when it is large enough: a prepared select binds the same sizes call after call.
        let buffer: UnsafeMutableRawBufferPointer
        if let last = bound, last.count >= byteCount {
            buffer = last
        } else {
            bound?.deallocate()
            // Never empty, so a zero-length blob still gets a non-null pointer (SQLite stores NULL for a null one).
            buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(byteCount, 1), alignment: 1)
            bound = buffer
        }
        var parameters = Parameters(statement: self, buffer: buffer)
        try body(&parameters)
    }

    /// The parameters of one ``bind(byteCount:_:)``, written in order.
    struct Parameters {
        fileprivate let statement: Statement
        fileprivate let buffer: UnsafeMutableRawBufferPointer
        fileprivate var used = 0
        fileprivate var index: Int32 = 1

        mutating func blob(_ bytes: [UInt8]) throws { try append(bytes, asText: false) }

        mutating func text(_ text: String) throws { try append(Array(text.utf8), asText: true) }

        mutating func integer(_ value: Int64) throws {
            try check(sqlite3_bind_int64(statement.handle, index, value))
        }

        private mutating func append(_ bytes: [UInt8], asText: Bool) throws {
            let start = used
            guard start + bytes.count <= buffer.count else { throw StoreError(code: SQLITE_RANGE, message: "bind") }
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: buffer[start..<(start + source.count)]).copyMemory(from: source)
            }
            used += bytes.count
            let address = buffer.baseAddress.map { $0 + start }
            let count = Int32(bytes.count)
            try check(
                asText
                    ? sqlite3_bind_text(
                        statement.handle, index, address?.assumingMemoryBound(to: CChar.self), count, nil)
                    : sqlite3_bind_blob(statement.handle, index, address, count, nil))
        }

        private mutating func check(_ code: Int32) throws {
            guard code == SQLITE_OK else { throw statement.database.error(code) }
            index += 1
        }
    }

    /// Advances to the next row. Returns false when the statement is done.
    package func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE:
            sqlite3_reset(handle)
            return false
        default:
            let error = database.error(sqlite3_reset(handle))
            throw SQLiteResult.ok ~= error.result ? database.error(code) : error
        }
    }

    /// Runs a statement that returns no rows.
    package func run(_ values: [SQLValue] = []) throws {
        try bind(values)
        while try step() {}
    }

    /// Runs a query and returns every row as an array of column values.
    package func rows(_ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try bind(values)
        var result: [[SQLValue]] = []
        while try step() {
            result.append((0..<columnCount).map { column($0) })
        }
        return result
    }

    /// The number of columns in a result row.
    package var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The value of `index` in the current row.
    package func column(_ index: Int) -> SQLValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(handle, column)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let base = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        default: return .null
        }
    }

    /// The blob of `index` in the current row, copied; empty when it is NULL or empty. Cheaper than
    /// ``column(_:)`` for columns whose type is known: no type check, no enum.
    package func blob(_ index: Int) -> [UInt8] {
        let column = Int32(index)
        guard let base = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: Int(sqlite3_column_bytes(handle, column))))
    }

    /// The integer of `index` in the current row; 0 when it is NULL.
    package func integer(_ index: Int) -> Int64 { sqlite3_column_int64(handle, Int32(index)) }

    /// The text of `index` in the current row; empty when it is NULL.
    package func text(_ index: Int) -> String {
        guard let text = sqlite3_column_text(handle, Int32(index)) else { return "" }
        return String(cString: text)
    }

    /// Calls `body` with the bytes of `index` in the current row, uncopied (valid only inside `body`), or nil when
    /// the value is NULL.
    package func withColumnBytes<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer?) throws -> Result) rethrows
        -> Result
    {
        let column = Int32(index)
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return try body(nil) }
        // sqlite3_column_blob before sqlite3_column_bytes, as SQLite documents, so the length is of the blob form.
        let base = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeRawBufferPointer(start: count > 0 ? base : nil, count: count))
    }

    /// Resets the statement so it releases its read snapshot.
    package func reset() { sqlite3_reset(handle) }
}

@available(*, unavailable)
extension Statement: Sendable {}
