import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The machine administrator's opt-in to a software Secure Enclave where no TPM answers (read by CryptoKit's
/// `SecureEnclave` and by `security show-keychain-info`): the file `/etc/keychain/secure-enclave` holding the word
/// `software`. Whoever can write that file can make every user's new enclave keys software keys, so it counts only
/// when the file is a regular file owned by root and written by nobody else, in a directory owned by root and
/// written by nobody else; otherwise it is ignored, and `KEYCHAIN_DEBUG` says why. No environment variable can turn
/// it on: an ordinary process cannot opt itself in.
package struct SecureEnclaveSetting: Sendable, Equatable {
    /// The setting file.
    package var path: String
    /// The owner the file and its directory must have (root).
    package var administrator: uid_t

    /// The setting in `path`, counted when `administrator` owns it and its directory (a test's own files).
    package init(path: String, administrator: uid_t) {
        self.path = path
        self.administrator = administrator
    }

    /// The machine's setting.
    package static let system = SecureEnclaveSetting(path: "/etc/keychain/secure-enclave", administrator: 0)

    /// The setting a test reads instead of the machine's, for the task it runs in.
    @TaskLocal package static var override: SecureEnclaveSetting? = nil

    /// The setting of this task: the machine's unless a test points elsewhere.
    package static var current: SecureEnclaveSetting { override ?? .system }

    /// What the setting says.
    package enum Decision: Equatable, Sendable {
        /// The administrator opted in to the software enclave.
        case software
        /// No software enclave; `reason` says why a setting that exists does not count (nil: there is none).
        case off(reason: String?)
    }

    /// Reads the setting now (a few system calls; an administrator's change applies to the next key operation).
    package func read() -> Decision {
        let directory = (path as NSString).deletingLastPathComponent
        let descriptor: Int32
        do {
            descriptor = try SystemCalls.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        } catch {
            if error.code == ENOENT || error.code == ENOTDIR { return .off(reason: nil) }
            if error.code == ELOOP { return .off(reason: "\(path) is a symbolic link") }
            return .off(reason: "\(path) cannot be read: \(error.message)")
        }
        defer { SystemCalls.close(descriptor) }
        // The checks look at the file that was opened, so that it cannot be swapped between check and read.
        guard let file = try? SystemCalls.fstat(descriptor, path: path) else {
            return .off(reason: "\(path) cannot be examined")
        }
        if let problem = Self.problem(file, expectedType: S_IFREG, owner: administrator) {
            return .off(reason: "\(path) \(problem)")
        }
        guard let folder = try? SystemCalls.lstat(directory) else {
            return .off(reason: "\(directory) cannot be examined")
        }
        if let problem = Self.problem(folder, expectedType: S_IFDIR, owner: administrator) {
            return .off(reason: "\(directory) \(problem)")
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let read = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemCallError) in try SystemCalls.read(descriptor, into: raw, path: path) }
        }
        guard case .success(let count) = read else { return .off(reason: "\(path) cannot be read") }
        return Self.decision(String(decoding: buffer[0..<count], as: UTF8.self), path: path)
    }

    /// Why a file or directory with `status` cannot carry the administrator's setting; nil when it can.
    private static func problem(_ status: FileStatus, expectedType: mode_t, owner: uid_t) -> String? {
        if status.mode & UInt32(S_IFMT) != UInt32(expectedType) {
            return expectedType == S_IFDIR ? "is not a directory" : "is not a regular file"
        }
        if status.owner != owner { return "is owned by user \(status.owner), not \(owner)" }
        if status.mode & UInt32(S_IWGRP) != 0 { return "is writable by its group" }
        if status.mode & UInt32(S_IWOTH) != 0 { return "is writable by others" }
        return nil
    }

    /// The value in the file's text: its first word outside `#` comments.
    private static func decision(_ text: String, path: String) -> Decision {
        let words = text.split(whereSeparator: \.isNewline)
            .map { $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
            .flatMap { $0.split(whereSeparator: \.isWhitespace) }
        guard let value = words.first else { return .off(reason: "\(path) names no enclave") }
        guard words.count == 1 else { return .off(reason: "\(path) holds more than one word") }
        switch value {
        case "software": return .software
        case "none": return .off(reason: nil)
        default: return .off(reason: "\(path) names an unknown enclave (\"software\" or \"none\" are known)")
        }
    }
}
