import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Small files that hold key material: created once, atomically, readable by the owner only (0600).
/// All their system calls are here, with EINTR retried and errno turned into a ``KeychainError``.
enum SecretFile {
    /// Reads the whole file, or nil when it does not exist.
    static func read(_ url: URL) throws -> [UInt8]? {
        let descriptor = try retrying { open(url.path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("open", url)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try retrying {
                chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            }
            guard count >= 0 else { throw failure("read", url) }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// Creates `url` with `bytes` unless it already exists: the bytes go to a private temporary file that is
    /// synced and then hard-linked into place, so a reader never sees a partial file and, of two processes
    /// racing, exactly one wins. Returns false when the file already existed.
    @discardableResult
    static func createExclusively(_ url: URL, bytes: [UInt8]) throws -> Bool {
        let temporary = try writeTemporary(beside: url, bytes: bytes)
        defer { unlink(temporary) }
        if link(temporary, url.path) == 0 {
            syncDirectory(url)
            return true
        }
        if errno == EEXIST { return false }
        throw failure("link", url)
    }

    /// Replaces `url` atomically with `bytes` (write, sync, rename).
    static func replace(_ url: URL, bytes: [UInt8]) throws {
        let temporary = try writeTemporary(beside: url, bytes: bytes)
        guard rename(temporary, url.path) == 0 else {
            // errno is rename's until the next call: capture it before unlink can replace it.
            let error = failure("rename", url)
            unlink(temporary)
            throw error
        }
        syncDirectory(url)
    }

    /// The identity of the file's current version (inode, change time), or nil when it does not exist. A file
    /// replaced by ``replace(_:bytes:)`` gets a new inode, so a changed identity means new contents.
    static func identity(_ url: URL) -> [Int] {
        var info = stat()
        guard url.withUnsafeFileSystemRepresentation({ $0.map { stat($0, &info) } ?? -1 }) == 0 else { return [] }
        return [
            Int(truncatingIfNeeded: info.st_ino), info.st_ctim.tv_sec, info.st_ctim.tv_nsec,
            Int(truncatingIfNeeded: info.st_size),
        ]
    }

    /// Runs `body` holding an exclusive lock (`flock`) on `url`, created if missing, so that read-modify-write
    /// cycles of several processes on one file take turns.
    static func withExclusiveLock<R>(_ url: URL, _ body: () throws -> R) throws -> R {
        let descriptor = try retrying { open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw failure("open", url) }
        defer { close(descriptor) }
        guard try retrying({ flock(descriptor, LOCK_EX) }) == 0 else { throw failure("flock", url) }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Creates an empty file readable by the owner only (0600) when missing; an existing file keeps its contents
    /// and is narrowed to 0600.
    static func createOwnerOnly(_ url: URL) throws {
        let descriptor = try retrying { open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw failure("create", url) }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw failure("chmod", url) }
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
        let descriptor = try retrying { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw failure("create", url) }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = try retrying {
                bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            }
            guard written > 0 else {
                let error = failure("write", url)
                unlink(path)
                throw error
            }
            offset += written
        }
        guard fsync(descriptor) == 0 else {
            let error = failure("fsync", url)
            unlink(path)
            throw error
        }
        return path
    }

    private static func syncDirectory(_ url: URL) {
        let descriptor = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func retrying<T: BinaryInteger>(_ call: () -> T) throws -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// The error of the call that just failed; call it before any other system call, which may change errno.
    private static func failure(_ operation: String, _ url: URL) -> KeychainError {
        let code = errno
        let text = String(cString: strerror(code))
        let status = code == ENOSPC ? SecurityStatus.diskFull : SecurityStatus.io
        return KeychainError(status, reason: "\(operation) \(url.lastPathComponent): \(text)")
    }
}
