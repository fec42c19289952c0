@_implementationOnly import CSQLite

/// A SQLite result code, named. A primary code (`.busy`) used as a pattern matches every extended code of its
/// family (`SQLITE_BUSY_SNAPSHOT`, …); an extended code (`.constraintUnique`) matches only itself:
///
///     switch error.result {
///     case .busy, .locked: …
///     case .constraintUnique, .constraintPrimaryKey: …
///     }
package struct SQLiteResult: Equatable, Sendable, CustomStringConvertible {
    /// The (extended) code.
    package let code: Int32

    package init(_ code: Int32) { self.code = code }

    /// The primary code: the low byte of an extended one.
    package var primary: SQLiteResult { SQLiteResult(code & 0xFF) }
    /// Whether this is a primary code, which as a pattern stands for its whole family.
    package var isPrimary: Bool { code & ~0xFF == 0 }

    package static let ok = SQLiteResult(SQLITE_OK)
    package static let error = SQLiteResult(SQLITE_ERROR)
    package static let busy = SQLiteResult(SQLITE_BUSY)
    package static let locked = SQLiteResult(SQLITE_LOCKED)
    package static let corrupt = SQLiteResult(SQLITE_CORRUPT)
    package static let notADatabase = SQLiteResult(SQLITE_NOTADB)
    package static let full = SQLiteResult(SQLITE_FULL)
    package static let ioError = SQLiteResult(SQLITE_IOERR)
    package static let constraint = SQLiteResult(SQLITE_CONSTRAINT)
    package static let row = SQLiteResult(SQLITE_ROW)
    package static let done = SQLiteResult(SQLITE_DONE)
    // The extended codes are expression macros, which Swift does not import (sqlite3.h defines them this way).
    package static let constraintForeignKey = SQLiteResult(SQLITE_CONSTRAINT | (3 << 8))
    package static let constraintPrimaryKey = SQLiteResult(SQLITE_CONSTRAINT | (6 << 8))
    package static let constraintUnique = SQLiteResult(SQLITE_CONSTRAINT | (8 << 8))

    /// A primary pattern matches its family; an extended pattern matches exactly.
    package static func ~= (pattern: SQLiteResult, value: SQLiteResult) -> Bool {
        pattern.isPrimary ? pattern.code == value.primary.code : pattern.code == value.code
    }

    /// SQLite's English name for the code ("database is locked").
    package var description: String { "\(code) (\(String(cString: sqlite3_errstr(code))))" }
}
