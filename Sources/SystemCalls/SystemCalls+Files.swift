#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Files and descriptors.
extension SystemCalls {
    /// Opens `path`. `flags` are `open(2)`'s; `O_CLOEXEC` is always added, so no child inherits the descriptor.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemCallError) -> Int32 {
        try retrying("open", path: path) { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    /// Closes a descriptor. Not retried: after `EINTR` Linux has already released it.
    package static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    /// Reads up to `buffer.count` bytes. - Returns: the count read, 0 at end of file.
    package static func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String? = nil
    ) throws(SystemCallError) -> Int {
        try retrying("read", path: path) { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// Reads until end of file.
    package static func readAll(_ descriptor: Int32, path: String? = nil, limit: Int = .max)
        throws(SystemCallError) -> [UInt8]
    {
        var bytes: [UInt8] = []
        // The file may hold key material: the chunk is wiped before it is freed.
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer {
            chunk.baseAddress.map { explicit_bzero($0, chunk.count) }
            chunk.deallocate()
        }
        while bytes.count < limit {
            let count = try read(descriptor, into: chunk, path: path)
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// Writes every byte of `bytes`, continuing after short writes.
    package static func writeAll(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String? = nil
    ) throws(SystemCallError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            offset += try retrying("write", path: path) { Glibc.write(descriptor, base + offset, bytes.count - offset) }
        }
    }

    /// Writes every byte of an array; see ``writeAll(_:_:path:)-(_,UnsafeRawBufferPointer,_)``.
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String? = nil) throws(SystemCallError) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemCallError) in try writeAll(descriptor, buffer, path: path) }
        }.get()
    }

    /// Flushes the file's data and metadata to the disk.
    package static func fsync(_ descriptor: Int32, path: String? = nil) throws(SystemCallError) {
        try retrying("fsync", path: path) { Glibc.fsync(descriptor) }
    }

    /// Renames `source` to `destination`, replacing it atomically. The error names `destination`.
    package static func rename(_ source: String, to destination: String) throws(SystemCallError) {
        try retrying("rename", path: destination) { Glibc.rename(source, destination) }
    }

    /// Makes `destination` a second name of `source`; fails with `EEXIST` when it exists.
    package static func link(_ source: String, to destination: String) throws(SystemCallError) {
        try retrying("link", path: destination) { Glibc.link(source, destination) }
    }

    /// Removes the name `path`.
    package static func unlink(_ path: String) throws(SystemCallError) {
        try retrying("unlink", path: path) { Glibc.unlink(path) }
    }

    /// Creates the directory `path` with `mode` (less the umask).
    package static func mkdir(_ path: String, mode: mode_t) throws(SystemCallError) {
        try retrying("mkdir", path: path) { Glibc.mkdir(path, mode) }
    }

    /// Sets the permission bits of an open file.
    package static func fchmod(_ descriptor: Int32, mode: mode_t, path: String? = nil) throws(SystemCallError) {
        try retrying("chmod", path: path) { Glibc.fchmod(descriptor, mode) }
    }

    /// The status of an open file.
    package static func fstat(_ descriptor: Int32, path: String? = nil) throws(SystemCallError) -> FileStatus {
        var info = statusBuffer()
        try retrying("fstat", path: path) { fileStatus(descriptor, &info) }
        return FileStatus(info)
    }

    /// The status of the file at `path` (following symbolic links).
    package static func stat(_ path: String) throws(SystemCallError) -> FileStatus {
        var info = statusBuffer()
        try retrying("stat", path: path) { pathStatus(path, &info) }
        return FileStatus(info)
    }

    /// The status of the file at `path` itself, a symbolic link not followed.
    package static func lstat(_ path: String) throws(SystemCallError) -> FileStatus {
        var info = statusBuffer()
        try retrying("lstat", path: path) { linkStatus(path, &info) }
        return FileStatus(info)
    }

    /// Takes (`LOCK_EX`, `LOCK_SH`) or drops (`LOCK_UN`) an advisory lock on the whole file, waiting for it.
    package static func flock(_ descriptor: Int32, _ operation: Int32, path: String? = nil) throws(SystemCallError) {
        try retrying("flock", path: path) { fileLock(descriptor, operation) }
    }
}

// The C functions whose names the methods above shadow (and which share their names with C structs).
private func statusBuffer() -> stat { stat() }
private func fileStatus(_ descriptor: Int32, _ info: inout stat) -> Int32 { fstat(descriptor, &info) }
private func pathStatus(_ path: String, _ info: inout stat) -> Int32 { stat(path, &info) }
private func linkStatus(_ path: String, _ info: inout stat) -> Int32 { lstat(path, &info) }
private func fileLock(_ descriptor: Int32, _ operation: Int32) -> Int32 { flock(descriptor, operation) }

/// What `stat(2)` says of a file, as far as the project asks.
package struct FileStatus: Equatable, Sendable {
    package let device: UInt64
    package let inode: UInt64
    package let size: Int64
    /// The type and permission bits (`st_mode`).
    package let mode: UInt32
    /// The owner's uid.
    package let owner: UInt32
    package let modificationSeconds: Int
    package let modificationNanoseconds: Int
    package let changeSeconds: Int
    package let changeNanoseconds: Int
    /// The names the file has (`st_nlink`): 0 once it was removed or renamed over while still open.
    package let linkCount: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        owner = UInt32(info.st_uid)
        modificationSeconds = info.st_mtim.tv_sec
        modificationNanoseconds = info.st_mtim.tv_nsec
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        mode = UInt32(info.st_mode)
        changeSeconds = info.st_ctim.tv_sec
        changeNanoseconds = info.st_ctim.tv_nsec
        linkCount = UInt64(info.st_nlink)
    }
}

extension SystemCalls {
    /// The target of the symbolic link `path`.
    package static func readLink(_ path: String) throws(SystemCallError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try retrying("readlink", path: path) { readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
