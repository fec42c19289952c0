internal import CryptoKitOpenSSL
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// SHA-256 of a running process's executable, read through `/proc/<pid>/exe` (so the bytes are those of the file
/// the process runs, even when its path now names another file). Digests are remembered by device, inode, size,
/// and modification and change times, so a program that connects often is read once; a change to the file
/// changes its change time, which no user can set back.
package final class ExecutableDigester: Sendable {
    private struct FileVersion: Hashable {
        let file: FileIdentity
        let size: Int64
        let modified: timespec.Fields
        let changed: timespec.Fields
    }

    private let cache = Mutex<[FileVersion: [UInt8]]>([:])
    private let cacheLimit: Int

    /// The largest executable read: 1 GiB, four times a toolchain's largest programs. A file padded beyond it (a
    /// sparse tail costs its maker nothing) would cost the daemon seconds of processor time per connection.
    package static let largestExecutable: Int64 = 1 << 30

    package init(cacheLimit: Int = 512) { self.cacheLimit = cacheLimit }

    /// The digest and file identity of the executable `/proc/<pid>/exe` opens; nil when it cannot be read, or is
    /// over ``largestExecutable``.
    package func digest(ofExecutableAt linkPath: String) -> (sha256: [UInt8], file: FileIdentity)? {
        guard let descriptor = try? SystemCalls.open(linkPath, O_RDONLY | O_NOCTTY) else { return nil }
        defer { SystemCalls.close(descriptor) }
        return digest(ofOpenFile: descriptor, path: linkPath)
    }

    /// The digest and file identity of the file open as `descriptor` (read from its start; `path` names it in
    /// errors); nil when it cannot be read, or is over ``largestExecutable``.
    package func digest(ofOpenFile descriptor: Int32, path: String) -> (sha256: [UInt8], file: FileIdentity)? {
        guard let status = try? SystemCalls.fstat(descriptor, path: path), status.size <= Self.largestExecutable
        else { return nil }
        let file = FileIdentity(device: status.device, inode: status.inode)
        let version = FileVersion(
            file: file, size: status.size,
            modified: timespec.Fields(seconds: status.modificationSeconds, nanoseconds: status.modificationNanoseconds),
            changed: timespec.Fields(seconds: status.changeSeconds, nanoseconds: status.changeNanoseconds))
        if let known = cache.withLock({ $0[version] }) { return (known, file) }
        var state = SHA256State()
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        var total: Int64 = 0
        while true {
            let read = chunk.withUnsafeMutableBytes { raw in
                Result { () throws(SystemCallError) in try SystemCalls.read(descriptor, into: raw, path: path) }
            }
            guard case .success(let count) = read else { return nil }
            if count == 0 { break }
            // A file that grows while it is read is held to the same bound.
            total += Int64(count)
            if total > Self.largestExecutable { return nil }
            chunk.withUnsafeBytes { state.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        let digest = state.finalizedBytes()
        cache.withLock { entries in
            if entries.count >= cacheLimit { entries.removeAll() }
            entries[version] = digest
        }
        return (digest, file)
    }
}

extension timespec {
    /// A timespec's two numbers, hashable.
    struct Fields: Hashable {
        let seconds: Int
        let nanoseconds: Int
    }
}
