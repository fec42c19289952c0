/// A SQLite failure, converted at the storage boundary. Carries SQLite's code and message, never bound values.
package struct StoreError: Error, CustomStringConvertible, Sendable {
    /// SQLite's (extended) result code, named: match it with `~=` (`case .busy:`), never by number.
    package let result: SQLiteResult
    /// SQLite's message for the failure (it names tables and constraints, not row contents).
    package let message: String

    package init(_ result: SQLiteResult, message: String) {
        self.result = result
        self.message = message
    }

    package init(code: Int32, message: String) {
        self.init(SQLiteResult(code), message: message)
    }

    /// SQLite's extended result code, as a number (for messages).
    package var code: Int32 { result.code }
    /// A UNIQUE or PRIMARY KEY constraint refused the write.
    package var isUniqueViolation: Bool { Self.matches(result, .constraintUnique, .constraintPrimaryKey) }
    /// Another connection held a lock for longer than the busy timeout.
    package var isBusy: Bool { Self.matches(result, .busy, .locked) }
    /// The file is damaged or not a database.
    package var isCorrupt: Bool { Self.matches(result, .corrupt, .notADatabase) }
    /// The disk (or the file-size limit) is full.
    package var isDiskFull: Bool { Self.matches(result, .full) }

    private static func matches(_ result: SQLiteResult, _ patterns: SQLiteResult...) -> Bool {
        patterns.contains { $0 ~= result }
    }

    package var description: String { "SQLite error \(code): \(message)" }
}
