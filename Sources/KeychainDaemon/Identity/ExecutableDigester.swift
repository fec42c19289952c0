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

    /// What was learnt of an executable: which file it is, and its SHA-256 unless it is over the bound.
    package struct Digest: Sendable, Equatable {
        package let file: FileIdentity
        /// Nil for a file over ``ExecutableDigester/largestExecutable``, which is not read.
        package let sha256: [UInt8]?
    }

    package init(cacheLimit: Int = 512) { self.cacheLimit = cacheLimit }

    /// The file identity and digest of the executable `/proc/<pid>/exe` opens; nil when it cannot be opened.
    package func digest(ofExecutableAt linkPath: String) -> Digest? {
        guard let descriptor = try? SystemCalls.open(linkPath, O_RDONLY | O_NOCTTY) else { return nil }
        defer { SystemCalls.close(descriptor) }
        return digest(ofOpenFile: descriptor, path: linkPath)
    }

    /// The file identity and digest of the file open as `descriptor` (read from its start; `path` names it in
    /// errors); nil when it cannot be read. A file over ``largestExecutable`` keeps its identity, without a digest.
    package func digest(ofOpenFile descriptor: Int32, path: String) -> Digest? {
        guard let status = try? SystemCalls.fstat(descriptor, path: path) else { return nil }
        let file = FileIdentity(device: status.device, inode: status.inode)
        guard status.size <= Self.largestExecutable else { return Digest(file: file, sha256: nil) }
        let version = FileVersion(
            file: file, size: status.size,
            modified: timespec.Fields(seconds: status.modificationSeconds, nanoseconds: status.modificationNanoseconds),
            changed: timespec.Fields(seconds: status.changeSeconds, nanoseconds: status.changeNanoseconds))
        if let known = cache.withLock({ $0[version] }) { return Digest(file: file, sha256: known) }
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
            if total > Self.largestExecutable { return Digest(file: file, sha256: nil) }
            chunk.withUnsafeBytes { state.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        let digest = state.finalizedBytes()
        cache.withLock { entries in
            if entries.count >= cacheLimit { entries.removeAll() }
            entries[version] = digest
        }
        return Digest(file: file, sha256: digest)
    }
}

extension timespec {
    /// A timespec's two numbers, hashable.
    struct Fields: Hashable {
        let seconds: Int
        let nanoseconds: Int
    }
}
