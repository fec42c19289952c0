internal import CSQLite

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
    package var isUniqueViolation: Bool { code == Self.constraintUnique || code == Self.constraintPrimaryKey }
    /// Another connection held a lock for longer than the busy timeout.
    package var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    /// The file is damaged or not a database.
    package var isCorrupt: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }
    /// The disk (or the file-size limit) is full.
    package var isDiskFull: Bool { primaryCode == SQLITE_FULL }

    // The extended codes are expression macros, which Swift does not import (sqlite3.h defines them this way).
    private static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)
    private static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)

    package var description: String { "SQLite error \(code): \(message)" }
}
