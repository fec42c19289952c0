import Foundation
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Small files that hold key material: created once, atomically, readable by the owner only (0600).
/// Their system calls go through `SystemCalls` (errno captured, EINTR retried); failures become ``KeychainError``.
enum SecretFile {
    /// Reads the whole file, or nil when it does not exist.
    static func read(_ url: URL) throws -> [UInt8]? {
        let descriptor: Int32
        do throws(SystemCallError) {
            descriptor = try SystemCalls.open(url.path, O_RDONLY)
        } catch  where error.code == ENOENT {
            return nil
        } catch {
            throw failure(error, url)
        }
        defer { SystemCalls.close(descriptor) }
        return try reporting(url) { () throws(SystemCallError) in try SystemCalls.readAll(descriptor) }
    }

    /// Creates `url` with `bytes` unless it already exists: the bytes go to a private temporary file that is
    /// synced and then hard-linked into place, so a reader never sees a partial file and, of two processes
    /// racing, exactly one wins. Returns false when the file already existed.
    @discardableResult
    static func createExclusively(_ url: URL, bytes: [UInt8]) throws -> Bool {
        if let created = try createUnnamedThenLink(url, bytes: bytes) { return created }
        let temporary = try writeTemporary(beside: url, bytes: bytes)
        defer { try? SystemCalls.unlink(temporary) }
        beforeLinking.withLock { $0 }?()
        do throws(SystemCallError) {
            try SystemCalls.link(temporary, to: url.path)
        } catch  where error.code == EEXIST {
            return false
        } catch {
            throw failure(error, url)
        }
        try syncDirectory(url)
        return true
    }

    /// Tests only: runs when a new file's bytes are written and synced, just before it gets its name, the moment
    /// at which a process killed leaves behind whatever has a name by then.
    static let beforeLinking = Mutex<(@Sendable () -> Void)?>(nil)

    /// ``createExclusively(_:bytes:)`` with a file that has no name until it is complete (`O_TMPFILE`), so a
    /// process killed meanwhile leaves nothing beside `url`; nil where the file system offers no such files.
    private static func createUnnamedThenLink(_ url: URL, bytes: [UInt8]) throws -> Bool? {
        let descriptor: Int32
        do throws(SystemCallError) {
            descriptor = try SystemCalls.openUnnamed(inDirectory: url.deletingLastPathComponent().path, mode: 0o600)
        } catch  where [EOPNOTSUPP, EISDIR, EINVAL].contains(error.code) {
            return nil
        } catch {
            throw failure(error, url, as: "create")
        }
        defer { SystemCalls.close(descriptor) }
        try reporting(url) { () throws(SystemCallError) in
            try SystemCalls.writeAll(descriptor, bytes)
            try SystemCalls.fsync(descriptor)
        }
        beforeLinking.withLock { $0 }?()
        do throws(SystemCallError) {
            try SystemCalls.linkUnnamed(descriptor, to: url.path)
        } catch  where error.code == EEXIST {
            return false
        } catch  where error.code == ENOENT || error.code == EPERM {
            // Neither /proc nor CAP_DAC_READ_SEARCH: the unnamed file cannot be named; a named one will do.
            return nil
        } catch {
            throw failure(error, url)
        }
        try syncDirectory(url)
        return true
    }

    /// Replaces `url` atomically with `bytes` (write, sync, rename).
    static func replace(_ url: URL, bytes: [UInt8]) throws {
        let temporary = try writeTemporary(beside: url, bytes: bytes)
        do throws(SystemCallError) {
            try SystemCalls.rename(temporary, to: url.path)
        } catch {
            // The error holds rename's errno already; the cleanup's unlink cannot replace it.
            try? SystemCalls.unlink(temporary)
            throw failure(error, url)
        }
        try syncDirectory(url)
    }

    /// The identity of the file's current version (inode, change time, size), or nil when it does not exist. A
    /// file replaced by ``replace(_:bytes:)`` gets a new inode, so a changed identity means new contents.
    static func identity(_ url: URL) -> FileIdentity? {
        fileIdentity(path: url.path)
    }

    /// Runs `body` holding an exclusive lock (`flock`) on `url`, created if missing, so that read-modify-write
    /// cycles of several processes on one file take turns.
    static func withExclusiveLock<R>(_ url: URL, _ body: () throws -> R) throws -> R {
        let descriptor = try reporting(url) { () throws(SystemCallError) in
            try SystemCalls.open(url.path, O_RDWR | O_CREAT, mode: 0o600)
        }
        defer { SystemCalls.close(descriptor) }  // closing the descriptor drops the lock
        try reporting(url) { () throws(SystemCallError) in try SystemCalls.flock(descriptor, LOCK_EX) }
        return try body()
    }

    /// Creates an empty file readable by the owner only (0600) when missing; an existing file keeps its contents
    /// and is narrowed to 0600.
    static func createOwnerOnly(_ url: URL) throws {
        let descriptor = try reporting(url, as: "create") { () throws(SystemCallError) in
            try SystemCalls.open(url.path, O_RDWR | O_CREAT, mode: 0o600)
        }
        defer { SystemCalls.close(descriptor) }
        try reporting(url) { () throws(SystemCallError) in try SystemCalls.fchmod(descriptor, mode: 0o600) }
    }

    /// Creates the keychain home (0700) when missing.
    static func createDirectory(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw KeychainError.notAvailable.because("cannot create keychain home \(url.path)")
        }
    }

    private static func writeTemporary(beside url: URL, bytes: [UInt8]) throws -> String {
        let path = url.path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = try reporting(url, as: "create") { () throws(SystemCallError) in
            try SystemCalls.open(path, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        }
        defer { SystemCalls.close(descriptor) }
        do throws(SystemCallError) {
            try SystemCalls.writeAll(descriptor, bytes)
            try SystemCalls.fsync(descriptor)
        } catch {
            try? SystemCalls.unlink(path)
            throw failure(error, url)
        }
        return path
    }

    /// Makes a new name in `url`'s directory durable. A failure is the caller's: the name may not survive a
    /// crash, so the change cannot be reported done. A file system that cannot sync a directory (EINVAL: some
    /// network and virtual-machine shares) keeps names as it can, as SQLite takes it.
    private static func syncDirectory(_ url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let descriptor = try reporting(directory) { () throws(SystemCallError) in
            try SystemCalls.open(directory.path, O_RDONLY | O_DIRECTORY)
        }
        defer { SystemCalls.close(descriptor) }
        do throws(SystemCallError) {
            try SystemCalls.fsync(descriptor)
        } catch  where error.code == EINVAL {
            return
        } catch {
            throw failure(error, directory)
        }
    }

    /// Runs `body`, turning its failure into the keychain's error (see ``failure(_:_:as:)``).
    @discardableResult
    static func reporting<R>(
        _ url: URL, as call: String? = nil, _ body: () throws(SystemCallError) -> R
    ) throws(KeychainError) -> R {
        do { return try body() } catch { throw failure(error, url, as: call) }
    }

    /// The keychain's error for a failed call: `diskFull` for ENOSPC, else `io`, naming the call (or `call`)
    /// and the file, never its contents.
    static func failure(_ error: SystemCallError, _ url: URL, as call: String? = nil) -> KeychainError {
        let status = error.code == ENOSPC ? SecurityStatus.diskFull : SecurityStatus.io
        return KeychainError(status, reason: "\(call ?? error.call) \(url.lastPathComponent): \(error.message)")
    }
}
