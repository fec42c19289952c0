@_implementationOnly import CSQLite

extension Database {
    /// Whether no transaction is open (SQLite's autocommit mode): after a failure inside a transaction this
    /// says whether SQLite rolled the whole transaction back by itself (as it does on a full disk or an I/O error).
    package var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }
}
