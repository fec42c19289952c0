/// A SQLite failure, converted at the storage boundary. Carries SQLite's code and message, never bound values.
package struct StoreError: Error, CustomStringConvertible, Sendable {
    /// SQLite's extended result code.
    package let code: Int32
    /// SQLite's message for the failure (it names tables and constraints, not row contents).
    package let message: String

    package init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The primary result code (the low byte of the extended one).
    package var primaryCode: Int32 { code & 0xFF }
    /// A UNIQUE or PRIMARY KEY constraint refused the write.
    package var isUniqueViolation: Bool { code == 2067 || code == 1555 }  // SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY
    /// Another connection held a lock for longer than the busy timeout.
    package var isBusy: Bool { primaryCode == 5 || primaryCode == 6 }  // SQLITE_BUSY / SQLITE_LOCKED
    /// The file is damaged or not a database.
    package var isCorrupt: Bool { primaryCode == 11 || primaryCode == 26 }  // SQLITE_CORRUPT / SQLITE_NOTADB

    package var description: String { "SQLite error \(code): \(message)" }
}
