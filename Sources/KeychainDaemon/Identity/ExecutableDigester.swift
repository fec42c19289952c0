internal import CryptoKitOpenSSL
import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// SHA-256 of a running process's executable, read through `/proc/<pid>/exe` (so the bytes are those of the file
/// the process runs, even when its path now names another file). Digests are remembered by device, inode, size,
/// and modification and change times, so a program that connects often is read once; a change to the file
/// changes its change time, which no user can set back. Callers of one uid asking for the same version of a file
/// while it is being read wait for that one reading instead of each reading it, and reading takes a turn
/// (``HashTurns``): a bound on how many files are read at once, for all users and for each.
///
/// A digest is shared (remembered, or given to callers waiting for it) only when the file is shown unchanged by
/// its status after the reading, and was last changed at least a second before the reading began: a change
/// within the same tick of the kernel's coarse clock as the one before it may leave the change time as it was.
package final class ExecutableDigester: @unchecked Sendable {  // safe: the variables are used under `condition`
    private struct FileVersion: Hashable {
        let file: FileIdentity
        let size: Int64
        let modified: timespec.Fields
        let changed: timespec.Fields

        init(_ status: FileStatus) {
            file = FileIdentity(device: status.device, inode: status.inode)
            size = status.size
            modified = timespec.Fields(seconds: status.modificationSeconds, nanoseconds: status.modificationNanoseconds)
            changed = timespec.Fields(seconds: status.changeSeconds, nanoseconds: status.changeNanoseconds)
        }
    }

    /// One uid's reading of one version of a file, which its other callers wait for.
    private struct Reader: Hashable {
        let uid: UInt32
        let version: FileVersion
    }

    /// What a reading gave.
    private enum Outcome {
        case digest([UInt8])
        /// It grew past ``ExecutableDigester/largestExecutable`` while it was read.
        case overBound
        case unreadable
        case unavailable(Unavailable)
    }

    /// A reading under way; its outcome, once it has one, is for every caller that waited for it.
    private final class Reading {
        var outcome: Outcome?
    }

    private let condition = NSCondition()
    private var cache: [FileVersion: [UInt8]] = [:]
    private var readings: [Reader: Reading] = [:]
    private var readCount = 0
    private var joinedCount = 0
    private let cacheLimit: Int
    /// The turns at reading, which ``DaemonServer`` shares with `security apps show`.
    package let turns: HashTurns

    /// The largest executable read: 1 GiB, four times a toolchain's largest programs. A file padded beyond it (a
    /// sparse tail costs its maker nothing) would cost the daemon seconds of processor time per connection.
    package static let largestExecutable: Int64 = 1 << 30

    /// What was learnt of an executable: which file it is, and its SHA-256 unless it is over the bound.
    package struct Digest: Sendable, Equatable {
        package let file: FileIdentity
        /// Nil for a file over ``ExecutableDigester/largestExecutable``, which is not read.
        package let sha256: [UInt8]?
    }

    /// Why a file that could be read has no digest for this caller: it is refused, not judged without one.
    package enum Unavailable: Error, Sendable, Equatable, CustomStringConvertible {
        /// No turn at reading came within the caller's patience.
        case busy(seconds: Double)
        /// The file's status after reading differs from before: the bytes read may be of no one version.
        case changedWhileRead

        package var description: String {
            switch self {
            case .busy(let seconds):
                "keychaind is reading other programs' executables and had no turn for this one in "
                    + "\(Int(seconds)) s; try again later"
            case .changedWhileRead: "the executable changed while keychaind read it"
            }
        }
    }

    package init(cacheLimit: Int = 512, turns: HashTurns = HashTurns()) {
        self.cacheLimit = cacheLimit
        self.turns = turns
    }

    /// Readings of a file started so far (a digest remembered, or another reading waited for, starts none).
    package var readingsStarted: Int { condition.withLock { readCount } }
    /// Callers that waited for another caller's reading of the same file instead of reading it themselves.
    package var readingsJoined: Int { condition.withLock { joinedCount } }

    /// The file identity and digest of the executable `/proc/<pid>/exe` opens, read with a turn of `uid`'s; nil
    /// when it cannot be opened.
    package func digest(ofExecutableAt linkPath: String, uid: UInt32) throws(Unavailable) -> Digest? {
        guard let descriptor = try? SystemCalls.open(linkPath, O_RDONLY | O_NOCTTY) else { return nil }
        defer { SystemCalls.close(descriptor) }
        return try digest(ofOpenFile: descriptor, path: linkPath, uid: uid)
    }

    /// The file identity and digest of the file open as `descriptor` (read from its start, with a turn of `uid`'s;
    /// `path` names it in errors); nil when it cannot be read. A file over ``largestExecutable`` keeps its
    /// identity, without a digest.
    package func digest(ofOpenFile descriptor: Int32, path: String, uid: UInt32) throws(Unavailable) -> Digest? {
        let began = Date().timeIntervalSince1970
        guard let status = try? SystemCalls.fstat(descriptor, path: path) else { return nil }
        let file = FileIdentity(device: status.device, inode: status.inode)
        guard status.size <= Self.largestExecutable else { return Digest(file: file, sha256: nil) }
        let version = FileVersion(status)
        let changedAt = Double(status.changeSeconds) + Double(status.changeNanoseconds) / 1e9
        let shared = changedAt + 1 < began
        let reader = Reader(uid: uid, version: version)
        let reading: Reading
        condition.lock()
        if let known = cache[version] {
            condition.unlock()
            return Digest(file: file, sha256: known)
        }
        if shared, let underWay = readings[reader] {
            joinedCount += 1
            while underWay.outcome == nil { condition.wait() }
            condition.unlock()
            return try Self.digest(of: file, underWay.outcome ?? .unreadable)
        }
        reading = Reading()
        if shared { readings[reader] = reading }
        condition.unlock()

        let outcome = read(descriptor, path: path, uid: uid, version: version)
        condition.lock()
        reading.outcome = outcome
        if shared {
            readings[reader] = nil
            if case .digest(let digest) = outcome {
                if cache.count >= cacheLimit { cache.removeAll() }
                cache[version] = digest
            }
        }
        condition.broadcast()
        condition.unlock()
        return try Self.digest(of: file, outcome)
    }

    private static func digest(of file: FileIdentity, _ outcome: Outcome) throws(Unavailable) -> Digest? {
        switch outcome {
        case .digest(let digest): return Digest(file: file, sha256: digest)
        case .overBound: return Digest(file: file, sha256: nil)
        case .unreadable: return nil
        case .unavailable(let reason): throw reason
        }
    }

    /// Reads the file whole, in a turn of `uid`'s; a change to its status in the meantime makes it unavailable.
    private func read(_ descriptor: Int32, path: String, uid: UInt32, version: FileVersion) -> Outcome {
        guard turns.begin(uid: uid) else { return .unavailable(.busy(seconds: turns.patience)) }
        defer { turns.end(uid: uid) }
        // Another uid's caller may have read this version while this one waited for its turn.
        let known: [UInt8]? = condition.withLock {
            if let known = cache[version] { return known }
            readCount += 1
            return nil
        }
        if let known { return .digest(known) }
        var state = SHA256State()
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        var total: Int64 = 0
        while true {
            let read = chunk.withUnsafeMutableBytes { raw in
                Result { () throws(SystemCallError) in try SystemCalls.read(descriptor, into: raw, path: path) }
            }
            guard case .success(let count) = read else { return .unreadable }
            if count == 0 { break }
            // A file that grows while it is read is held to the same bound.
            total += Int64(count)
            if total > Self.largestExecutable { return .overBound }
            chunk.withUnsafeBytes { state.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        let digest = state.finalizedBytes()
        guard let after = try? SystemCalls.fstat(descriptor, path: path), FileVersion(after) == version else {
            return .unavailable(.changedWhileRead)
        }
        return .digest(digest)
    }
}

extension timespec {
    /// A timespec's two numbers, hashable.
    struct Fields: Hashable {
        let seconds: Int
        let nanoseconds: Int
    }
}
