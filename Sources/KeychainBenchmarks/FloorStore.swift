import COpenSSL
import CSQLite
import Foundation

/// The least work any encrypted store must do for the same calls, written directly against SQLite and
/// OpenSSL: one insert in its own fully synced WAL transaction plus one AES-256-GCM encryption; one
/// primary-key select plus one decryption. No keys per item, no digests, no validation.
final class FloorStore {
    private var database: OpaquePointer?
    private var insert: OpaquePointer?
    private var select: OpaquePointer?
    private var begin: OpaquePointer?
    private var commit: OpaquePointer?
    private let cipher = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil)
    private var key = [UInt8](repeating: 7, count: 32)

    init(directory: URL) {
        sqlite3_open(directory.appendingPathComponent("floor.db").path, &database)
        sqlite3_exec(database, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", nil, nil, nil)
        sqlite3_exec(database, "CREATE TABLE items (id INTEGER PRIMARY KEY, k BLOB UNIQUE, v BLOB)", nil, nil, nil)
        sqlite3_prepare_v2(database, "INSERT INTO items (k, v) VALUES (?, ?)", -1, &insert, nil)
        sqlite3_prepare_v2(database, "SELECT v FROM items WHERE k = ?", -1, &select, nil)
        sqlite3_prepare_v2(database, "BEGIN IMMEDIATE", -1, &begin, nil)
        sqlite3_prepare_v2(database, "COMMIT", -1, &commit, nil)
        _ = key.withUnsafeMutableBytes { RAND_bytes($0.baseAddress!.assumingMemoryBound(to: UInt8.self), 32) }
    }

    deinit {
        for statement in [insert, select, begin, commit] { sqlite3_finalize(statement) }
        sqlite3_close(database)
        EVP_CIPHER_free(cipher)
    }

    private static func step(_ statement: OpaquePointer?) {
        sqlite3_step(statement)
        sqlite3_reset(statement)
    }

    /// One durable insert of `secret` under primary key `primaryKey`.
    func add(primaryKey: [UInt8], secret: [UInt8]) {
        let box = seal(secret)
        Self.step(begin)
        sqlite3_bind_blob(insert, 1, primaryKey, Int32(primaryKey.count), nil)
        sqlite3_bind_blob(insert, 2, box, Int32(box.count), nil)
        Self.step(insert)
        Self.step(commit)
    }

    /// Inserts many rows in one transaction (to fill the table before lookups).
    func fill(count: Int, secret: [UInt8], key: (Int) -> [UInt8]) {
        Self.step(begin)
        for index in 0..<count {
            let primaryKey = key(index)
            let box = seal(secret)
            sqlite3_bind_blob(insert, 1, primaryKey, Int32(primaryKey.count), nil)
            sqlite3_bind_blob(insert, 2, box, Int32(box.count), nil)
            Self.step(insert)
        }
        Self.step(commit)
    }

    /// One primary-key select and one decryption; returns the plaintext length.
    func lookup(primaryKey: [UInt8]) -> Int {
        sqlite3_bind_blob(select, 1, primaryKey, Int32(primaryKey.count), nil)
        defer { sqlite3_reset(select) }
        guard sqlite3_step(select) == SQLITE_ROW, let blob = sqlite3_column_blob(select, 0) else { return -1 }
        let box = Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(select, 0))))
        return open(box)
    }

    private func seal(_ plaintext: [UInt8]) -> [UInt8] {
        var box = [UInt8](repeating: 0, count: 12 + plaintext.count + 16)
        let context = EVP_CIPHER_CTX_new()
        defer { EVP_CIPHER_CTX_free(context) }
        box.withUnsafeMutableBufferPointer { out in
            _ = RAND_bytes(out.baseAddress, 12)
            var length: Int32 = 0
            EVP_EncryptInit_ex2(context, cipher, key, out.baseAddress, nil)
            EVP_EncryptUpdate(context, out.baseAddress! + 12, &length, plaintext, Int32(plaintext.count))
            EVP_EncryptFinal_ex(context, out.baseAddress! + 12 + plaintext.count, &length)
            kossl_gcm_get_tag(context, 16, out.baseAddress! + 12 + plaintext.count)
        }
        return box
    }

    private func open(_ box: [UInt8]) -> Int {
        let count = box.count - 28
        var plain = [UInt8](repeating: 0, count: count)
        var tag = Array(box[(12 + count)...])
        let context = EVP_CIPHER_CTX_new()
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        let ok = box.withUnsafeBufferPointer { input in
            EVP_DecryptInit_ex2(context, cipher, key, input.baseAddress, nil)
            EVP_DecryptUpdate(context, &plain, &length, input.baseAddress! + 12, Int32(count))
            kossl_gcm_set_tag(context, 16, &tag)
            return plain.withUnsafeMutableBufferPointer { out in
                EVP_DecryptFinal_ex(context, out.baseAddress! + Int(length), &length)
            }
        }
        return ok == 1 ? count : -1
    }
}
